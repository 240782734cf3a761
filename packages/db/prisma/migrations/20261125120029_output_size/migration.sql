-- AlterTable
ALTER TABLE "watermark_jobs" ADD COLUMN     "output_height" INTEGER,
ADD COLUMN     "output_width" INTEGER;
