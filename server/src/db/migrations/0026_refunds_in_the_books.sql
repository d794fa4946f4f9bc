DROP INDEX "entries_live_service_sales_idx";--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "refunded" numeric(12, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "entry_action" varchar(8) DEFAULT 'keep' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "succeeded_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payments_card_transaction_idx" ON "payments" USING btree ("card_transaction_id");--> statement-breakpoint
CREATE INDEX "entries_live_service_sales_idx" ON "entries" USING btree ("service_id","status","price","refunded") WHERE deleted_at is null;--> statement-breakpoint
UPDATE "payment_refunds" SET "succeeded_at" = "updated_at" WHERE "status" = 'succeeded';--> statement-breakpoint
UPDATE "entries" e SET "refunded" = least(e."price", x."refunded")
  FROM (SELECT pe."entry_id", round(sum(r."sum" * pe."sum" / nullif(p."sum", 0)), 2) AS "refunded"
          FROM "payment_refunds" r JOIN "payments" p ON p."id" = r."payment_id" AND NOT p."is_double"
          JOIN "payment_entries" pe ON pe."payment_id" = p."id"
         WHERE r."status" = 'succeeded' GROUP BY pe."entry_id") x
 WHERE e."id" = x."entry_id" AND e."status" IN (2, 3);
