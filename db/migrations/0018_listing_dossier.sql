CREATE TABLE "car_documents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "car_documents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"car_id" integer NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" integer NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "car_documents_storageKey_unique" UNIQUE("storage_key"),
	CONSTRAINT "car_documents_kind" CHECK ("car_documents"."kind" in ('service', 'inspection', 'title', 'history', 'other')),
	CONSTRAINT "car_documents_type" CHECK ("car_documents"."content_type" in ('application/pdf', 'image/jpeg', 'image/png')),
	CONSTRAINT "car_documents_bytes" CHECK ("car_documents"."bytes" between 1 and 20971520),
	CONSTRAINT "car_documents_title" CHECK (char_length("car_documents"."title") between 1 and 120),
	CONSTRAINT "car_documents_file_name" CHECK ("car_documents"."file_name" ~ '^[A-Za-z0-9][A-Za-z0-9._-]*$')
);
--> statement-breakpoint
CREATE TABLE "dossier_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dossier_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"car_id" integer NOT NULL,
	"section" text NOT NULL,
	"position" smallint NOT NULL,
	"text" text,
	"service_date" date,
	"service_mileage" integer,
	"service_shop" text,
	"service_work" text,
	"service_cost" integer,
	"document_id" integer,
	CONSTRAINT "dossier_entries_section" CHECK ("dossier_entries"."section" in ('knownFlaws', 'modifications', 'itemsIncluded', 'serviceRecords')),
	CONSTRAINT "dossier_entries_position" CHECK ("dossier_entries"."position" between 0 and 49),
	CONSTRAINT "dossier_entries_shape" CHECK (case when "dossier_entries"."section" = 'serviceRecords'
        then "dossier_entries"."text" is null and "dossier_entries"."service_date" is not null and "dossier_entries"."service_mileage" between 0 and 1000000
          and char_length("dossier_entries"."service_shop") between 1 and 120 and char_length("dossier_entries"."service_work") between 1 and 1000
          and ("dossier_entries"."service_cost" is null or "dossier_entries"."service_cost" between 0 and 10000000)
        else char_length("dossier_entries"."text") between 1 and 500 and "dossier_entries"."service_date" is null and "dossier_entries"."service_mileage" is null
          and "dossier_entries"."service_shop" is null and "dossier_entries"."service_work" is null and "dossier_entries"."service_cost" is null and "dossier_entries"."document_id" is null end)
);
--> statement-breakpoint
CREATE TABLE "inspection_results" (
	"order_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"result" text NOT NULL,
	"note" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inspection_results_order_id_item_id_pk" PRIMARY KEY("order_id","item_id"),
	CONSTRAINT "inspection_results_result" CHECK ("inspection_results"."result" in ('as_described', 'not_as_described')),
	CONSTRAINT "inspection_results_note" CHECK ("inspection_results"."note" is null or char_length("inspection_results"."note") <= 1000)
);
--> statement-breakpoint
ALTER TABLE "cars" ADD COLUMN "vin" text;--> statement-breakpoint
ALTER TABLE "cars" ADD COLUMN "chassis_number" text;--> statement-breakpoint
ALTER TABLE "cars" ADD COLUMN "dossier_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "dossier_snapshot" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "snapshot_hash" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "disputed_items" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "car_documents" ADD CONSTRAINT "car_documents_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dossier_entries" ADD CONSTRAINT "dossier_entries_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dossier_entries" ADD CONSTRAINT "dossier_entries_document_id_car_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."car_documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_results" ADD CONSTRAINT "inspection_results_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "car_documents_car_idx" ON "car_documents" USING btree ("car_id","id");--> statement-breakpoint
CREATE INDEX "dossier_entries_car_idx" ON "dossier_entries" USING btree ("car_id","section","position");--> statement-breakpoint
ALTER TABLE "cars" ADD CONSTRAINT "cars_vin_shape" CHECK ("cars"."vin" is null or "cars"."vin" ~ '^[A-HJ-NPR-Z0-9]{17}$');--> statement-breakpoint
ALTER TABLE "cars" ADD CONSTRAINT "cars_chassis_number_shape" CHECK ("cars"."chassis_number" is null or "cars"."chassis_number" ~ '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,18}[A-Za-z0-9])?$');--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_snapshot_complete" CHECK (("orders"."dossier_snapshot" is null) = ("orders"."snapshot_hash" is null) and ("orders"."snapshot_hash" is null or "orders"."snapshot_hash" ~ '^[0-9a-f]{64}$'));--> statement-breakpoint
-- An order's frozen dossier is what the buyer inspects against and the operator decides on:
-- once written it never changes, whatever the code does.
CREATE FUNCTION "order_snapshot_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.snapshot_hash IS NOT NULL AND (NEW.snapshot_hash IS DISTINCT FROM OLD.snapshot_hash OR NEW.dossier_snapshot IS DISTINCT FROM OLD.dossier_snapshot) THEN
    RAISE EXCEPTION 'the dossier frozen into order % cannot change', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "orders_snapshot_frozen" BEFORE UPDATE OF "dossier_snapshot", "snapshot_hash" ON "orders" FOR EACH ROW EXECUTE FUNCTION "order_snapshot_guard"();
