CREATE TABLE "voucher_uses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"voucher_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" text,
	"units" integer NOT NULL,
	"amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "voucher_uses_units_positive" CHECK ("voucher_uses"."units" > 0 and "voucher_uses"."amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "vouchers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"batch_id" uuid,
	"label" text DEFAULT '' NOT NULL,
	"effect" text NOT NULL,
	"value" integer NOT NULL,
	"kinds" text[] DEFAULT '{}'::text[] NOT NULL,
	"event_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"ticket_type_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"product_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"tier_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"draw_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"max_uses" integer,
	"max_uses_per_member" integer,
	"valid_from" timestamp with time zone,
	"valid_until" timestamp with time zone,
	"min_basket" integer,
	"holds_places" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vouchers_code_capitals" CHECK ("vouchers"."code" = upper("vouchers"."code") and length("vouchers"."code") between 3 and 32),
	CONSTRAINT "vouchers_value_range" CHECK ("vouchers"."value" >= 0 and ("vouchers"."effect" <> 'percent_off' or "vouchers"."value" between 1 and 100)),
	CONSTRAINT "vouchers_limits_positive" CHECK (coalesce("vouchers"."max_uses", 1) > 0 and coalesce("vouchers"."max_uses_per_member", 1) > 0),
	CONSTRAINT "vouchers_min_basket_non_negative" CHECK (coalesce("vouchers"."min_basket", 0) >= 0),
	CONSTRAINT "vouchers_valid_window" CHECK ("vouchers"."valid_from" is null or "vouchers"."valid_until" is null or "vouchers"."valid_from" < "vouchers"."valid_until"),
	CONSTRAINT "vouchers_holds_one_ticket_type" CHECK (not "vouchers"."holds_places" or ("vouchers"."max_uses" is not null and cardinality("vouchers"."ticket_type_ids") = 1))
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_amounts_non_negative";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_total_adds_up";--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN "voucher_id" uuid;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "discount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "voucher_code" text;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "tier_prices" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "member_price" integer;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "tier_prices" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "voucher_uses" ADD CONSTRAINT "voucher_uses_voucher_id_vouchers_id_fk" FOREIGN KEY ("voucher_id") REFERENCES "public"."vouchers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_uses" ADD CONSTRAINT "voucher_uses_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_uses" ADD CONSTRAINT "voucher_uses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "voucher_uses_order_key" ON "voucher_uses" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "voucher_uses_voucher_idx" ON "voucher_uses" USING btree ("voucher_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "vouchers_code_key" ON "vouchers" USING btree ("code");--> statement-breakpoint
CREATE INDEX "vouchers_batch_idx" ON "vouchers" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "vouchers_holding_idx" ON "vouchers" USING btree ("holds_places") WHERE "vouchers"."holds_places";--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_voucher_id_vouchers_id_fk" FOREIGN KEY ("voucher_id") REFERENCES "public"."vouchers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_discount_within_price" CHECK ("order_items"."discount" between 0 and "order_items"."unit_price" * "order_items"."quantity");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts_non_negative" CHECK ("orders"."subtotal" >= 0 and "orders"."shipping" >= 0 and "orders"."discount" between 0 and "orders"."subtotal");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_total_adds_up" CHECK ("orders"."total" = "orders"."subtotal" - "orders"."discount" + "orders"."shipping");--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_member_price" CHECK ("product_variants"."member_price" is null or "product_variants"."member_price" >= 0);--> statement-breakpoint
-- A code that keeps places changes the places left that event pages show: a change to one is
-- announced to the page cache, like every table a public page shows (migration 0016).
CREATE TRIGGER page_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON vouchers
  FOR EACH STATEMENT EXECUTE FUNCTION pitlane_page_changed();
