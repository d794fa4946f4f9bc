CREATE TABLE "publication_declined_co_authors" (
	"publication_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"declined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "publication_declined_co_authors_publication_id_user_id_pk" PRIMARY KEY("publication_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "publication_declined_co_authors" ADD CONSTRAINT "publication_declined_co_authors_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_declined_co_authors" ADD CONSTRAINT "publication_declined_co_authors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;