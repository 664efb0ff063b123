CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"headline" boolean DEFAULT false NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"time_zone" text NOT NULL,
	"venue" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"town" text NOT NULL,
	"postcode" text DEFAULT '' NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"place_id" text,
	"cover_hash" text,
	"cover_alt" text DEFAULT '' NOT NULL,
	"cover_color" text,
	"sales_start_at" timestamp with time zone,
	"sales_end_at" timestamp with time zone,
	"capacity" integer,
	"applications_open" boolean DEFAULT false NOT NULL,
	"applications_deadline" timestamp with time zone,
	"application_spots" integer,
	"application_fee" integer DEFAULT 0 NOT NULL,
	"application_criteria" text DEFAULT '' NOT NULL,
	"cancel_reason" text,
	"published_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce("events"."title", '')), 'A') || setweight(to_tsvector('english', coalesce("events"."venue", '') || ' ' || coalesce("events"."town", '')), 'B') || setweight(to_tsvector('english', coalesce("events"."summary", '')), 'C') || setweight(to_tsvector('english', coalesce("events"."description", '')), 'D')) STORED,
	CONSTRAINT "events_ends_after_start" CHECK ("events"."ends_at" >= "events"."starts_at"),
	CONSTRAINT "events_capacity_positive" CHECK ("events"."capacity" is null or "events"."capacity" > 0),
	CONSTRAINT "events_application_fee_non_negative" CHECK ("events"."application_fee" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ticket_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price" integer NOT NULL,
	"capacity" integer,
	"max_per_order" integer DEFAULT 10 NOT NULL,
	"days" text[] DEFAULT '{}'::text[] NOT NULL,
	"sales_start_at" timestamp with time zone,
	"sales_end_at" timestamp with time zone,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"sold" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_types_price_non_negative" CHECK ("ticket_types"."price" >= 0),
	CONSTRAINT "ticket_types_capacity_positive" CHECK ("ticket_types"."capacity" is null or "ticket_types"."capacity" > 0),
	CONSTRAINT "ticket_types_max_per_order_positive" CHECK ("ticket_types"."max_per_order" > 0),
	CONSTRAINT "ticket_types_sold_within_capacity" CHECK ("ticket_types"."sold" >= 0 and ("ticket_types"."capacity" is null or "ticket_types"."sold" <= "ticket_types"."capacity"))
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "events_slug_key" ON "events" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "events_listing_idx" ON "events" USING btree ("status","starts_at");--> statement-breakpoint
CREATE INDEX "events_search_idx" ON "events" USING gin ("search");--> statement-breakpoint
CREATE INDEX "ticket_types_event_idx" ON "ticket_types" USING btree ("event_id","sort_order");