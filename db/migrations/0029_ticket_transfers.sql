CREATE TABLE "ticket_hand_backs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL,
	"ticket_type_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"user_id" text,
	"status" text DEFAULT 'listed' NOT NULL,
	"fee" integer DEFAULT 0 NOT NULL,
	"sold_to_order_id" uuid,
	"refunded" integer,
	"created_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "ticket_hand_backs_fee_non_negative" CHECK ("ticket_hand_backs"."fee" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ticket_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL,
	"from_user_id" text NOT NULL,
	"to_email" text NOT NULL,
	"to_name" text NOT NULL,
	"token_hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"to_user_id" text,
	"new_ticket_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "transfers" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "transfers" text DEFAULT 'unlimited' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "transfers_close_hours" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "hand_back_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "hand_back_fee" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_hand_backs" ADD CONSTRAINT "ticket_hand_backs_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_hand_backs" ADD CONSTRAINT "ticket_hand_backs_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_hand_backs" ADD CONSTRAINT "ticket_hand_backs_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_hand_backs" ADD CONSTRAINT "ticket_hand_backs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_hand_backs" ADD CONSTRAINT "ticket_hand_backs_sold_to_order_id_orders_id_fk" FOREIGN KEY ("sold_to_order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD CONSTRAINT "ticket_transfers_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD CONSTRAINT "ticket_transfers_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD CONSTRAINT "ticket_transfers_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD CONSTRAINT "ticket_transfers_new_ticket_id_tickets_id_fk" FOREIGN KEY ("new_ticket_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_hand_backs_listed_key" ON "ticket_hand_backs" USING btree ("ticket_id") WHERE "ticket_hand_backs"."status" = 'listed';--> statement-breakpoint
CREATE INDEX "ticket_hand_backs_type_idx" ON "ticket_hand_backs" USING btree ("ticket_type_id","created_at") WHERE "ticket_hand_backs"."status" = 'listed';--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_transfers_token_key" ON "ticket_transfers" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_transfers_pending_key" ON "ticket_transfers" USING btree ("ticket_id") WHERE "ticket_transfers"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "ticket_transfers_from_idx" ON "ticket_transfers" USING btree ("from_user_id","status");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_transfers_close_hours" CHECK ("events"."transfers_close_hours" between 0 and 720);--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_hand_back_fee_non_negative" CHECK ("events"."hand_back_fee" >= 0);