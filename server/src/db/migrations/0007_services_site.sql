ALTER TABLE "services" ADD COLUMN "joomla_catid" integer;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "joomla_status" varchar(16);--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "joomla_error" text;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "joomla_published_at" timestamp with time zone;