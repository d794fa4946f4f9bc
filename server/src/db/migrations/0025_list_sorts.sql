CREATE INDEX "users_full_name_sort_idx" ON "users" USING btree (("last_name" || ' ' || "first_name" || ' ' || coalesce("middle_name", '')));--> statement-breakpoint
CREATE INDEX "services_title_sort_idx" ON "services" USING btree ("title");--> statement-breakpoint
CREATE INDEX "entries_live_price_idx" ON "entries" USING btree ("price","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "entries_live_status_idx" ON "entries" USING btree ("status","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "entries_live_type_price_idx" ON "entries" USING btree ("service_type_id","price","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "entries_live_status_price_idx" ON "entries" USING btree ("status","price","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "payments_sum_idx" ON "payments" USING btree ("sum","id");