ALTER TABLE "vouchers" DROP CONSTRAINT "vouchers_holds_one_ticket_type";--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ALTER COLUMN "ticket_type_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "waiting_list_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "vouchers" ADD COLUMN "variant_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD COLUMN "variant_id" uuid;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waiting_list_entries_live_variant_key" ON "waiting_list_entries" USING btree ("variant_id","user_id") WHERE "waiting_list_entries"."status" in ('waiting', 'offered');--> statement-breakpoint
CREATE INDEX "waiting_list_entries_variant_line_idx" ON "waiting_list_entries" USING btree ("variant_id","status","sort_key");--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_holds_one_ticket_type" CHECK (not "vouchers"."holds_places" or ("vouchers"."max_uses" is not null and cardinality("vouchers"."ticket_type_ids") + cardinality("vouchers"."variant_ids") = 1));--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_one_line" CHECK (num_nonnulls("waiting_list_entries"."ticket_type_id", "waiting_list_entries"."variant_id") = 1);