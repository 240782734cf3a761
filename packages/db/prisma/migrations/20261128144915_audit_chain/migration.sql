-- The audit log: entries without an operator (the CLI on the server, failed sign-ins) name who
-- acted in `actor`; each entry carries a hash chained to the entry before it; triggers refuse
-- updates, deletes and truncation outright, where the rules they replace silently did nothing
-- (and let TRUNCATE through).
ALTER TABLE "audit_entries" ADD COLUMN     "actor" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "hash" BYTEA,
ADD COLUMN     "prev_hash" BYTEA,
ALTER COLUMN "operator_id" DROP NOT NULL;

DROP RULE "audit_entries_no_update" ON "audit_entries";
DROP RULE "audit_entries_no_delete" ON "audit_entries";

-- What an entry's hash covers: every field, in a fixed text form (UTC time, jsonb's own text).
CREATE FUNCTION audit_entry_hash(prev BYTEA, e audit_entries) RETURNS BYTEA
LANGUAGE sql STABLE AS $$
  SELECT sha256(prev || convert_to(concat_ws(E'\x1f',
    e.id::text, coalesce(e.operator_id::text, ''), e.actor, e.action, e.target, e.details::text,
    e.address, to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS')), 'UTF8'))
$$;

-- Entries written so far: their operators' emails, chained in id order.
UPDATE audit_entries a SET actor = o.email FROM operators o WHERE o.id = a.operator_id;
DO $$
DECLARE
  entry audit_entries;
  last BYTEA := ''::bytea;
BEGIN
  FOR entry IN SELECT * FROM audit_entries ORDER BY id LOOP
    UPDATE audit_entries SET prev_hash = last, hash = audit_entry_hash(last, entry)
     WHERE id = entry.id RETURNING hash INTO last;
  END LOOP;
END
$$;

-- A new entry joins the chain under one lock, held until its transaction ends, and takes its id
-- there: id order is chain order.
CREATE FUNCTION audit_entries_chain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('hallmark.audit-chain'));
  NEW.id := nextval(pg_get_serial_sequence('audit_entries', 'id'));
  NEW.prev_hash := coalesce((SELECT hash FROM audit_entries ORDER BY id DESC LIMIT 1), ''::bytea);
  NEW.hash := audit_entry_hash(NEW.prev_hash, NEW);
  RETURN NEW;
END
$$;

CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit entries are append-only (% refused)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER audit_entries_chain BEFORE INSERT ON audit_entries
  FOR EACH ROW EXECUTE FUNCTION audit_entries_chain();
CREATE TRIGGER audit_entries_no_change BEFORE UPDATE OR DELETE ON audit_entries
  FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only();
CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
  FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only();
