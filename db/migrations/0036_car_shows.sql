CREATE TABLE "ballots" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"category_id" uuid NOT NULL,
	"ticket_id" uuid NOT NULL,
	"voter_id" text,
	"application_id" uuid NOT NULL,
	"cast_at" timestamp with time zone NOT NULL,
	"changed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "car_history_choices" (
	"car_id" uuid NOT NULL,
	"item" text NOT NULL,
	"shown" boolean NOT NULL,
	CONSTRAINT "car_history_choices_car_id_item_pk" PRIMARY KEY("car_id","item")
);
--> statement-breakpoint
CREATE TABLE "class_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"scheme" text NOT NULL,
	"criteria" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "show_awards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"class_id" uuid,
	"title" text NOT NULL,
	"application_id" uuid NOT NULL,
	"given_by" text,
	"given_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "show_class_judges" (
	"class_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"added_by" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "show_class_judges_class_id_user_id_pk" PRIMARY KEY("class_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "show_classes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"name" text NOT NULL,
	"scheme" text NOT NULL,
	"criteria" jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "show_entries" (
	"application_id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"suggested_class_id" uuid,
	"class_id" uuid,
	"show_number" integer,
	"vote_key" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "show_entries_number_range" CHECK ("show_entries"."show_number" between 1 and 9999)
);
--> statement-breakpoint
CREATE TABLE "show_marks" (
	"application_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"judge_id" text NOT NULL,
	"criterion_id" text NOT NULL,
	"halves" integer NOT NULL,
	"saved_at" timestamp with time zone NOT NULL,
	CONSTRAINT "show_marks_application_id_judge_id_criterion_id_pk" PRIMARY KEY("application_id","judge_id","criterion_id"),
	CONSTRAINT "show_marks_halves_range" CHECK ("show_marks"."halves" between 0 and 200)
);
--> statement-breakpoint
CREATE TABLE "show_settings" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"voting_opens_at" timestamp with time zone,
	"voting_closes_at" timestamp with time zone,
	"ballot_list" text,
	"commitment" text,
	"tallied_at" timestamp with time zone,
	"results_published_at" timestamp with time zone,
	"show_scores" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vote_categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ballots" ADD CONSTRAINT "ballots_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ballots" ADD CONSTRAINT "ballots_category_id_vote_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."vote_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ballots" ADD CONSTRAINT "ballots_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ballots" ADD CONSTRAINT "ballots_voter_id_users_id_fk" FOREIGN KEY ("voter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ballots" ADD CONSTRAINT "ballots_application_id_show_car_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."show_car_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "car_history_choices" ADD CONSTRAINT "car_history_choices_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_templates" ADD CONSTRAINT "class_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_awards" ADD CONSTRAINT "show_awards_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_awards" ADD CONSTRAINT "show_awards_class_id_show_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."show_classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_awards" ADD CONSTRAINT "show_awards_application_id_show_car_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."show_car_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_awards" ADD CONSTRAINT "show_awards_given_by_users_id_fk" FOREIGN KEY ("given_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_class_judges" ADD CONSTRAINT "show_class_judges_class_id_show_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."show_classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_class_judges" ADD CONSTRAINT "show_class_judges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_class_judges" ADD CONSTRAINT "show_class_judges_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_classes" ADD CONSTRAINT "show_classes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_entries" ADD CONSTRAINT "show_entries_application_id_show_car_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."show_car_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_entries" ADD CONSTRAINT "show_entries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_entries" ADD CONSTRAINT "show_entries_suggested_class_id_show_classes_id_fk" FOREIGN KEY ("suggested_class_id") REFERENCES "public"."show_classes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_entries" ADD CONSTRAINT "show_entries_class_id_show_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."show_classes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_marks" ADD CONSTRAINT "show_marks_application_id_show_car_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."show_car_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_marks" ADD CONSTRAINT "show_marks_class_id_show_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."show_classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_marks" ADD CONSTRAINT "show_marks_judge_id_users_id_fk" FOREIGN KEY ("judge_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_settings" ADD CONSTRAINT "show_settings_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vote_categories" ADD CONSTRAINT "vote_categories_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ballots_ticket_category_key" ON "ballots" USING btree ("ticket_id","category_id");--> statement-breakpoint
CREATE INDEX "ballots_event_idx" ON "ballots" USING btree ("event_id","category_id");--> statement-breakpoint
CREATE INDEX "ballots_voter_idx" ON "ballots" USING btree ("voter_id");--> statement-breakpoint
CREATE UNIQUE INDEX "class_templates_name_key" ON "class_templates" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "show_awards_title_key" ON "show_awards" USING btree ("event_id",coalesce("class_id"::text, ''),lower("title"));--> statement-breakpoint
CREATE INDEX "show_awards_application_idx" ON "show_awards" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "show_class_judges_user_idx" ON "show_class_judges" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "show_classes_event_name_key" ON "show_classes" USING btree ("event_id",lower("name"));--> statement-breakpoint
CREATE INDEX "show_classes_event_idx" ON "show_classes" USING btree ("event_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "show_entries_number_key" ON "show_entries" USING btree ("event_id","show_number");--> statement-breakpoint
CREATE UNIQUE INDEX "show_entries_vote_key" ON "show_entries" USING btree ("vote_key");--> statement-breakpoint
CREATE INDEX "show_entries_class_idx" ON "show_entries" USING btree ("class_id");--> statement-breakpoint
CREATE INDEX "show_marks_class_idx" ON "show_marks" USING btree ("class_id");--> statement-breakpoint
CREATE UNIQUE INDEX "vote_categories_event_slug_key" ON "vote_categories" USING btree ("event_id","slug");