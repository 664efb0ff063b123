CREATE TABLE "member_check_ins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"membership_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"checked_in_at" timestamp with time zone NOT NULL,
	"checked_in_by" text
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"tier_id" uuid NOT NULL,
	"people" text[] DEFAULT '{}'::text[] NOT NULL,
	"joined_at" timestamp with time zone NOT NULL,
	"period_starts_at" timestamp with time zone NOT NULL,
	"paid_until" timestamp with time zone NOT NULL,
	"order_id" uuid,
	"paid_pence" integer NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"renews" boolean NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"card_code" text NOT NULL,
	"payment_method" text,
	"reminded_for" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	"renewal_failures" integer DEFAULT 0 NOT NULL,
	"retry_at" timestamp with time zone,
	"lapse_notice_for" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_period_order" CHECK ("memberships"."period_starts_at" < "memberships"."paid_until"),
	CONSTRAINT "memberships_paid_non_negative" CHECK ("memberships"."paid_pence" >= 0)
);
--> statement-breakpoint
CREATE TABLE "membership_tiers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"benefits" text DEFAULT '' NOT NULL,
	"price" integer NOT NULL,
	"period" text NOT NULL,
	"rolling_months" integer,
	"season_start_month" integer,
	"season_start_day" integer,
	"late_join_month" integer,
	"late_join_day" integer,
	"late_join_price" integer,
	"time_zone" text NOT NULL,
	"people" integer DEFAULT 1 NOT NULL,
	"capacity" integer,
	"auto_renews" boolean DEFAULT true NOT NULL,
	"admits_to_members_events" boolean DEFAULT true NOT NULL,
	"on_sale" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_tiers_price_non_negative" CHECK ("membership_tiers"."price" >= 0),
	CONSTRAINT "membership_tiers_period_terms" CHECK (("membership_tiers"."period" = 'rolling') = ("membership_tiers"."rolling_months" is not null and "membership_tiers"."season_start_month" is null) and ("membership_tiers"."period" = 'season') = ("membership_tiers"."season_start_month" is not null and "membership_tiers"."season_start_day" is not null)),
	CONSTRAINT "membership_tiers_rolling_months" CHECK ("membership_tiers"."rolling_months" is null or "membership_tiers"."rolling_months" between 1 and 24),
	CONSTRAINT "membership_tiers_late_join" CHECK (("membership_tiers"."late_join_month" is null) = ("membership_tiers"."late_join_day" is null) and ("membership_tiers"."late_join_price" is null or "membership_tiers"."late_join_month" is not null)),
	CONSTRAINT "membership_tiers_people" CHECK ("membership_tiers"."people" between 1 and 8),
	CONSTRAINT "membership_tiers_capacity" CHECK ("membership_tiers"."capacity" is null or "membership_tiers"."capacity" >= 0)
);
--> statement-breakpoint
ALTER TABLE "cart_items" ADD COLUMN "tier_id" uuid;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "tier_id" uuid;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "tier_id" uuid;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "renews_membership_id" uuid;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "members_event" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "member_price" integer;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "members_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "member_sales_start_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "member_check_ins" ADD CONSTRAINT "member_check_ins_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_check_ins" ADD CONSTRAINT "member_check_ins_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_check_ins" ADD CONSTRAINT "member_check_ins_checked_in_by_users_id_fk" FOREIGN KEY ("checked_in_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_tier_id_membership_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."membership_tiers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "member_check_ins_membership_event_key" ON "member_check_ins" USING btree ("membership_id","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_user_key" ON "memberships" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_card_code_key" ON "memberships" USING btree ("card_code");--> statement-breakpoint
CREATE INDEX "memberships_tier_idx" ON "memberships" USING btree ("tier_id","paid_until");--> statement-breakpoint
CREATE INDEX "memberships_order_idx" ON "memberships" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "memberships_renewing_idx" ON "memberships" USING btree ("paid_until") WHERE "memberships"."ended_at" is null and "memberships"."renews";--> statement-breakpoint
CREATE UNIQUE INDEX "membership_tiers_slug_key" ON "membership_tiers" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "membership_tiers_listing_idx" ON "membership_tiers" USING btree ("on_sale","position");--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_tier_id_membership_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."membership_tiers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_tier_id_membership_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."membership_tiers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_tier_id_membership_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."membership_tiers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_renews_membership_id_memberships_id_fk" FOREIGN KEY ("renews_membership_id") REFERENCES "public"."memberships"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cart_items_cart_tier_key" ON "cart_items" USING btree ("cart_id","tier_id");--> statement-breakpoint
CREATE INDEX "holds_active_tier_idx" ON "holds" USING btree ("tier_id") WHERE "holds"."status" = 'active';--> statement-breakpoint
CREATE INDEX "order_items_tier_idx" ON "order_items" USING btree ("tier_id");--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_membership_reference" CHECK (("cart_items"."kind" = 'membership') = ("cart_items"."tier_id" is not null));--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_membership_reference" CHECK (("holds"."kind" = 'membership') = ("holds"."tier_id" is not null));--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_membership_reference" CHECK (("order_items"."kind" = 'membership') = ("order_items"."tier_id" is not null));--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_member_price" CHECK ("ticket_types"."member_price" is null or "ticket_types"."member_price" >= 0);--> statement-breakpoint
-- The membership page shows the tiers on sale: a change to one is announced to the page cache,
-- like every table a public page shows (migration 0016).
CREATE TRIGGER page_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON membership_tiers
  FOR EACH STATEMENT EXECUTE FUNCTION pitlane_page_changed();
