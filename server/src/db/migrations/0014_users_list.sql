-- Hand-edited (drizzle cannot express it): users.has_profile is true while the user has a row in
-- user_profiles, kept by the trigger below. Added as true (no table rewrite) and cleared for the
-- few users without a profile, so the backfill does not leave a dead copy of every user; new users
-- start with false (the schema's default) and their first profile sets it.
ALTER TABLE "users" ADD COLUMN "has_profile" boolean DEFAULT true NOT NULL;--> statement-breakpoint
UPDATE "users" u SET "has_profile" = false WHERE NOT EXISTS (SELECT 1 FROM "user_profiles" up WHERE up."user_id" = u."id");--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "has_profile" SET DEFAULT false;--> statement-breakpoint
CREATE OR REPLACE FUNCTION users_has_profile_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE users SET has_profile = true WHERE id = NEW.user_id AND NOT has_profile;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    -- Lock the user first, so a profile added by a concurrent transaction that commits meanwhile
    -- is seen by the next statement's snapshot (read committed) and the flag is not cleared wrongly.
    PERFORM 1 FROM users WHERE id = OLD.user_id FOR UPDATE;
    UPDATE users SET has_profile = false
      WHERE id = OLD.user_id AND has_profile
        AND NOT EXISTS (SELECT 1 FROM user_profiles up WHERE up.user_id = OLD.user_id);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER user_profiles_has_profile_insert AFTER INSERT ON user_profiles FOR EACH ROW EXECUTE FUNCTION users_has_profile_sync();--> statement-breakpoint
CREATE TRIGGER user_profiles_has_profile_delete AFTER DELETE ON user_profiles FOR EACH ROW EXECUTE FUNCTION users_has_profile_sync();--> statement-breakpoint
CREATE TRIGGER user_profiles_has_profile_update AFTER UPDATE OF user_id ON user_profiles FOR EACH ROW EXECUTE FUNCTION users_has_profile_sync();--> statement-breakpoint
CREATE INDEX "users_full_name_trgm_idx" ON "users" USING gin (("last_name" || ' ' || "first_name" || ' ' || coalesce("middle_name", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_no_profile_idx" ON "users" USING btree ("created_at","id") WHERE not "users"."has_profile" and "users"."deleted_at" is null;
--> statement-breakpoint
-- Hand-written: the users list's trigram indexes without a pending list. With fastupdate on, new
-- rows wait in an unsorted list that every search reads whole (at 100 000 users: 200-400 pages per
-- index after a bulk load, 5-7 ms per search instead of 0.5-1 ms); users are written rarely.
ALTER INDEX "users_email_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "users_phone_digits_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "users_full_name_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "users_last_name_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "users_first_name_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "users_middle_name_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
-- Flush what is pending now (turning fastupdate off does not).
SELECT gin_clean_pending_list(c.oid) FROM pg_class c
  WHERE c.relname IN ('users_email_trgm_idx', 'users_phone_digits_trgm_idx', 'users_full_name_trgm_idx', 'users_last_name_trgm_idx', 'users_first_name_trgm_idx', 'users_middle_name_trgm_idx')
    AND c.relnamespace = current_schema()::regnamespace;
