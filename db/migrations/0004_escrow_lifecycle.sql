CREATE TABLE "idempotency_keys" (
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key"),
	CONSTRAINT "idempotency_keys_key_length" CHECK (char_length("idempotency_keys"."key") between 1 and 255)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"method" text,
	"provider" text NOT NULL,
	"reference" text,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "payments_reference_unique" UNIQUE("reference"),
	CONSTRAINT "payments_kind" CHECK ("payments"."kind" in ('charge', 'payout', 'fee', 'refund')),
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount" > 0),
	CONSTRAINT "payments_status" CHECK ("payments"."status" in ('pending', 'settled')),
	CONSTRAINT "payments_settled" CHECK (("payments"."status" = 'settled') = ("payments"."settled_at" is not null) and ("payments"."status" = 'settled') = ("payments"."reference" is not null)),
	CONSTRAINT "payments_method" CHECK (("payments"."kind" = 'charge') = ("payments"."method" is not null) and ("payments"."method" is null or "payments"."method" in ('wire', 'card')))
);
--> statement-breakpoint
ALTER TABLE "cars" DROP CONSTRAINT "cars_status";--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "actor" text;--> statement-breakpoint
UPDATE "order_events" SET "actor" = CASE WHEN "from_status" IS NULL THEN 'buyer' ELSE 'system' END;--> statement-breakpoint
ALTER TABLE "order_events" ALTER COLUMN "actor" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_due_at" timestamp with time zone;--> statement-breakpoint
UPDATE "orders" SET "payment_due_at" = "created_at" + interval '3 days';--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "payment_due_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "inspection_days" smallint;--> statement-breakpoint
UPDATE "orders" SET "inspection_days" = CASE "plan" WHEN 'basic' THEN 3 WHEN 'platinum' THEN 14 ELSE 7 END;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "inspection_days" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "inspection_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipment_carrier" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipment_tracking_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_reminder_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "inspection_reminder_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_once_per_kind" ON "payments" USING btree ("order_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_one_disbursement" ON "payments" USING btree ("order_id") WHERE "payments"."kind" in ('payout', 'refund');--> statement-breakpoint
CREATE UNIQUE INDEX "order_events_once_per_status" ON "order_events" USING btree ("order_id","to_status");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_funded_per_car" ON "orders" USING btree ("car_id") WHERE "orders"."status" in ('funded', 'in_transit', 'inspection', 'accepted', 'disputed', 'released');--> statement-breakpoint
CREATE INDEX "orders_payment_due_idx" ON "orders" USING btree ("payment_due_at") WHERE "orders"."status" = 'awaiting_payment';--> statement-breakpoint
ALTER TABLE "cars" ADD CONSTRAINT "cars_status" CHECK ("cars"."status" in ('active', 'pending', 'sold', 'ended', 'withdrawn'));--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_actor" CHECK ("order_events"."actor" in ('buyer', 'seller', 'system', 'operator'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_inspection_days" CHECK ("orders"."inspection_days" between 1 and 60);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_shipment_complete" CHECK (("orders"."shipped_at" is null) = ("orders"."shipment_carrier" is null) and ("orders"."shipped_at" is null) = ("orders"."shipment_tracking_number" is null));--> statement-breakpoint
-- The database refuses any status change the lifecycle table (common/order-lifecycle.ts) does
-- not allow, and every order starts awaiting payment. tests/escrow-database.test.ts checks that
-- these pairs and the table agree.
CREATE FUNCTION "order_status_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.status <> 'awaiting_payment' THEN
      RAISE EXCEPTION 'an order starts awaiting payment, not %', NEW.status USING ERRCODE = 'check_violation';
    END IF;
  ELSIF NEW.status IS DISTINCT FROM OLD.status AND (OLD.status, NEW.status) NOT IN (
    ('awaiting_payment', 'funded'),
    ('awaiting_payment', 'cancelled'),
    ('funded', 'in_transit'),
    ('in_transit', 'inspection'),
    ('inspection', 'accepted'),
    ('inspection', 'disputed'),
    ('accepted', 'released'),
    ('disputed', 'refunded'),
    ('disputed', 'released')
  ) THEN
    RAISE EXCEPTION 'order % cannot move from % to %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "orders_status_guard" BEFORE INSERT OR UPDATE OF "status" ON "orders" FOR EACH ROW EXECUTE FUNCTION "order_status_guard"();
