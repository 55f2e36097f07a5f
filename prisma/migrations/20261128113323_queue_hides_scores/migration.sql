-- AlterTable
ALTER TABLE "Queue" ADD COLUMN     "hidesScores" BOOLEAN NOT NULL DEFAULT false;
