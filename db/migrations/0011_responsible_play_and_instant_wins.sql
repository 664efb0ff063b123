CREATE TABLE "draw_result_emails" (
	"draw_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"message_id" uuid,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "draw_result_emails_draw_id_user_id_pk" PRIMARY KEY("draw_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "play_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"weekly_limit" integer,
	"monthly_limit" integer,
	"pending_limits" jsonb,
	"cool_off_until" timestamp with time zone,
	"excluded_until" timestamp with time zone,
	"limits_offered_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "play_settings_limits_non_negative" CHECK (coalesce("play_settings"."weekly_limit", 0) >= 0 and coalesce("play_settings"."monthly_limit", 0) >= 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "card_funding" text;--> statement-breakpoint
ALTER TABLE "draws" ADD COLUMN "instant_wins" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "draws" ADD COLUMN "instant_salt" text;--> statement-breakpoint
ALTER TABLE "draws" ADD COLUMN "instant_commitment" text;--> statement-breakpoint
ALTER TABLE "draws" ADD COLUMN "prize_choice" text;--> statement-breakpoint
ALTER TABLE "draws" ADD COLUMN "prize_chosen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "draw_result_emails" ADD CONSTRAINT "draw_result_emails_draw_id_draws_id_fk" FOREIGN KEY ("draw_id") REFERENCES "public"."draws"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "draw_result_emails" ADD CONSTRAINT "draw_result_emails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "draw_result_emails" ADD CONSTRAINT "draw_result_emails_message_id_outbound_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."outbound_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_settings" ADD CONSTRAINT "play_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;