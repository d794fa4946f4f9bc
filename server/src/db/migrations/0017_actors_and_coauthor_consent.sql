ALTER TABLE "publication_authors" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "change_logs" ADD COLUMN "impersonator_id" integer;--> statement-breakpoint
ALTER TABLE "change_logs" ADD CONSTRAINT "change_logs_impersonator_id_users_id_fk" FOREIGN KEY ("impersonator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Links made before invitations existed stay as they were (the creator and every linked co-author).
UPDATE "publication_authors" SET "accepted_at" = now() WHERE "user_id" IS NOT NULL;