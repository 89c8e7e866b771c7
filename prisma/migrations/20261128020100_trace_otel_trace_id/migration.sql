-- AlterTable
ALTER TABLE "Trace" ADD COLUMN     "otelTraceId" TEXT;
