DROP INDEX "waiting_room_entries_token_key";--> statement-breakpoint
ALTER TABLE "waiting_room_entries" ALTER COLUMN "token_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "waiting_room_entries" ADD COLUMN "network_hash" text;--> statement-breakpoint
CREATE INDEX "waiting_room_entries_network_idx" ON "waiting_room_entries" USING btree ("event_id","network_hash");