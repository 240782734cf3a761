-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "wallet_address" TEXT;

-- CreateTable
CREATE TABLE "ipfs_records" (
    "id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "cid" TEXT NOT NULL,
    "metadata" JSONB NOT NULL,
    "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ipfs_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "nfts" (
    "id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "contract_address" TEXT NOT NULL,
    "minted_to" TEXT NOT NULL,
    "image_cid" TEXT NOT NULL,
    "metadata_cid" TEXT NOT NULL,
    "tx_hash" TEXT,
    "raw_transaction" TEXT,
    "token_id" TEXT,
    "block_number" BIGINT,
    "minted_at" TIMESTAMPTZ(3),
    "gas_used" BIGINT,
    "fee_wei" DECIMAL(78,0),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "nfts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ipfs_records_job_id_key" ON "ipfs_records"("job_id");

-- CreateIndex
CREATE INDEX "ipfs_records_cid_idx" ON "ipfs_records"("cid");

-- CreateIndex
CREATE INDEX "ipfs_records_api_key_id_idx" ON "ipfs_records"("api_key_id");

-- CreateIndex
CREATE UNIQUE INDEX "nfts_job_id_key" ON "nfts"("job_id");

-- CreateIndex
CREATE UNIQUE INDEX "nfts_tx_hash_key" ON "nfts"("tx_hash");

-- CreateIndex
CREATE INDEX "nfts_api_key_id_idx" ON "nfts"("api_key_id");

-- CreateIndex
CREATE UNIQUE INDEX "nfts_chain_id_contract_address_token_id_key" ON "nfts"("chain_id", "contract_address", "token_id");

-- AddForeignKey
ALTER TABLE "ipfs_records" ADD CONSTRAINT "ipfs_records_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "watermark_jobs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ipfs_records" ADD CONSTRAINT "ipfs_records_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "nfts" ADD CONSTRAINT "nfts_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "watermark_jobs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "nfts" ADD CONSTRAINT "nfts_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
