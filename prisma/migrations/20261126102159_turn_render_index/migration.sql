-- CreateIndex
CREATE INDEX "Turn_renderId_idx" ON "Turn"("renderId");
