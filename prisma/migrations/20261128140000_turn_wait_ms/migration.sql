-- AlterTable
ALTER TABLE "Turn" ADD COLUMN     "waitMs" INTEGER;
