CREATE TABLE "waiting_room_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" text,
	"joined_at" timestamp with time zone NOT NULL,
	"draw" bigint NOT NULL,
	"seq" bigserial NOT NULL,
	"admitted_at" timestamp with time zone,
	"admission_ends_at" timestamp with time zone,
	CONSTRAINT "waiting_room_entries_admission_whole" CHECK (("waiting_room_entries"."admitted_at" is null) = ("waiting_room_entries"."admission_ends_at" is null))
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "queue_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "queue_rate_per_minute" integer DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "queue_admission_minutes" integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "waiting_room_entries" ADD CONSTRAINT "waiting_room_entries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_room_entries" ADD CONSTRAINT "waiting_room_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waiting_room_entries_token_key" ON "waiting_room_entries" USING btree ("event_id","token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "waiting_room_entries_user_key" ON "waiting_room_entries" USING btree ("event_id","user_id") WHERE "waiting_room_entries"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "waiting_room_entries_order_idx" ON "waiting_room_entries" USING btree ("event_id","joined_at","draw","seq");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_queue_rate_positive" CHECK ("events"."queue_rate_per_minute" > 0);--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_queue_admission_positive" CHECK ("events"."queue_admission_minutes" > 0);