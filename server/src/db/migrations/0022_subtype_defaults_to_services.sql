-- Defaults are per service type (decision 024). A service that printed its subtype's default keeps it as its own.
UPDATE "services" SET "template_certificate_id" = st."template_certificate_id" FROM "dict_service_subtypes" st WHERE st."id" = "services"."dict_subtype_id" AND "services"."template_certificate_id" IS NULL AND st."template_certificate_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "dict_service_subtypes" DROP COLUMN "template_certificate_id";
