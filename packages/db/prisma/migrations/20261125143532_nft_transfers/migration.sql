-- CreateEnum
CREATE TYPE "nft_transfer_status" AS ENUM ('pending', 'sent', 'confirmed', 'failed');

-- CreateTable
CREATE TABLE "nft_transfers" (
    "id" UUID NOT NULL,
    "nft_id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "to_address" TEXT NOT NULL,
    "status" "nft_transfer_status" NOT NULL DEFAULT 'pending',
    "tx_hash" TEXT,
    "raw_transaction" TEXT,
    "lease_token" UUID,
    "lease_expires_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error_code" TEXT,
    "error_message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "confirmed_at" TIMESTAMPTZ(3),

    CONSTRAINT "nft_transfers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "nft_transfers_tx_hash_key" ON "nft_transfers"("tx_hash");

-- CreateIndex
CREATE INDEX "nft_transfers_nft_id_idx" ON "nft_transfers"("nft_id");

-- CreateIndex
CREATE INDEX "nft_transfers_status_lease_expires_at_idx" ON "nft_transfers"("status", "lease_expires_at");

-- AddForeignKey
ALTER TABLE "nft_transfers" ADD CONSTRAINT "nft_transfers_nft_id_fkey" FOREIGN KEY ("nft_id") REFERENCES "nfts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "nft_transfers" ADD CONSTRAINT "nft_transfers_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
