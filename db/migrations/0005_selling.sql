ALTER TABLE "cars" DROP CONSTRAINT "cars_market_value_positive";--> statement-breakpoint
ALTER TABLE "cars" DROP CONSTRAINT "cars_body_style";--> statement-breakpoint
ALTER TABLE "cars" DROP CONSTRAINT "cars_status";--> statement-breakpoint
ALTER TABLE "cars" ALTER COLUMN "market_value" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "cars" ALTER COLUMN "color" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "cars" ADD COLUMN "market_value_basis" text;--> statement-breakpoint
-- Market values so far came with the sample catalogue: they are reference values.
UPDATE "cars" SET "market_value_basis" = 'reference' WHERE "market_value" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "cars" ADD COLUMN "photos" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "cars" ADD COLUMN "card_image" text;--> statement-breakpoint
ALTER TABLE "cars" ADD CONSTRAINT "cars_market_value_basis" CHECK (("cars"."market_value" is null) = ("cars"."market_value_basis" is null) and ("cars"."market_value_basis" is null or "cars"."market_value_basis" in ('comparables', 'reference')));--> statement-breakpoint
ALTER TABLE "cars" ADD CONSTRAINT "cars_photo_limit" CHECK (jsonb_array_length("cars"."photos") <= 20);--> statement-breakpoint
ALTER TABLE "cars" ADD CONSTRAINT "cars_market_value_positive" CHECK ("cars"."market_value" is null or "cars"."market_value" > 0);--> statement-breakpoint
ALTER TABLE "cars" ADD CONSTRAINT "cars_body_style" CHECK ("cars"."body_style" in ('sports', 'coupe', 'convertible', 'sedan', 'suv', 'wagon'));--> statement-breakpoint
ALTER TABLE "cars" ADD CONSTRAINT "cars_status" CHECK ("cars"."status" in ('draft', 'active', 'pending', 'sold', 'ended', 'withdrawn'));