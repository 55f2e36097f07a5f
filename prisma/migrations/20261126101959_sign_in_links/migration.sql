-- Sign-in links become single-use and expiring rows of their own (issue 32).

-- CreateTable
CREATE TABLE "SignInLink" (
    "tokenHash" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "SignInLink_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateIndex
CREATE INDEX "SignInLink_userId_idx" ON "SignInLink"("userId");

-- AddForeignKey
ALTER TABLE "SignInLink" ADD CONSTRAINT "SignInLink_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A link handed out before this migration works once more, for the default week; a disabled
-- person's link and the local user's placeholder never did and are not carried over.
INSERT INTO "SignInLink" ("tokenHash", "userId", "expiresAt")
SELECT "tokenHash", "id", CURRENT_TIMESTAMP + INTERVAL '7 days' FROM "User" WHERE NOT "disabled" AND "name" <> ':local';

-- DropIndex
DROP INDEX "User_tokenHash_key";

-- AlterTable
ALTER TABLE "User" DROP COLUMN "tokenHash";
