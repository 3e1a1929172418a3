ALTER TABLE "cars" ADD COLUMN "auction_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cars" ADD COLUMN "auction_reserve_price" integer;--> statement-breakpoint
ALTER TABLE "cars" ADD COLUMN "auction_extensions" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "cars" ADD COLUMN "auction_closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cars" ADD COLUMN "auction_outcome" text;--> statement-breakpoint
ALTER TABLE "cars" ADD COLUMN "auction_reminder_sent_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "cars_auction_ends_idx" ON "cars" USING btree ("auction_ends_at","id") WHERE "status" = 'active' and "cars"."auction_ends_at" is not null;--> statement-breakpoint
ALTER TABLE "cars" ADD CONSTRAINT "cars_auction_consistent" CHECK (("cars"."auction_ends_at" is not null or ("cars"."auction_reserve_price" is null and "cars"."auction_closed_at" is null and "cars"."auction_extensions" = 0)) and ("cars"."auction_closed_at" is null) = ("cars"."auction_outcome" is null));--> statement-breakpoint
ALTER TABLE "cars" ADD CONSTRAINT "cars_auction_reserve_positive" CHECK ("cars"."auction_reserve_price" is null or "cars"."auction_reserve_price" > 0);--> statement-breakpoint
ALTER TABLE "cars" ADD CONSTRAINT "cars_auction_outcome" CHECK ("cars"."auction_outcome" is null or "cars"."auction_outcome" in ('sold', 'reserve_not_met', 'no_bids'));