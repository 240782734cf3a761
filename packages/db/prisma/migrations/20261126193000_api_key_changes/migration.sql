-- API processes cache keys (API_KEY_CACHE_SECONDS) and LISTEN on this channel: any change that
-- can refuse a key or change its limit, by whatever writer (the admin API, the CLI, an
-- operator's SQL), tells them at commit, so the change takes effect at once.
CREATE FUNCTION api_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('api_key_changed', (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)::text);
  RETURN NULL;
END
$$;

CREATE TRIGGER api_keys_changed
  AFTER UPDATE OF revoked_at, rate_limit_per_minute, hash ON api_keys
  FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at
        OR OLD.rate_limit_per_minute IS DISTINCT FROM NEW.rate_limit_per_minute
        OR OLD.hash IS DISTINCT FROM NEW.hash)
  EXECUTE FUNCTION api_key_changed();

CREATE TRIGGER api_keys_deleted
  AFTER DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION api_key_changed();
