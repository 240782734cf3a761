-- CreateTable
CREATE TABLE "storage_usage" (
    "api_key_id" UUID NOT NULL,
    "bytes" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "storage_usage_pkey" PRIMARY KEY ("api_key_id")
);

-- AddForeignKey
ALTER TABLE "storage_usage" ADD CONSTRAINT "storage_usage_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The bytes each key stores are kept by triggers, so every writer (the api, the worker, the
-- retention sweep, an operator's SQL) keeps them right: a file counts its size_bytes until
-- deleted_at is set, a job its output_size_bytes until output_deleted_at is set.
CREATE FUNCTION storage_usage_add(key UUID, delta BIGINT) RETURNS void LANGUAGE sql AS $$
  INSERT INTO storage_usage (api_key_id, bytes)
  SELECT key, delta WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = key)
  ON CONFLICT (api_key_id) DO UPDATE SET bytes = storage_usage.bytes + EXCLUDED.bytes
$$;

CREATE FUNCTION storage_usage_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  size_column TEXT := TG_ARGV[0];
  deleted_column TEXT := TG_ARGV[1];
  before BIGINT := 0;
  after BIGINT := 0;
BEGIN
  IF TG_OP <> 'INSERT' AND to_jsonb(OLD) ->> deleted_column IS NULL THEN
    before := coalesce((to_jsonb(OLD) ->> size_column)::BIGINT, 0);
  END IF;
  IF TG_OP <> 'DELETE' AND to_jsonb(NEW) ->> deleted_column IS NULL THEN
    after := coalesce((to_jsonb(NEW) ->> size_column)::BIGINT, 0);
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.api_key_id = NEW.api_key_id THEN
    IF after <> before THEN PERFORM storage_usage_add(NEW.api_key_id, after - before); END IF;
  ELSE
    IF before <> 0 THEN PERFORM storage_usage_add(OLD.api_key_id, -before); END IF;
    IF after <> 0 THEN PERFORM storage_usage_add(NEW.api_key_id, after); END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER files_storage_usage
  AFTER INSERT OR DELETE OR UPDATE OF size_bytes, deleted_at, api_key_id ON files
  FOR EACH ROW EXECUTE FUNCTION storage_usage_track('size_bytes', 'deleted_at');

CREATE TRIGGER watermark_jobs_storage_usage
  AFTER INSERT OR DELETE OR UPDATE OF output_size_bytes, output_deleted_at, api_key_id
  ON watermark_jobs
  FOR EACH ROW EXECUTE FUNCTION storage_usage_track('output_size_bytes', 'output_deleted_at');

-- What was stored before the triggers existed.
INSERT INTO storage_usage (api_key_id, bytes)
SELECT api_key_id, sum(bytes) FROM (
  SELECT api_key_id, coalesce(size_bytes, 0) AS bytes FROM files WHERE deleted_at IS NULL
  UNION ALL
  SELECT api_key_id, coalesce(output_size_bytes, 0) FROM watermark_jobs
   WHERE output_deleted_at IS NULL
) stored
GROUP BY api_key_id;
