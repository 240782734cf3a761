-- API processes cache the row a job's status read needs (JOB_CACHE_SECONDS) and LISTEN on this
-- channel: any change to those columns, or the job's deletion, by whatever writer (the worker, the
-- reconciler, the retention sweep, an operator's retry or SQL), tells them at commit. Progress
-- writes (steps, lease, updated_at) leave the view as it is and notify nobody: a job notifies
-- about three times in its life (running, then succeeded or failed), so the notification queue's
-- commit-time lock stays off the worker's hot path.
CREATE FUNCTION watermark_job_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('watermark_job_changed', OLD.id::text);
  RETURN NULL;
END
$$;

CREATE TRIGGER watermark_jobs_changed
  AFTER UPDATE OF status, options, file_id, api_key_id, output_storage_key, output_content_type,
                  output_deleted_at, error_code, error_message ON watermark_jobs
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status
        OR OLD.options IS DISTINCT FROM NEW.options
        OR OLD.file_id IS DISTINCT FROM NEW.file_id
        OR OLD.api_key_id IS DISTINCT FROM NEW.api_key_id
        OR OLD.output_storage_key IS DISTINCT FROM NEW.output_storage_key
        OR OLD.output_content_type IS DISTINCT FROM NEW.output_content_type
        OR OLD.output_deleted_at IS DISTINCT FROM NEW.output_deleted_at
        OR OLD.error_code IS DISTINCT FROM NEW.error_code
        OR OLD.error_message IS DISTINCT FROM NEW.error_message)
  EXECUTE FUNCTION watermark_job_changed();

CREATE TRIGGER watermark_jobs_deleted
  AFTER DELETE ON watermark_jobs
  FOR EACH ROW EXECUTE FUNCTION watermark_job_changed();
