-- CreateEnum
CREATE TYPE "verification_origin" AS ENUM ('api', 'public', 'console');

-- AlterTable
ALTER TABLE "verifications" ADD COLUMN     "operator_id" UUID,
ADD COLUMN     "origin" "verification_origin" NOT NULL DEFAULT 'api',
ALTER COLUMN "api_key_id" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "verifications_created_at_idx" ON "verifications"("created_at");

-- AddForeignKey
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Only a client's verification has a key, only an operator's has an operator: a public row can
-- never be listed as some key's, whatever writes it. A trigger rather than a CHECK constraint:
-- the WebAssembly schema engine stops on CHECK constraints when it diffs the schema.
CREATE FUNCTION verifications_owner_matches_origin() RETURNS trigger AS $$
BEGIN
  IF (NEW.origin = 'api') <> (NEW.api_key_id IS NOT NULL)
     OR (NEW.origin = 'console') <> (NEW.operator_id IS NOT NULL) THEN
    RAISE EXCEPTION 'verification % of origin % has the wrong owner', NEW.id, NEW.origin
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER verifications_owner_matches_origin
  BEFORE INSERT OR UPDATE OF origin, api_key_id, operator_id ON "verifications"
  FOR EACH ROW EXECUTE FUNCTION verifications_owner_matches_origin();
