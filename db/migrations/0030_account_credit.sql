CREATE TABLE "credit_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"position" bigint GENERATED ALWAYS AS IDENTITY (sequence name "credit_entries_position_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"kind" text NOT NULL,
	"order_id" uuid,
	"expires_at" timestamp with time zone,
	"grant_id" uuid,
	"reason" text NOT NULL,
	"actor_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_entries_amount_non_zero" CHECK ("credit_entries"."amount" <> 0),
	CONSTRAINT "credit_entries_sign" CHECK (("credit_entries"."kind" in ('refund', 'spend_returned') and "credit_entries"."amount" > 0) or ("credit_entries"."kind" in ('spend', 'expiry') and "credit_entries"."amount" < 0) or "credit_entries"."kind" = 'adjustment'),
	CONSTRAINT "credit_entries_draws_on_a_grant" CHECK (("credit_entries"."amount" < 0) = ("credit_entries"."grant_id" is not null)),
	CONSTRAINT "credit_entries_expiry_on_grants" CHECK ("credit_entries"."expires_at" is null or "credit_entries"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_amounts_non_negative";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_total_adds_up";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "credit" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_grant_id_credit_entries_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."credit_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_entries_user_idx" ON "credit_entries" USING btree ("user_id","created_at","position");--> statement-breakpoint
CREATE INDEX "credit_entries_order_idx" ON "credit_entries" USING btree ("order_id") WHERE "credit_entries"."order_id" is not null;--> statement-breakpoint
CREATE INDEX "credit_entries_grant_idx" ON "credit_entries" USING btree ("grant_id") WHERE "credit_entries"."grant_id" is not null;--> statement-breakpoint
CREATE INDEX "credit_entries_expiry_idx" ON "credit_entries" USING btree ("expires_at") WHERE "credit_entries"."expires_at" is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts_non_negative" CHECK ("orders"."subtotal" >= 0 and "orders"."shipping" >= 0 and "orders"."discount" between 0 and "orders"."subtotal" and "orders"."credit" >= 0 and "orders"."total" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_total_adds_up" CHECK ("orders"."total" = "orders"."subtotal" - "orders"."discount" + "orders"."shipping" - "orders"."credit");