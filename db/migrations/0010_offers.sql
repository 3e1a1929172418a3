CREATE TABLE "offer_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "offer_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"offer_id" integer NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"amount" integer NOT NULL,
	"actor_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offer_events_actor" CHECK ("offer_events"."actor" in ('buyer', 'seller', 'system')),
	CONSTRAINT "offer_events_action" CHECK ("offer_events"."action" in ('offer', 'counter', 'accept', 'decline', 'withdraw', 'expire')),
	CONSTRAINT "offer_events_amount_positive" CHECK ("offer_events"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "offers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"car_id" integer NOT NULL,
	"buyer_id" integer NOT NULL,
	"seller_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"amount_by" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"order_id" integer,
	"second_chance" boolean DEFAULT false NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offers_amount_positive" CHECK ("offers"."amount" > 0),
	CONSTRAINT "offers_amount_by" CHECK ("offers"."amount_by" in ('buyer', 'seller')),
	CONSTRAINT "offers_status" CHECK ("offers"."status" in ('open', 'accepted', 'declined', 'withdrawn', 'expired')),
	CONSTRAINT "offers_order_when_accepted" CHECK (("offers"."status" = 'accepted') = ("offers"."order_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "offer_events" ADD CONSTRAINT "offer_events_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_events" ADD CONSTRAINT "offer_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_seller_id_sellers_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."sellers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offer_events_offer_idx" ON "offer_events" USING btree ("offer_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "offer_events_closed_once" ON "offer_events" USING btree ("offer_id") WHERE "offer_events"."action" in ('accept', 'decline', 'withdraw', 'expire');--> statement-breakpoint
CREATE UNIQUE INDEX "offers_open_per_buyer_car" ON "offers" USING btree ("car_id","buyer_id") WHERE "offers"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "offers_order_unique" ON "offers" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "offers_buyer_idx" ON "offers" USING btree ("buyer_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "offers_seller_idx" ON "offers" USING btree ("seller_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "offers_open_car_idx" ON "offers" USING btree ("car_id") WHERE "offers"."status" = 'open';--> statement-breakpoint
CREATE INDEX "offers_open_expiry_idx" ON "offers" USING btree ("expires_at") WHERE "offers"."status" = 'open';--> statement-breakpoint
-- The database refuses any status change the offer table (common/offer-lifecycle.ts) does not
-- allow: every offer starts open and leaves it once. tests/offers-database.test.ts checks that
-- these pairs and the table agree.
CREATE FUNCTION "offer_status_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.status <> 'open' THEN
      RAISE EXCEPTION 'an offer starts open, not %', NEW.status USING ERRCODE = 'check_violation';
    END IF;
  ELSIF NEW.status IS DISTINCT FROM OLD.status AND (OLD.status, NEW.status) NOT IN (
    ('open', 'accepted'),
    ('open', 'declined'),
    ('open', 'withdrawn'),
    ('open', 'expired')
  ) THEN
    RAISE EXCEPTION 'offer % cannot move from % to %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
  ELSIF OLD.status <> 'open' AND (NEW.amount, NEW.amount_by) IS DISTINCT FROM (OLD.amount, OLD.amount_by) THEN
    RAISE EXCEPTION 'offer % is %: its amount is final', OLD.id, OLD.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "offers_status_guard" BEFORE INSERT OR UPDATE ON "offers" FOR EACH ROW EXECUTE FUNCTION "offer_status_guard"();
