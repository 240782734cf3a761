-- CreateEnum
CREATE TYPE "key_request_state" AS ENUM ('pending', 'approved', 'rejected');

-- CreateTable
CREATE TABLE "key_requests" (
    "id" UUID NOT NULL,
    "company_name" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "contact_name" TEXT NOT NULL,
    "contact_email" TEXT NOT NULL,
    "website" TEXT,
    "expected_volume" TEXT,
    "status" "key_request_state" NOT NULL DEFAULT 'pending',
    "token_hash" TEXT NOT NULL,
    "reason" TEXT,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "decided_at" TIMESTAMPTZ(3),
    "decided_by" TEXT,
    "api_key_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "key_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "key_requests_token_hash_key" ON "key_requests"("token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "key_requests_api_key_id_key" ON "key_requests"("api_key_id");

-- CreateIndex
CREATE INDEX "key_requests_status_due_at_idx" ON "key_requests"("status", "due_at");

-- AddForeignKey
ALTER TABLE "key_requests" ADD CONSTRAINT "key_requests_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;
