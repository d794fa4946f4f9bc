CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "services_title_trgm_idx" ON "services" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "entries_live_service_created_idx" ON "entries" USING btree ("service_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "entries_number_prefix_idx" ON "entries" USING btree ("number" varchar_pattern_ops);