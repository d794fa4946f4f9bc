-- A publication's text is stored out of line without compression (issue 29): pglz on a 480 000-character
-- text cost a third of its save's UPDATE on the embedded PGlite, and every read decompressed it again.
-- Texts are at most a few megabytes; values stored before keep their compression until rewritten.
ALTER TABLE "publications" ALTER COLUMN "text" SET STORAGE EXTERNAL;
