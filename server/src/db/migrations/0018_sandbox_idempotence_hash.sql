ALTER TABLE "sandbox_payments" ADD COLUMN "request_hash" varchar(64);--> statement-breakpoint
ALTER TABLE "sandbox_refunds" ADD COLUMN "request_hash" varchar(64);