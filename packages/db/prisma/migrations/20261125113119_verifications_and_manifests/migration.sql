-- AlterTable
ALTER TABLE "watermark_jobs" ADD COLUMN     "manifest_id" TEXT,
ADD COLUMN     "manifest_storage_key" TEXT;

-- CreateTable
CREATE TABLE "verifications" (
    "id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "file_id" UUID,
    "status" "job_status" NOT NULL DEFAULT 'pending',
    "idempotency_key" TEXT,
    "request_hash" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "verdict" TEXT,
    "mark_payload" TEXT,
    "manifest_id" TEXT,
    "report" JSONB,
    "error_code" TEXT,
    "error_message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "verifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "verifications_api_key_id_created_at_idx" ON "verifications"("api_key_id", "created_at");

-- CreateIndex
CREATE INDEX "verifications_status_updated_at_idx" ON "verifications"("status", "updated_at");

-- CreateIndex
CREATE INDEX "verifications_file_id_idx" ON "verifications"("file_id");

-- CreateIndex
CREATE UNIQUE INDEX "verifications_api_key_id_idempotency_key_key" ON "verifications"("api_key_id", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "watermark_jobs_manifest_id_key" ON "watermark_jobs"("manifest_id");

-- AddForeignKey
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE SET NULL ON UPDATE CASCADE;
