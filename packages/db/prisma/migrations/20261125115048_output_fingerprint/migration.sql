-- AlterTable
ALTER TABLE "watermark_jobs" ADD COLUMN     "fingerprint" TEXT;
