ALTER TABLE "users" ADD COLUMN "has_profile" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Hand-written (drizzle cannot express it): users.has_profile is true while the user has a row in
-- user_profiles. Filled here, then kept by a trigger on user_profiles.
UPDATE "users" u SET "has_profile" = true WHERE EXISTS (SELECT 1 FROM "user_profiles" up WHERE up."user_id" = u."id");--> statement-breakpoint
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
