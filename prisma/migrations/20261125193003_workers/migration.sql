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
