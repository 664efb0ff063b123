ALTER TABLE "cart_items" ADD COLUMN "picked_numbers" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "picked_numbers" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "picked_numbers" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "draws" ADD COLUMN "allow_picks" boolean DEFAULT false NOT NULL;