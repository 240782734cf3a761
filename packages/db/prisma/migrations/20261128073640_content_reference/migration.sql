-- AlterTable
ALTER TABLE "watermark_jobs" ADD COLUMN     "content_reference" BYTEA;
