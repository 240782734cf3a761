-- storage_usage kept by one trigger function per table instead of one generic function. The
-- generic one read its columns by name through to_jsonb(OLD) and to_jsonb(NEW), a copy of the
-- whole row (a job's options included) on every insert: measured on 20,000-row inserts, 7 us per
-- file row and 12 us per job row, about 45 % of an insert. A new upload or job stores nothing yet
-- (no size), so an insert without bytes no longer runs a trigger at all.

DROP TRIGGER files_storage_usage ON files;
DROP TRIGGER watermark_jobs_storage_usage ON watermark_jobs;
DROP FUNCTION storage_usage_track();

-- The bytes a row stored before and after a change, booked to its key (or moved between keys).
CREATE FUNCTION storage_usage_move(old_key UUID, new_key UUID, before BIGINT, after BIGINT)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF old_key IS NOT DISTINCT FROM new_key THEN
    IF after <> before THEN PERFORM storage_usage_add(new_key, after - before); END IF;
  ELSE
    IF before <> 0 THEN PERFORM storage_usage_add(old_key, -before); END IF;
    IF after <> 0 THEN PERFORM storage_usage_add(new_key, after); END IF;
  END IF;
END
$$;

-- A file counts its size_bytes until deleted_at is set.
CREATE FUNCTION files_storage_usage() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before BIGINT := 0;
  after BIGINT := 0;
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN before := coalesce(OLD.size_bytes, 0); END IF;
  IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN after := coalesce(NEW.size_bytes, 0); END IF;
  PERFORM storage_usage_move(
    CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD.api_key_id END,
    CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE NEW.api_key_id END,
    before, after);
  RETURN NULL;
END
$$;

-- A job counts its output_size_bytes until output_deleted_at is set.
CREATE FUNCTION watermark_jobs_storage_usage() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before BIGINT := 0;
  after BIGINT := 0;
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.output_deleted_at IS NULL THEN
    before := coalesce(OLD.output_size_bytes, 0);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.output_deleted_at IS NULL THEN
    after := coalesce(NEW.output_size_bytes, 0);
  END IF;
  PERFORM storage_usage_move(
    CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD.api_key_id END,
    CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE NEW.api_key_id END,
    before, after);
  RETURN NULL;
END
$$;

CREATE TRIGGER files_storage_usage_insert
  AFTER INSERT ON files
  FOR EACH ROW WHEN (coalesce(NEW.size_bytes, 0) <> 0 AND NEW.deleted_at IS NULL)
  EXECUTE FUNCTION files_storage_usage();

CREATE TRIGGER files_storage_usage
  AFTER DELETE OR UPDATE OF size_bytes, deleted_at, api_key_id ON files
  FOR EACH ROW EXECUTE FUNCTION files_storage_usage();

CREATE TRIGGER watermark_jobs_storage_usage_insert
  AFTER INSERT ON watermark_jobs
  FOR EACH ROW WHEN (coalesce(NEW.output_size_bytes, 0) <> 0 AND NEW.output_deleted_at IS NULL)
  EXECUTE FUNCTION watermark_jobs_storage_usage();

CREATE TRIGGER watermark_jobs_storage_usage
  AFTER DELETE OR UPDATE OF output_size_bytes, output_deleted_at, api_key_id ON watermark_jobs
  FOR EACH ROW EXECUTE FUNCTION watermark_jobs_storage_usage();
