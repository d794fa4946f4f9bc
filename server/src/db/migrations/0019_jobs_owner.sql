ALTER TABLE "jobs" ADD COLUMN "owner_id" integer;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "jobs_owner_idx" ON "jobs" USING btree ("name","owner_id","started_at");