-- CreateTable
CREATE TABLE "SweetStep" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "step" TEXT NOT NULL,
    "lineage" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SweetStep_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SweetStep_runId_step_idx" ON "SweetStep"("runId", "step");

-- AddForeignKey
ALTER TABLE "SweetStep" ADD CONSTRAINT "SweetStep_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
