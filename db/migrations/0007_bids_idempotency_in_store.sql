ALTER TABLE "bids" DROP CONSTRAINT "bids_user_idempotency_key";--> statement-breakpoint
ALTER TABLE "bids" DROP COLUMN "idempotency_key";