-- AlterTable
ALTER TABLE "Queue" ADD COLUMN     "quota" INTEGER;
