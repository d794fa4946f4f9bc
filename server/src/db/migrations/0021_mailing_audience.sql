ALTER TABLE "mailings" ADD COLUMN "audience" jsonb;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "audience_label" text;