CREATE TABLE "service_titles" (
	"service_id" integer PRIMARY KEY NOT NULL,
	"title" text NOT NULL
);
--> statement-breakpoint
-- Hand-edited below, as migration 0032 (user_names): the titles are copied before the index is
-- built, the trigram index has no pending list, and a trigger keeps the table in step with services.
-- The title is kept in lower case: `like lower(<typed>)` is what ILIKE does, without lowering every
-- candidate again.
INSERT INTO "service_titles" ("service_id", "title") SELECT "id", lower("title") FROM "services";--> statement-breakpoint
ALTER TABLE "service_titles" ADD CONSTRAINT "service_titles_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_titles_title_trgm_idx" ON "service_titles" USING gin ("title" gin_trgm_ops) WITH (fastupdate = off);--> statement-breakpoint
CREATE OR REPLACE FUNCTION service_titles_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO service_titles (service_id, title) VALUES (NEW.id, lower(NEW.title))
    ON CONFLICT (service_id) DO UPDATE SET title = EXCLUDED.title
    WHERE service_titles.title IS DISTINCT FROM EXCLUDED.title;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER services_titles_insert AFTER INSERT ON services FOR EACH ROW EXECUTE FUNCTION service_titles_sync();--> statement-breakpoint
CREATE TRIGGER services_titles_update AFTER UPDATE OF title ON services FOR EACH ROW EXECUTE FUNCTION service_titles_sync();
