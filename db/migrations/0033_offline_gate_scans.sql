CREATE TABLE "gate_scans" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"staff_id" text,
	"gate" text NOT NULL,
	"code_hash" text,
	"scanned_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"local" text NOT NULL,
	"outcome" text NOT NULL,
	"headline" text NOT NULL,
	"conflict" text,
	CONSTRAINT "gate_scans_gate_length" CHECK (length("gate_scans"."gate") between 1 and 40)
);
--> statement-breakpoint
ALTER TABLE "gate_scans" ADD CONSTRAINT "gate_scans_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gate_scans" ADD CONSTRAINT "gate_scans_staff_id_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gate_scans_event_idx" ON "gate_scans" USING btree ("event_id","scanned_at");--> statement-breakpoint
CREATE INDEX "gate_scans_code_idx" ON "gate_scans" USING btree ("event_id","code_hash");--> statement-breakpoint
CREATE INDEX "gate_scans_conflict_idx" ON "gate_scans" USING btree ("event_id") WHERE "gate_scans"."conflict" is not null;