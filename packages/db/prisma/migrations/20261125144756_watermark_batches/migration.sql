-- AlterTable
ALTER TABLE "watermark_jobs" ADD COLUMN     "batch_id" UUID;

-- CreateTable
CREATE TABLE "watermark_batches" (
    "id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "watermark_batches_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "watermark_batches_completed_at_idx" ON "watermark_batches"("completed_at");

-- CreateIndex
CREATE INDEX "watermark_jobs_batch_id_idx" ON "watermark_jobs"("batch_id");

-- AddForeignKey
ALTER TABLE "watermark_jobs" ADD CONSTRAINT "watermark_jobs_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "watermark_batches"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "watermark_batches" ADD CONSTRAINT "watermark_batches_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
