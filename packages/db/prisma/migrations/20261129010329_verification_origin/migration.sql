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
-- never be listed as some key's, whatever writes it.
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_origin_owner_check" CHECK (
  ("origin" = 'api') = ("api_key_id" IS NOT NULL)
  AND ("origin" = 'console') = ("operator_id" IS NOT NULL)
);
