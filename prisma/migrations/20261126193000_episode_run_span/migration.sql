-- CreateIndex
CREATE INDEX "Episode_runId_id_idx" ON "Episode"("runId", "id");
