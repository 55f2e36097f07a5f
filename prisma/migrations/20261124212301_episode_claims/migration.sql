-- AlterTable
ALTER TABLE "Episode" ADD COLUMN     "claimedBy" TEXT,
ADD COLUMN     "leaseUntil" TIMESTAMP(3);
