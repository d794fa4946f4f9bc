CREATE TABLE "user_names" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"full_name" text NOT NULL
);
--> statement-breakpoint
-- Hand-edited below (drizzle cannot express it): the names are copied before the indexes are built
-- (one sort instead of a row-by-row index insert), the trigram index has no pending list (as the
-- users' ones, migration 0014), and a trigger keeps the table in step with users. The name is kept
-- in lower case: `like lower(<typed>)` is what ILIKE does, without lowering every candidate again.
INSERT INTO "user_names" ("user_id", "full_name")
  SELECT "id", lower("last_name" || ' ' || "first_name" || ' ' || coalesce("middle_name", '')) FROM "users";--> statement-breakpoint
ALTER TABLE "user_names" ADD CONSTRAINT "user_names_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_names_full_name_trgm_idx" ON "user_names" USING gin ("full_name" gin_trgm_ops) WITH (fastupdate = off);--> statement-breakpoint
CREATE OR REPLACE FUNCTION user_names_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_names (user_id, full_name)
    VALUES (NEW.id, lower(NEW.last_name || ' ' || NEW.first_name || ' ' || coalesce(NEW.middle_name, '')))
    ON CONFLICT (user_id) DO UPDATE SET full_name = EXCLUDED.full_name
    WHERE user_names.full_name IS DISTINCT FROM EXCLUDED.full_name;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER users_names_insert AFTER INSERT ON users FOR EACH ROW EXECUTE FUNCTION user_names_sync();--> statement-breakpoint
CREATE TRIGGER users_names_update AFTER UPDATE OF last_name, first_name, middle_name ON users FOR EACH ROW EXECUTE FUNCTION user_names_sync();--> statement-breakpoint
CREATE INDEX "entries_live_newest_idx" ON "entries" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"created_by","service_id","service_type_id","status") WHERE deleted_at is null;
