-- CreateEnum
CREATE TYPE "RunKind" AS ENUM ('benchmark', 'played');

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "archivedAt" TIMESTAMP(3),
ADD COLUMN     "kind" "RunKind" NOT NULL DEFAULT 'benchmark';

-- CreateIndex
CREATE INDEX "Run_kind_archivedAt_idx" ON "Run"("kind", "archivedAt");

-- Sessions played before runs had a kind were named play-<benchmark>-<task>-<time>-<id> by the studio.
UPDATE "Run" SET "kind" = 'played' WHERE "name" LIKE 'play-%' AND "config"::text LIKE '%"human": true%';
