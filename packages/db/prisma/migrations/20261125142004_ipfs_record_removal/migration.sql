-- AlterTable
ALTER TABLE "ipfs_records" ADD COLUMN     "removed_at" TIMESTAMPTZ(3);
