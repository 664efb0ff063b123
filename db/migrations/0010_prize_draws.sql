CREATE TABLE "draw_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"draw_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"user_id" text,
	"source" text NOT NULL,
	"answer" integer NOT NULL,
	"eligible" boolean NOT NULL,
	"status" text DEFAULT 'valid' NOT NULL,
	"order_id" uuid,
	"order_item_id" uuid,
	"postal_name" text,
	"postal_address" text,
	"received_at" timestamp with time zone,
	"recorded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"voided_at" timestamp with time zone,
	CONSTRAINT "draw_entries_number_positive" CHECK ("draw_entries"."number" > 0)
);
--> statement-breakpoint
CREATE TABLE "draws" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"prize" text NOT NULL,
	"prize_value" integer NOT NULL,
	"cash_alternative" integer,
	"rules" text DEFAULT '' NOT NULL,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"price" integer DEFAULT 0 NOT NULL,
	"bundles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"total_entries" integer NOT NULL,
	"max_per_member" integer NOT NULL,
	"min_entries" integer DEFAULT 1 NOT NULL,
	"undersold_policy" text DEFAULT 'cash' NOT NULL,
	"extend_days" integer DEFAULT 7 NOT NULL,
	"extended" boolean DEFAULT false NOT NULL,
	"cash_prize" boolean DEFAULT false NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"question" text NOT NULL,
	"options" text[] NOT NULL,
	"answer" integer NOT NULL,
	"postal_route" text DEFAULT '' NOT NULL,
	"beacon_source" text NOT NULL,
	"beacon_value" text,
	"commitment" text,
	"seed" text,
	"list_hash" text,
	"eligible_count" integer,
	"allocated" integer DEFAULT 0 NOT NULL,
	"winner_number" integer,
	"published_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"drawn_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "draws_total_entries_positive" CHECK ("draws"."total_entries" > 0),
	CONSTRAINT "draws_max_per_member_positive" CHECK ("draws"."max_per_member" > 0),
	CONSTRAINT "draws_allocated_within_total" CHECK ("draws"."allocated" >= 0 and "draws"."allocated" <= "draws"."total_entries"),
	CONSTRAINT "draws_money_non_negative" CHECK ("draws"."price" >= 0 and "draws"."prize_value" >= 0),
	CONSTRAINT "draws_closes_after_opening" CHECK ("draws"."closes_at" > "draws"."opens_at"),
	CONSTRAINT "draws_answer_is_an_option" CHECK ("draws"."answer" >= 0 and "draws"."answer" < cardinality("draws"."options"))
);
--> statement-breakpoint
ALTER TABLE "cart_items" ADD COLUMN "draw_id" uuid;--> statement-breakpoint
ALTER TABLE "cart_items" ADD COLUMN "entries_per_unit" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "cart_items" ADD COLUMN "answer" integer;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "draw_id" uuid;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "draw_id" uuid;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "entries_per_unit" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "answer" integer;--> statement-breakpoint
ALTER TABLE "draw_entries" ADD CONSTRAINT "draw_entries_draw_id_draws_id_fk" FOREIGN KEY ("draw_id") REFERENCES "public"."draws"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "draw_entries" ADD CONSTRAINT "draw_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "draw_entries" ADD CONSTRAINT "draw_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "draw_entries" ADD CONSTRAINT "draw_entries_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "draw_entries" ADD CONSTRAINT "draw_entries_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "draws" ADD CONSTRAINT "draws_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "draw_entries_number_key" ON "draw_entries" USING btree ("draw_id","number");--> statement-breakpoint
CREATE INDEX "draw_entries_member_idx" ON "draw_entries" USING btree ("draw_id","user_id");--> statement-breakpoint
CREATE INDEX "draw_entries_user_idx" ON "draw_entries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "draw_entries_order_item_idx" ON "draw_entries" USING btree ("order_item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "draws_slug_key" ON "draws" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "draws_listing_idx" ON "draws" USING btree ("status","closes_at");--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_draw_id_draws_id_fk" FOREIGN KEY ("draw_id") REFERENCES "public"."draws"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_draw_id_draws_id_fk" FOREIGN KEY ("draw_id") REFERENCES "public"."draws"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_draw_id_draws_id_fk" FOREIGN KEY ("draw_id") REFERENCES "public"."draws"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cart_items_cart_draw_bundle_key" ON "cart_items" USING btree ("cart_id","draw_id","entries_per_unit");--> statement-breakpoint
CREATE INDEX "cart_items_draw_idx" ON "cart_items" USING btree ("draw_id");--> statement-breakpoint
CREATE INDEX "holds_active_draw_idx" ON "holds" USING btree ("draw_id") WHERE "holds"."status" = 'active';--> statement-breakpoint
CREATE INDEX "order_items_draw_idx" ON "order_items" USING btree ("draw_id");--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_entry_reference" CHECK (("cart_items"."kind" = 'entry') = ("cart_items"."draw_id" is not null and "cart_items"."answer" is not null));--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_entries_per_unit_positive" CHECK ("cart_items"."entries_per_unit" > 0);--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_entry_reference" CHECK (("holds"."kind" = 'entry') = ("holds"."draw_id" is not null));--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_entry_reference" CHECK (("order_items"."kind" = 'entry') = ("order_items"."draw_id" is not null and "order_items"."answer" is not null));--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_entries_per_unit_positive" CHECK ("order_items"."entries_per_unit" > 0);