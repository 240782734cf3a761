-- AlterEnum
ALTER TYPE "file_status" ADD VALUE 'uploading';

-- AlterTable
ALTER TABLE "files" ADD COLUMN     "detected_content_type" TEXT;

-- AlterTable
ALTER TABLE "watermark_jobs" ADD COLUMN     "mark_payload" TEXT,
ADD COLUMN     "output_content_type" TEXT,
ADD COLUMN     "output_sha256" TEXT,
ADD COLUMN     "output_size_bytes" BIGINT;

-- CreateIndex
CREATE UNIQUE INDEX "watermark_jobs_mark_payload_key" ON "watermark_jobs"("mark_payload");
