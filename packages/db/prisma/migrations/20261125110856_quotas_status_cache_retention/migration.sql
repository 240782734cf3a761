-- AlterTable
ALTER TABLE "files" ADD COLUMN     "deleted_at" TIMESTAMPTZ(3),
ADD COLUMN     "upload_started_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "nfts" ADD COLUMN     "metadata" JSONB,
ADD COLUMN     "owner" TEXT,
ADD COLUMN     "owner_checked_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "watermark_jobs" ADD COLUMN     "output_deleted_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "mint_counts" (
    "api_key_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "mint_counts_pkey" PRIMARY KEY ("api_key_id","day")
);

-- CreateIndex
CREATE INDEX "files_status_deleted_at_idx" ON "files"("status", "deleted_at");

-- AddForeignKey
ALTER TABLE "mint_counts" ADD CONSTRAINT "mint_counts_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
