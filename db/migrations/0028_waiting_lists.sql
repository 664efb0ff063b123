CREATE TABLE "waiting_list_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_type_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"sort_key" double precision NOT NULL,
	"offer_voucher_id" uuid,
	"offered_at" timestamp with time zone,
	"offer_ends_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waiting_list_entries_quantity_positive" CHECK ("waiting_list_entries"."quantity" > 0),
	CONSTRAINT "waiting_list_entries_offer_complete" CHECK ("waiting_list_entries"."status" <> 'offered' or ("waiting_list_entries"."offer_voucher_id" is not null and "waiting_list_entries"."offer_ends_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "waiting_list_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "waiting_list_offer_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "waiting_list_closes_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "vouchers" ADD COLUMN "for_user_id" text;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_offer_voucher_id_vouchers_id_fk" FOREIGN KEY ("offer_voucher_id") REFERENCES "public"."vouchers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waiting_list_entries_live_key" ON "waiting_list_entries" USING btree ("ticket_type_id","user_id") WHERE "waiting_list_entries"."status" in ('waiting', 'offered');--> statement-breakpoint
CREATE INDEX "waiting_list_entries_line_idx" ON "waiting_list_entries" USING btree ("ticket_type_id","status","sort_key");--> statement-breakpoint
CREATE INDEX "waiting_list_entries_user_idx" ON "waiting_list_entries" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "waiting_list_entries_offer_idx" ON "waiting_list_entries" USING btree ("offer_ends_at") WHERE "waiting_list_entries"."status" = 'offered';--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_for_user_id_users_id_fk" FOREIGN KEY ("for_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_waiting_list_offer_hours" CHECK ("events"."waiting_list_offer_hours" between 2 and 336);--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_waiting_list_closes_hours" CHECK ("events"."waiting_list_closes_hours" between 0 and 720);