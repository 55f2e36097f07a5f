-- Full-text search over what was said. A generated column keeps itself current on every insert
-- (turns are written with plain SQL on the hot path), and the Prisma schema names it Unsupported.
ALTER TABLE "Turn" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (to_tsvector('english', "content")) STORED;

-- CreateIndex
CREATE INDEX "Turn_search_idx" ON "Turn" USING GIN ("search");
