ALTER TABLE "tickets" ADD COLUMN "left_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "gate_reentry" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "gate_scans" ADD COLUMN "direction" text DEFAULT 'in' NOT NULL;