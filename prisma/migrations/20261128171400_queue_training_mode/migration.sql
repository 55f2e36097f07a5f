-- AlterTable
ALTER TABLE "Queue" ADD COLUMN     "trainingMode" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "QueueItem" ADD COLUMN     "goldReason" TEXT;
