-- CreateEnum
CREATE TYPE "LabelChoice" AS ENUM ('a', 'b', 'tie', 'both_bad');

-- CreateTable
CREATE TABLE "Queue" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "PairKind" NOT NULL,
    "benchmark" "Benchmark" NOT NULL,
    "instructions" TEXT NOT NULL DEFAULT '',
    "overlap" INTEGER NOT NULL,
    "goldRate" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "showsHidden" BOOLEAN NOT NULL DEFAULT false,
    "source" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Queue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QueueMember" (
    "queueId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,

    CONSTRAINT "QueueMember_pkey" PRIMARY KEY ("queueId","userId")
);

-- CreateTable
CREATE TABLE "QueueItem" (
    "id" SERIAL NOT NULL,
    "queueId" INTEGER NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "aRunId" INTEGER NOT NULL,
    "bRunId" INTEGER NOT NULL,
    "aEpisodeId" INTEGER,
    "bEpisodeId" INTEGER,
    "aCandidateId" INTEGER,
    "bCandidateId" INTEGER,
    "taskId" INTEGER NOT NULL,
    "sourceChoice" "LabelChoice",
    "gold" "LabelChoice",
    "params" JSONB,

    CONSTRAINT "QueueItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QueueSlot" (
    "id" SERIAL NOT NULL,
    "queueId" INTEGER NOT NULL,
    "itemId" INTEGER NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,
    "userId" INTEGER,
    "leaseUntil" TIMESTAMP(3),
    "labelled" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "QueueSlot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Assignment" (
    "itemId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "leftIsA" BOOLEAN NOT NULL,
    "skipped" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Assignment_pkey" PRIMARY KEY ("itemId","userId")
);

-- CreateTable
CREATE TABLE "Label" (
    "id" SERIAL NOT NULL,
    "queueId" INTEGER NOT NULL,
    "itemId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "choice" "LabelChoice" NOT NULL,
    "leftIsA" BOOLEAN NOT NULL,
    "comment" TEXT,
    "ms" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Label_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Queue_name_key" ON "Queue"("name");

-- CreateIndex
CREATE INDEX "QueueMember_userId_idx" ON "QueueMember"("userId");

-- CreateIndex
CREATE INDEX "QueueItem_aRunId_idx" ON "QueueItem"("aRunId");

-- CreateIndex
CREATE INDEX "QueueItem_bRunId_idx" ON "QueueItem"("bRunId");

-- CreateIndex
CREATE UNIQUE INDEX "QueueItem_queueId_ordinal_key" ON "QueueItem"("queueId", "ordinal");

-- CreateIndex
CREATE INDEX "QueueSlot_queueId_labelled_ordinal_n_idx" ON "QueueSlot"("queueId", "labelled", "ordinal", "n");

-- CreateIndex
CREATE INDEX "QueueSlot_userId_idx" ON "QueueSlot"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "QueueSlot_itemId_n_key" ON "QueueSlot"("itemId", "n");

-- CreateIndex
CREATE INDEX "Assignment_userId_idx" ON "Assignment"("userId");

-- CreateIndex
CREATE INDEX "Label_queueId_userId_id_idx" ON "Label"("queueId", "userId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Label_itemId_userId_key" ON "Label"("itemId", "userId");

-- AddForeignKey
ALTER TABLE "QueueMember" ADD CONSTRAINT "QueueMember_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "Queue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueMember" ADD CONSTRAINT "QueueMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueItem" ADD CONSTRAINT "QueueItem_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "Queue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueItem" ADD CONSTRAINT "QueueItem_aRunId_fkey" FOREIGN KEY ("aRunId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueItem" ADD CONSTRAINT "QueueItem_bRunId_fkey" FOREIGN KEY ("bRunId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueItem" ADD CONSTRAINT "QueueItem_aEpisodeId_fkey" FOREIGN KEY ("aEpisodeId") REFERENCES "Episode"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueItem" ADD CONSTRAINT "QueueItem_bEpisodeId_fkey" FOREIGN KEY ("bEpisodeId") REFERENCES "Episode"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueItem" ADD CONSTRAINT "QueueItem_aCandidateId_fkey" FOREIGN KEY ("aCandidateId") REFERENCES "Candidate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueItem" ADD CONSTRAINT "QueueItem_bCandidateId_fkey" FOREIGN KEY ("bCandidateId") REFERENCES "Candidate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueSlot" ADD CONSTRAINT "QueueSlot_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "QueueItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueSlot" ADD CONSTRAINT "QueueSlot_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "QueueItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Label" ADD CONSTRAINT "Label_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "QueueItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Label" ADD CONSTRAINT "Label_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
