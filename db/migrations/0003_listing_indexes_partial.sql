DROP INDEX "cars_search_trgm_idx";--> statement-breakpoint
DROP INDEX "cars_price_idx";--> statement-breakpoint
DROP INDEX "cars_year_idx";--> statement-breakpoint
DROP INDEX "cars_popular_idx";--> statement-breakpoint
DROP INDEX "cars_body_style_price_idx";--> statement-breakpoint
DROP INDEX "cars_body_style_year_idx";--> statement-breakpoint
DROP INDEX "cars_below_market_price_idx";--> statement-breakpoint
DROP INDEX "cars_below_market_year_idx";--> statement-breakpoint
CREATE INDEX "cars_search_trgm_idx" ON "cars" USING gin ("search_text" gin_trgm_ops) WHERE "status" = 'active';--> statement-breakpoint
CREATE INDEX "cars_price_idx" ON "cars" USING btree ("price","id") WHERE "status" = 'active';--> statement-breakpoint
CREATE INDEX "cars_year_idx" ON "cars" USING btree ("year","id") WHERE "status" = 'active';--> statement-breakpoint
CREATE INDEX "cars_popular_idx" ON "cars" USING btree ("current_bids","created_at","id") WHERE "status" = 'active';--> statement-breakpoint
CREATE INDEX "cars_body_style_price_idx" ON "cars" USING btree ("body_style","price","id") WHERE "status" = 'active';--> statement-breakpoint
CREATE INDEX "cars_body_style_year_idx" ON "cars" USING btree ("body_style","year","id") WHERE "status" = 'active';--> statement-breakpoint
CREATE INDEX "cars_below_market_price_idx" ON "cars" USING btree ("price","id") WHERE "status" = 'active' and "cars"."price" < "cars"."market_value";--> statement-breakpoint
CREATE INDEX "cars_below_market_year_idx" ON "cars" USING btree ("year","id") WHERE "status" = 'active' and "cars"."price" < "cars"."market_value";