CREATE TABLE "price_history" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "price_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"car_id" integer NOT NULL,
	"price" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_history_price_positive" CHECK ("price_history"."price" > 0)
);
--> statement-breakpoint
CREATE TABLE "saved_search_matches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "saved_search_matches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"search_id" integer NOT NULL,
	"car_id" integer NOT NULL,
	"price" integer NOT NULL,
	"reason" text NOT NULL,
	"matched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"alerted_at" timestamp with time zone,
	CONSTRAINT "saved_search_matches_reason" CHECK ("saved_search_matches"."reason" in ('listed', 'price-drop'))
);
--> statement-breakpoint
CREATE TABLE "saved_searches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "saved_searches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"query" jsonb NOT NULL,
	"alerts" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_alert_at" timestamp with time zone,
	"make" text,
	"model" text,
	"body_style" text,
	"min_year" smallint,
	"max_year" smallint,
	"min_price" integer,
	"max_price" integer,
	"auctions_only" boolean DEFAULT false NOT NULL,
	"search_years" integer[] DEFAULT '{}' NOT NULL,
	"search_words" text[] DEFAULT '{}' NOT NULL,
	CONSTRAINT "saved_searches_alerts" CHECK ("saved_searches"."alerts" in ('instant', 'daily', 'off')),
	CONSTRAINT "saved_searches_name_length" CHECK (char_length("saved_searches"."name") between 1 and 80)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "via" text DEFAULT 'buy_now' NOT NULL;--> statement-breakpoint
ALTER TABLE "price_history" ADD CONSTRAINT "price_history_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_matches" ADD CONSTRAINT "saved_search_matches_search_id_saved_searches_id_fk" FOREIGN KEY ("search_id") REFERENCES "public"."saved_searches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_matches" ADD CONSTRAINT "saved_search_matches_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_history_car_idx" ON "price_history" USING btree ("car_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_search_matches_once" ON "saved_search_matches" USING btree ("search_id","car_id");--> statement-breakpoint
CREATE INDEX "saved_search_matches_digest_idx" ON "saved_search_matches" USING btree ("search_id") WHERE "saved_search_matches"."alerted_at" is null;--> statement-breakpoint
CREATE INDEX "saved_searches_user_idx" ON "saved_searches" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "saved_searches_alerting_idx" ON "saved_searches" USING btree ("make","id") WHERE "saved_searches"."alerts" <> 'off';--> statement-breakpoint
CREATE INDEX "cars_make_model_price_idx" ON "cars" USING btree (lower("make"),lower("model"),"price","id") WHERE "status" = 'active';--> statement-breakpoint
CREATE INDEX "orders_released_idx" ON "orders" USING btree ("updated_at" DESC NULLS LAST,"id") WHERE "orders"."status" = 'released';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_via" CHECK ("orders"."via" in ('buy_now', 'bid', 'auction', 'offer'));--> statement-breakpoint
-- How earlier orders came to be, from their opening event: an auction's close is the system's,
-- an accepted bid the seller's; an accepted offer names its order.
UPDATE "orders" o SET "via" = CASE
  WHEN EXISTS (SELECT 1 FROM "offers" f WHERE f."order_id" = o."id") THEN 'offer'
  WHEN e."actor" = 'system' THEN 'auction'
  WHEN e."actor" = 'seller' THEN 'bid'
  ELSE 'buy_now' END
FROM "order_events" e
WHERE e."order_id" = o."id" AND e."from_status" IS NULL;
--> statement-breakpoint
-- Every listed car's price history starts with the price it has now.
INSERT INTO "price_history" ("car_id", "price", "at")
SELECT "id", "price", "created_at" FROM "cars" WHERE "status" <> 'draft';
