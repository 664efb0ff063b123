ALTER TABLE "draw_result_emails" ALTER COLUMN "sent_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "draw_result_emails" ADD COLUMN "claimed_at" timestamp with time zone;