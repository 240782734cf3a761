-- CreateTable
CREATE TABLE "storage_deletions" (
    "storage_key" TEXT NOT NULL,
    "queued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "storage_deletions_pkey" PRIMARY KEY ("storage_key")
);

-- CreateIndex
CREATE INDEX "storage_deletions_queued_at_idx" ON "storage_deletions"("queued_at");
