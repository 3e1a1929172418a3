ALTER TABLE "bids" DROP CONSTRAINT "bids_car_amount";--> statement-breakpoint
ALTER TABLE "bids" ADD COLUMN "auto" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bids" ADD COLUMN "max_amount" integer;--> statement-breakpoint
ALTER TABLE "bids" ADD CONSTRAINT "bids_car_amount_auto" UNIQUE("car_id","amount","auto");--> statement-breakpoint
ALTER TABLE "bids" ADD CONSTRAINT "bids_max_amount_range" CHECK ("bids"."max_amount" is null or "bids"."max_amount" between "bids"."amount" and 100000000);