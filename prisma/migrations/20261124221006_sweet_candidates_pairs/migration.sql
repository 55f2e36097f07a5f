-- CreateEnum
CREATE TYPE "PairKind" AS ENUM ('trajectory', 'turn');

-- CreateEnum
CREATE TYPE "PairSource" AS ENUM ('rule', 'critic', 'human');

-- CreateTable
CREATE TABLE "Candidate" (
    "id" SERIAL NOT NULL,
    "turnId" INTEGER NOT NULL,
    "index" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "policyModel" TEXT NOT NULL,
    "policyMean" DOUBLE PRECISION NOT NULL,
    "policySum" DOUBLE PRECISION NOT NULL,
    "criticModel" TEXT,
    "criticScore" DOUBLE PRECISION,
    "advantage" DOUBLE PRECISION,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Candidate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Pair" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "kind" "PairKind" NOT NULL,
    "source" "PairSource" NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "chosenId" INTEGER NOT NULL,
    "rejectedId" INTEGER NOT NULL,
    "params" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Pair_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Candidate_turnId_index_key" ON "Candidate"("turnId", "index");

-- CreateIndex
CREATE UNIQUE INDEX "Pair_runId_kind_source_ordinal_key" ON "Pair"("runId", "kind", "source", "ordinal");

-- AddForeignKey
ALTER TABLE "Candidate" ADD CONSTRAINT "Candidate_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Pair" ADD CONSTRAINT "Pair_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
