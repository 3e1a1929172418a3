-- Saved searches' make and model were lowered by JavaScript; matching now lowers the car's with
-- PostgreSQL's lower(), whose rules differ outside ASCII (a final capital sigma). Lower the stored
-- criteria the same way so searches saved before still match.
UPDATE "saved_searches" SET "make" = lower("query"->>'make') WHERE "query" ? 'make';--> statement-breakpoint
UPDATE "saved_searches" SET "model" = lower("query"->>'model') WHERE "query" ? 'model';
