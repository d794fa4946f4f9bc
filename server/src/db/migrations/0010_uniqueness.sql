CREATE TABLE "publication_fingerprints" (
	"hash" bigint NOT NULL,
	"publication_id" integer NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "publication_matches" ADD COLUMN "source_publication_id" integer;--> statement-breakpoint
ALTER TABLE "publication_matches" ADD COLUMN "spans" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "uniqueness_spans" jsonb;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "uniqueness_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "publication_fingerprints" ADD CONSTRAINT "publication_fingerprints_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "publication_fingerprints_hash_idx" ON "publication_fingerprints" USING btree ("hash","publication_id","position");--> statement-breakpoint
CREATE INDEX "publication_fingerprints_publication_idx" ON "publication_fingerprints" USING btree ("publication_id");--> statement-breakpoint
ALTER TABLE "publication_matches" ADD CONSTRAINT "publication_matches_source_publication_id_publications_id_fk" FOREIGN KEY ("source_publication_id") REFERENCES "public"."publications"("id") ON DELETE set null ON UPDATE no action;