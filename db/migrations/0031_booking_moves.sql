CREATE TABLE "booking_moves" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"from_order_id" uuid NOT NULL,
	"to_order_id" uuid NOT NULL,
	"from_ticket_type_id" uuid NOT NULL,
	"to_ticket_type_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"moved_value" integer NOT NULL,
	"new_value" integer NOT NULL,
	"waived" integer DEFAULT 0 NOT NULL,
	"reason" text NOT NULL,
	"actor_id" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "booking_moves_amounts" CHECK ("booking_moves"."quantity" > 0 and "booking_moves"."moved_value" >= 0 and "booking_moves"."new_value" >= 0 and "booking_moves"."waived" >= 0)
);
--> statement-breakpoint
ALTER TABLE "booking_moves" ADD CONSTRAINT "booking_moves_from_order_id_orders_id_fk" FOREIGN KEY ("from_order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_moves" ADD CONSTRAINT "booking_moves_to_order_id_orders_id_fk" FOREIGN KEY ("to_order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_moves" ADD CONSTRAINT "booking_moves_from_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("from_ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_moves" ADD CONSTRAINT "booking_moves_to_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("to_ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_moves" ADD CONSTRAINT "booking_moves_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "booking_moves_to_order_key" ON "booking_moves" USING btree ("to_order_id");--> statement-breakpoint
CREATE INDEX "booking_moves_from_order_idx" ON "booking_moves" USING btree ("from_order_id");