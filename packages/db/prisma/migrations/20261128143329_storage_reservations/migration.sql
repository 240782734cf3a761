-- A queued or running job holds its file's size under the key's storage quota (reserved_bytes),
-- standing in for the output it will store: without it, a key just under its quota could queue
-- any number of jobs (batches of a hundred at a time), each storing an output later.
ALTER TABLE "watermark_jobs" ADD COLUMN     "reserved_bytes" BIGINT NOT NULL DEFAULT 0;

-- A job counts its output_size_bytes until output_deleted_at is set; before it has an output,
-- its reserved_bytes while pending or processing (a failed job releases them).
CREATE OR REPLACE FUNCTION watermark_jobs_storage_usage() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before BIGINT := 0;
  after BIGINT := 0;
BEGIN
  IF TG_OP <> 'INSERT' THEN before := watermark_job_stored_bytes(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN after := watermark_job_stored_bytes(NEW); END IF;
  PERFORM storage_usage_move(
    CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD.api_key_id END,
    CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE NEW.api_key_id END,
    before, after);
  RETURN NULL;
END
$$;

CREATE FUNCTION watermark_job_stored_bytes(job watermark_jobs) RETURNS BIGINT
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN job.output_deleted_at IS NOT NULL THEN 0
    WHEN job.output_size_bytes IS NOT NULL THEN job.output_size_bytes
    WHEN job.status IN ('pending', 'processing') THEN job.reserved_bytes
    ELSE 0
  END
$$;

DROP TRIGGER watermark_jobs_storage_usage_insert ON watermark_jobs;
DROP TRIGGER watermark_jobs_storage_usage ON watermark_jobs;

CREATE TRIGGER watermark_jobs_storage_usage_insert
  AFTER INSERT ON watermark_jobs
  FOR EACH ROW WHEN (watermark_job_stored_bytes(NEW) <> 0)
  EXECUTE FUNCTION watermark_jobs_storage_usage();

CREATE TRIGGER watermark_jobs_storage_usage
  AFTER DELETE OR UPDATE OF output_size_bytes, output_deleted_at, api_key_id, status,
    reserved_bytes ON watermark_jobs
  FOR EACH ROW EXECUTE FUNCTION watermark_jobs_storage_usage();

-- Jobs already queued reserve their files' sizes from now on (the trigger books them).
UPDATE watermark_jobs j SET reserved_bytes = f.size_bytes
  FROM files f
 WHERE f.id = j.file_id AND j.status IN ('pending', 'processing')
   AND j.output_size_bytes IS NULL AND f.size_bytes IS NOT NULL;
