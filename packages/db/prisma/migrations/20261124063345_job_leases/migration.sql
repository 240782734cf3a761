-- AlterTable
ALTER TABLE "nfts" ADD COLUMN     "signing_token" UUID;

-- AlterTable
ALTER TABLE "watermark_jobs" ADD COLUMN     "crashes" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "lease_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "lease_token" UUID;
