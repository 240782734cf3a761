-- AlterTable
ALTER TABLE "operators" ADD COLUMN     "disabled_at" TIMESTAMPTZ(3);
