-- AlterTable
ALTER TABLE "Assignment" ADD COLUMN     "broken" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "deferredAt" TIMESTAMP(3),
ADD COLUMN     "skipReason" TEXT;

-- AlterTable
ALTER TABLE "Label" ADD COLUMN     "criteria" JSONB,
ADD COLUMN     "review" TEXT,
ADD COLUMN     "reviewNote" TEXT,
ADD COLUMN     "reviewedAt" TIMESTAMP(3),
ADD COLUMN     "reviewerId" INTEGER,
ADD COLUMN     "strength" TEXT,
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "Queue" ADD COLUMN     "archivedAt" TIMESTAMP(3),
ADD COLUMN     "closedAt" TIMESTAMP(3),
ADD COLUMN     "goldMinimum" INTEGER NOT NULL DEFAULT 3,
ADD COLUMN     "goldThreshold" DOUBLE PRECISION,
ADD COLUMN     "labelSchema" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "QueueReviewer" (
    "queueId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,

    CONSTRAINT "QueueReviewer_pkey" PRIMARY KEY ("queueId","userId")
);

-- CreateTable
CREATE TABLE "Adjudication" (
    "itemId" INTEGER NOT NULL,
    "queueId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "choice" "LabelChoice" NOT NULL,
    "reason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Adjudication_pkey" PRIMARY KEY ("itemId")
);

-- CreateTable
CREATE TABLE "LabelVersion" (
    "id" SERIAL NOT NULL,
    "labelId" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "choice" "LabelChoice" NOT NULL,
    "leftIsA" BOOLEAN NOT NULL,
    "strength" TEXT,
    "criteria" JSONB,
    "comment" TEXT,
    "ms" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LabelVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "QueueReviewer_userId_idx" ON "QueueReviewer"("userId");

-- CreateIndex
CREATE INDEX "Adjudication_queueId_idx" ON "Adjudication"("queueId");

-- CreateIndex
CREATE UNIQUE INDEX "LabelVersion_labelId_version_key" ON "LabelVersion"("labelId", "version");

-- AddForeignKey
ALTER TABLE "QueueReviewer" ADD CONSTRAINT "QueueReviewer_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "Queue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueReviewer" ADD CONSTRAINT "QueueReviewer_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Adjudication" ADD CONSTRAINT "Adjudication_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "QueueItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LabelVersion" ADD CONSTRAINT "LabelVersion_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label"("id") ON DELETE CASCADE ON UPDATE CASCADE;
