-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "rate_limit_per_minute" INTEGER;
