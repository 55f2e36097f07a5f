-- Scores a browser computes on the replay are a record of their own (issue 55): they had been written
-- over what `colbench rank` stored on Candidate and Turn. Rank's settings (sum, ground truth) are kept in
-- the run's config beside its template, so they need no column.

-- CreateTable
CREATE TABLE "BrowserScoring" (
    "id" SERIAL NOT NULL,
    "episodeId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "device" TEXT NOT NULL,
    "criticModel" TEXT NOT NULL,
    "policyModel" TEXT NOT NULL,
    "template" JSONB NOT NULL,
    "templateFrom" TEXT NOT NULL,
    "sum" BOOLEAN NOT NULL,
    "groundTruth" BOOLEAN NOT NULL,
    "settingsFrom" TEXT NOT NULL,
    "turns" JSONB NOT NULL,
    "comparison" JSONB NOT NULL,
    "maxDiff" DOUBLE PRECISION,

    CONSTRAINT "BrowserScoring_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BrowserScoring_episodeId_id_idx" ON "BrowserScoring"("episodeId", "id");

-- AddForeignKey
ALTER TABLE "BrowserScoring" ADD CONSTRAINT "BrowserScoring_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "Episode"("id") ON DELETE CASCADE ON UPDATE CASCADE;
