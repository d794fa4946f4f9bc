-- Hand-edited: user_names also keeps each user's registration and deletion times, so that the users
-- list's name search, newest first, finds and orders its matches in this narrow table alone
-- (issue 34). The table is made again as migration 0032 made it (copied from users before its index
-- is built), rather than updated row by row, which would leave it twice its size until a vacuum.
-- The rows are written in the order of the names: the namesakes a search finds then share a few
-- pages (24 instead of 948 for the 1 966 «Смирнова» of the bench, 1.1 ms instead of 2.3). Users
-- registered later are added at the end. The trigger of migration 0032 now also follows a deletion
-- (or its undoing).
DROP TABLE "user_names";--> statement-breakpoint
CREATE TABLE "user_names" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"full_name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
INSERT INTO "user_names" ("user_id", "full_name", "created_at", "deleted_at")
  SELECT "id", lower("last_name" || ' ' || "first_name" || ' ' || coalesce("middle_name", '')), "created_at", "deleted_at" FROM "users"
  ORDER BY 2;--> statement-breakpoint
ALTER TABLE "user_names" ADD CONSTRAINT "user_names_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_names_full_name_trgm_idx" ON "user_names" USING gin ("full_name" gin_trgm_ops) WITH (fastupdate = off);--> statement-breakpoint
CREATE OR REPLACE FUNCTION user_names_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_names (user_id, full_name, created_at, deleted_at)
    VALUES (NEW.id, lower(NEW.last_name || ' ' || NEW.first_name || ' ' || coalesce(NEW.middle_name, '')), NEW.created_at, NEW.deleted_at)
    ON CONFLICT (user_id) DO UPDATE SET full_name = EXCLUDED.full_name, created_at = EXCLUDED.created_at, deleted_at = EXCLUDED.deleted_at
    WHERE (user_names.full_name, user_names.created_at, user_names.deleted_at) IS DISTINCT FROM (EXCLUDED.full_name, EXCLUDED.created_at, EXCLUDED.deleted_at);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER "users_names_update" ON "users";--> statement-breakpoint
CREATE TRIGGER users_names_update AFTER UPDATE OF last_name, first_name, middle_name, created_at, deleted_at ON users FOR EACH ROW EXECUTE FUNCTION user_names_sync();
