CREATE TABLE "chat_reports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"message_id" integer NOT NULL,
	"reporter_id" integer NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_reports_reporter_message" UNIQUE("message_id","reporter_id"),
	CONSTRAINT "chat_reports_reason" CHECK ("chat_reports"."reason" in ('spam', 'off_platform', 'abuse', 'other')),
	CONSTRAINT "chat_reports_note_length" CHECK ("chat_reports"."note" is null or char_length("chat_reports"."note") <= 500)
);
--> statement-breakpoint
CREATE TABLE "chat_votes" (
	"message_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_votes_user_message" UNIQUE("message_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "user_mutes" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"muted_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action";--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_target_type";--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "parent_id" integer;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "status" text DEFAULT 'visible' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "held_by" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "upvotes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_reports" ADD CONSTRAINT "chat_reports_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_reports" ADD CONSTRAINT "chat_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_votes" ADD CONSTRAINT "chat_votes_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_votes" ADD CONSTRAINT "chat_votes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_mutes" ADD CONSTRAINT "user_mutes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_mutes" ADD CONSTRAINT "user_mutes_muted_by_users_id_fk" FOREIGN KEY ("muted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_votes_user_idx" ON "chat_votes" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_parent_id_chat_messages_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_messages_parent_idx" ON "chat_messages" USING btree ("parent_id") WHERE "chat_messages"."parent_id" is not null;--> statement-breakpoint
CREATE INDEX "chat_messages_user_car_idx" ON "chat_messages" USING btree ("user_id","car_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "chat_messages_queue_idx" ON "chat_messages" USING btree ("id") WHERE "chat_messages"."status" = 'held';--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action" CHECK ("audit_log"."action" in ('dispute.resolve', 'user.suspend', 'user.unsuspend', 'user.verify-seller', 'user.role', 'car.hide', 'car.restore', 'ticket.reply', 'chat.approve', 'chat.remove', 'user.mute', 'user.unmute'));--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_target_type" CHECK ("audit_log"."target_type" in ('order', 'user', 'car', 'ticket', 'chat_message'));--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_status" CHECK ("chat_messages"."status" in ('visible', 'held', 'removed'));--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_held_by" CHECK ("chat_messages"."held_by" is null or "chat_messages"."held_by" in ('guard', 'reports'));--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_held_reason" CHECK ("chat_messages"."status" <> 'held' or "chat_messages"."held_by" is not null);--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_not_own_parent" CHECK ("chat_messages"."parent_id" is null or "chat_messages"."parent_id" < "chat_messages"."id");--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_bid_top_level" CHECK ("chat_messages"."type" <> 'bid' or "chat_messages"."parent_id" is null);--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_upvotes" CHECK ("chat_messages"."upvotes" >= 0);--> statement-breakpoint
-- A reply's parent is a top-level message of the same car (one level of replies), whatever writes the row.
CREATE FUNCTION chat_reply_parent_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  parent record;
BEGIN
  IF NEW.parent_id IS NULL THEN
    RETURN NEW;
  END IF;
  SELECT car_id, parent_id INTO parent FROM chat_messages WHERE id = NEW.parent_id;
  IF parent.car_id IS DISTINCT FROM NEW.car_id OR parent.parent_id IS NOT NULL THEN
    RAISE EXCEPTION 'chat reply % must answer a top-level message of car %', NEW.id, NEW.car_id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER chat_reply_parent_guard BEFORE INSERT OR UPDATE OF parent_id, car_id ON chat_messages FOR EACH ROW EXECUTE FUNCTION chat_reply_parent_guard();
