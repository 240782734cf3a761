-- CreateTable
CREATE TABLE "activity_hours" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "code" TEXT NOT NULL DEFAULT '',
    "count" INTEGER NOT NULL,
    "durations" INTEGER[],

    CONSTRAINT "activity_hours_pkey" PRIMARY KEY ("hour","kind","outcome","code")
);

-- CreateTable
CREATE TABLE "queue_hours" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "waiting" INTEGER NOT NULL,
    "oldest_age_seconds" INTEGER NOT NULL,

    CONSTRAINT "queue_hours_pkey" PRIMARY KEY ("hour","kind")
);

-- CreateTable
CREATE TABLE "key_usage_days" (
    "api_key_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "jobs" INTEGER NOT NULL,
    "verifications" INTEGER NOT NULL,
    "bytes" BIGINT NOT NULL,
    "mints" INTEGER NOT NULL,

    CONSTRAINT "key_usage_days_pkey" PRIMARY KEY ("api_key_id","day")
);

-- CreateTable
CREATE TABLE "worker_heartbeats" (
    "id" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "worker_heartbeats_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "key_usage_days_day_idx" ON "key_usage_days"("day");

-- CreateIndex
CREATE INDEX "worker_heartbeats_last_seen_at_idx" ON "worker_heartbeats"("last_seen_at");

-- CreateIndex
CREATE INDEX "files_uploaded_at_idx" ON "files"("uploaded_at");

-- CreateIndex
CREATE INDEX "ipfs_records_stored_at_idx" ON "ipfs_records"("stored_at");

-- CreateIndex
CREATE INDEX "nfts_minted_at_idx" ON "nfts"("minted_at");

-- CreateIndex
CREATE INDEX "watermark_jobs_created_at_idx" ON "watermark_jobs"("created_at");

-- CreateIndex
CREATE INDEX "webhook_attempts_started_at_idx" ON "webhook_attempts"("started_at");

-- AddForeignKey
ALTER TABLE "key_usage_days" ADD CONSTRAINT "key_usage_days_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
