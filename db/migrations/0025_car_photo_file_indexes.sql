CREATE INDEX "car_photos_hash_idx" ON "car_photos" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "car_photos_source_key_idx" ON "car_photos" USING btree ("source_key");