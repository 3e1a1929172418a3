CREATE TABLE "auction_ending_notices" (
	"car_id" integer NOT NULL,
	"seconds_before" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auction_ending_notices_car_id_seconds_before_user_id_pk" PRIMARY KEY("car_id","seconds_before","user_id")
);
--> statement-breakpoint
CREATE TABLE "notice_windows" (
	"user_id" integer NOT NULL,
	"event" text NOT NULL,
	"car_key" integer NOT NULL,
	"last_sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "notice_windows_user_id_event_car_key_pk" PRIMARY KEY("user_id","event","car_key")
);
--> statement-breakpoint
CREATE TABLE "notification_notices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notification_notices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"event" text NOT NULL,
	"car_id" integer,
	"notification_id" integer,
	"email" text NOT NULL,
	"push" text NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"url" text NOT NULL,
	"amount" integer,
	"auction_ends_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"batch_id" uuid,
	"sent_at" timestamp with time zone,
	CONSTRAINT "notification_notices_event" CHECK ("notification_notices"."event" in ('bid_received', 'question_received', 'reply_received', 'offer_received', 'outbid', 'auction_ending', 'auction_won', 'order_update', 'saved_search', 'price_drop', 'moderation'))
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"events" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"quiet_start" text,
	"quiet_end" text,
	"quiet_time_zone" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_preferences_quiet" CHECK (("notification_preferences"."quiet_start" is null) = ("notification_preferences"."quiet_end" is null) and ("notification_preferences"."quiet_start" is null) = ("notification_preferences"."quiet_time_zone" is null))
);
--> statement-breakpoint
CREATE TABLE "push_deliveries" (
	"delivery_id" text PRIMARY KEY NOT NULL,
	"delivered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "push_subscriptions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_success_at" timestamp with time zone,
	CONSTRAINT "push_subscriptions_endpoint_unique" UNIQUE("endpoint")
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "event" text;--> statement-breakpoint
UPDATE "notifications" SET "event" = CASE "type" WHEN 'bid' THEN 'bid_received' WHEN 'message' THEN 'question_received' ELSE 'order_update' END;--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "event" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "auction_ending_notices" ADD CONSTRAINT "auction_ending_notices_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_ending_notices" ADD CONSTRAINT "auction_ending_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_windows" ADD CONSTRAINT "notice_windows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_notices" ADD CONSTRAINT "notification_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_notices" ADD CONSTRAINT "notification_notices_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_notices" ADD CONSTRAINT "notification_notices_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_notices_pending_idx" ON "notification_notices" USING btree ("user_id","event") WHERE "notification_notices"."batch_id" is null;--> statement-breakpoint
CREATE INDEX "push_deliveries_delivered_at_idx" ON "push_deliveries" USING btree ("delivered_at");--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_event" CHECK ("notifications"."event" in ('bid_received', 'question_received', 'reply_received', 'offer_received', 'outbid', 'auction_ending', 'auction_won', 'order_update', 'saved_search', 'price_drop', 'moderation'));