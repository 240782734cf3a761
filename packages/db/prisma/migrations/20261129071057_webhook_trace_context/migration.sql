-- AlterTable
ALTER TABLE "webhook_events" ADD COLUMN     "trace_context" TEXT;
