-- AlterTable
ALTER TABLE "watermark_batches" ADD COLUMN     "idempotency_key" TEXT,
ADD COLUMN     "request_hash" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "watermark_batches_api_key_id_idempotency_key_key" ON "watermark_batches"("api_key_id", "idempotency_key");
