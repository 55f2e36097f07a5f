-- CreateTable
CREATE TABLE "Worker" (
    "id" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "kinds" TEXT[],
    "concurrency" INTEGER NOT NULL,
    "inFlight" INTEGER NOT NULL DEFAULT 0,
    "jobs" JSONB NOT NULL DEFAULT '[]',
    "finished" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "beatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Worker_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QueuedStep" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "step" TEXT NOT NULL,
    "settings" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "QueuedStep_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "QueuedStep_runId_idx" ON "QueuedStep"("runId");

-- AddForeignKey
ALTER TABLE "QueuedStep" ADD CONSTRAINT "QueuedStep_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
