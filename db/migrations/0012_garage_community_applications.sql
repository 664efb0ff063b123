CREATE TABLE "show_car_applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"user_id" text,
	"car_id" uuid,
	"car_label" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'submitted' NOT NULL,
	"fee" integer DEFAULT 0 NOT NULL,
	"decision_note" text,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "show_car_applications_fee_non_negative" CHECK ("show_car_applications"."fee" >= 0)
);
--> statement-breakpoint
CREATE TABLE "exhibitor_passes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"user_id" text,
	"order_id" uuid,
	"code" text NOT NULL,
	"status" text DEFAULT 'valid' NOT NULL,
	"checked_in_at" timestamp with time zone,
	"checked_in_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "car_likes" (
	"car_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "car_likes_car_id_user_id_pk" PRIMARY KEY("car_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "car_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"car_id" uuid NOT NULL,
	"hash" text NOT NULL,
	"source_key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"color" text NOT NULL,
	"alt" text DEFAULT '' NOT NULL,
	"position" integer NOT NULL,
	"blur" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"hidden_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "car_photos_size_positive" CHECK ("car_photos"."width" > 0 and "car_photos"."height" > 0)
);
--> statement-breakpoint
CREATE TABLE "car_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"car_id" uuid NOT NULL,
	"photo_id" uuid,
	"reporter_id" text,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cars" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" text NOT NULL,
	"make" text NOT NULL,
	"model" text NOT NULL,
	"year" integer NOT NULL,
	"variant" text DEFAULT '' NOT NULL,
	"colour" text DEFAULT '' NOT NULL,
	"engine" text DEFAULT '' NOT NULL,
	"power_bhp" integer,
	"drivetrain" text,
	"gearbox" text,
	"modifications" text[] DEFAULT '{}'::text[] NOT NULL,
	"story" text DEFAULT '' NOT NULL,
	"plate" text,
	"plate_public" boolean DEFAULT false NOT NULL,
	"visibility" text DEFAULT 'private' NOT NULL,
	"cover_photo_id" uuid,
	"like_count" integer DEFAULT 0 NOT NULL,
	"featured_at" timestamp with time zone,
	"hidden_at" timestamp with time zone,
	"hidden_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cars_year_range" CHECK ("cars"."year" between 1885 and 2100),
	CONSTRAINT "cars_power_range" CHECK ("cars"."power_bhp" is null or "cars"."power_bhp" between 1 and 5000),
	CONSTRAINT "cars_like_count_non_negative" CHECK ("cars"."like_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "cart_items" ADD COLUMN "application_id" uuid;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "application_id" uuid;--> statement-breakpoint
ALTER TABLE "show_car_applications" ADD CONSTRAINT "show_car_applications_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_car_applications" ADD CONSTRAINT "show_car_applications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_car_applications" ADD CONSTRAINT "show_car_applications_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_car_applications" ADD CONSTRAINT "show_car_applications_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibitor_passes" ADD CONSTRAINT "exhibitor_passes_application_id_show_car_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."show_car_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibitor_passes" ADD CONSTRAINT "exhibitor_passes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibitor_passes" ADD CONSTRAINT "exhibitor_passes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibitor_passes" ADD CONSTRAINT "exhibitor_passes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibitor_passes" ADD CONSTRAINT "exhibitor_passes_checked_in_by_users_id_fk" FOREIGN KEY ("checked_in_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "car_likes" ADD CONSTRAINT "car_likes_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "car_likes" ADD CONSTRAINT "car_likes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "car_photos" ADD CONSTRAINT "car_photos_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "car_reports" ADD CONSTRAINT "car_reports_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "car_reports" ADD CONSTRAINT "car_reports_photo_id_car_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."car_photos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "car_reports" ADD CONSTRAINT "car_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "car_reports" ADD CONSTRAINT "car_reports_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cars" ADD CONSTRAINT "cars_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "show_car_applications_event_car_key" ON "show_car_applications" USING btree ("event_id","car_id");--> statement-breakpoint
CREATE INDEX "show_car_applications_event_idx" ON "show_car_applications" USING btree ("event_id","status");--> statement-breakpoint
CREATE INDEX "show_car_applications_user_idx" ON "show_car_applications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "exhibitor_passes_code_key" ON "exhibitor_passes" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "exhibitor_passes_application_key" ON "exhibitor_passes" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "exhibitor_passes_event_idx" ON "exhibitor_passes" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "exhibitor_passes_user_idx" ON "exhibitor_passes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "car_likes_user_idx" ON "car_likes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "car_photos_car_idx" ON "car_photos" USING btree ("car_id","position");--> statement-breakpoint
CREATE INDEX "car_reports_status_idx" ON "car_reports" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "car_reports_car_idx" ON "car_reports" USING btree ("car_id");--> statement-breakpoint
CREATE UNIQUE INDEX "car_reports_open_key" ON "car_reports" USING btree ("car_id","reporter_id",coalesce("photo_id"::text, '')) WHERE "car_reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "cars_owner_idx" ON "cars" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "cars_public_newest_idx" ON "cars" USING btree ("visibility","created_at");--> statement-breakpoint
CREATE INDEX "cars_public_liked_idx" ON "cars" USING btree ("visibility","like_count");--> statement-breakpoint
CREATE INDEX "cars_make_idx" ON "cars" USING btree (lower("make"));--> statement-breakpoint
CREATE INDEX "cars_featured_idx" ON "cars" USING btree ("featured_at") WHERE "cars"."featured_at" is not null;--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_application_id_show_car_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."show_car_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_application_id_show_car_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."show_car_applications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cart_items_cart_application_key" ON "cart_items" USING btree ("cart_id","application_id");--> statement-breakpoint
CREATE INDEX "order_items_application_idx" ON "order_items" USING btree ("application_id");--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_application_reference" CHECK (("cart_items"."kind" = 'application') = ("cart_items"."application_id" is not null));--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_application_reference" CHECK (("order_items"."kind" = 'application') = ("order_items"."application_id" is not null));