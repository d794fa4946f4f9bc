ALTER TABLE "entries" ADD COLUMN "publication_cancelled_at" timestamp with time zone;--> statement-breakpoint
-- Existing debts of rejected or deleted publications (decision 025): their unpaid entries, when not
-- part of an intact package and with no other publication under way, are cancelled.
UPDATE "entries" e SET "deleted_at" = now(), "publication_cancelled_at" = now(), "updated_at" = now()
WHERE e."status" = 1 AND e."deleted_at" IS NULL
  AND (e."package_enrollment_id" IS NULL OR EXISTS (SELECT 1 FROM "package_enrollments" pk WHERE pk."id" = e."package_enrollment_id" AND pk."broken_at" IS NOT NULL))
  AND EXISTS (SELECT 1 FROM "publication_entries" pe WHERE pe."entry_id" = e."id")
  AND NOT EXISTS (SELECT 1 FROM "publication_entries" ope JOIN "publications" op ON op."id" = ope."publication_id"
                  WHERE ope."entry_id" = e."id" AND op."deleted_at" IS NULL AND op."status" <> 0);
