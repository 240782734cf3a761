-- CreateEnum
CREATE TYPE "file_status" AS ENUM ('awaiting_upload', 'uploaded');

-- CreateEnum
CREATE TYPE "job_status" AS ENUM ('pending', 'processing', 'success', 'failed');

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "files" (
    "id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "file_name" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "status" "file_status" NOT NULL DEFAULT 'awaiting_upload',
    "size_bytes" BIGINT,
    "sha256" TEXT,
    "storage_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uploaded_at" TIMESTAMPTZ(3),

    CONSTRAINT "files_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "watermark_jobs" (
    "id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "file_id" UUID NOT NULL,
    "status" "job_status" NOT NULL DEFAULT 'pending',
    "options" JSONB NOT NULL,
    "idempotency_key" TEXT,
    "request_hash" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "steps" JSONB NOT NULL DEFAULT '[]',
    "error_code" TEXT,
    "error_message" TEXT,
    "output_storage_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "watermark_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys"("prefix");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "files_storage_key_key" ON "files"("storage_key");

-- CreateIndex
CREATE INDEX "files_api_key_id_idx" ON "files"("api_key_id");

-- CreateIndex
CREATE INDEX "watermark_jobs_status_updated_at_idx" ON "watermark_jobs"("status", "updated_at");

-- CreateIndex
CREATE INDEX "watermark_jobs_api_key_id_idx" ON "watermark_jobs"("api_key_id");

-- CreateIndex
CREATE INDEX "watermark_jobs_file_id_idx" ON "watermark_jobs"("file_id");

-- CreateIndex
CREATE UNIQUE INDEX "watermark_jobs_api_key_id_idempotency_key_key" ON "watermark_jobs"("api_key_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "files" ADD CONSTRAINT "files_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "watermark_jobs" ADD CONSTRAINT "watermark_jobs_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "watermark_jobs" ADD CONSTRAINT "watermark_jobs_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
