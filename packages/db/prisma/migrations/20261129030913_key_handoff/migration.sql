-- AlterTable
ALTER TABLE "key_requests" ADD COLUMN     "sealed_api_key" TEXT,
ADD COLUMN     "sealed_token" TEXT;
