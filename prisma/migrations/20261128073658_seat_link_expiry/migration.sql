-- Seat links expire and can be revoked one by one (the collaborator seat had minted a never-ending
-- agent key on every view). Each key gets an id to be listed and revoked by, without its hash.

-- AlterTable
-- A key handed out before this migration keeps working for the default week from now rather than
-- for ever (in UTC, as the studio reads its timestamps); the default is only for those rows: a new
-- key always names its own expiry.
ALTER TABLE "SeatToken" DROP CONSTRAINT "SeatToken_pkey",
ADD COLUMN     "expiresAt" TIMESTAMP(3) NOT NULL DEFAULT ((CURRENT_TIMESTAMP AT TIME ZONE 'UTC') + INTERVAL '7 days'),
ADD COLUMN     "id" SERIAL NOT NULL,
ADD COLUMN     "openedAt" TIMESTAMP(3),
ADD COLUMN     "revokedAt" TIMESTAMP(3),
ADD CONSTRAINT "SeatToken_pkey" PRIMARY KEY ("id");

ALTER TABLE "SeatToken" ALTER COLUMN "expiresAt" DROP DEFAULT;

-- CreateIndex
CREATE UNIQUE INDEX "SeatToken_tokenHash_key" ON "SeatToken"("tokenHash");
