CREATE TABLE "publication_common_hashes" (
	"hash" bigint PRIMARY KEY NOT NULL,
	"postings" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publication_stems" (
	"publication_id" integer PRIMARY KEY NOT NULL,
	"codes" "bytea" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "publication_stems" ADD CONSTRAINT "publication_stems_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_stems" ALTER COLUMN "codes" SET STORAGE EXTERNAL;