ALTER TABLE "users" ADD COLUMN "town_public" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "avatar_public" boolean DEFAULT false NOT NULL;