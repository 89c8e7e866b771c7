-- AlterTable
ALTER TABLE "Trace" ADD COLUMN     "leadFlags" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "leadFlagsAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Trace_agentId_leadFlagsAt_startedAt_idx" ON "Trace"("agentId", "leadFlagsAt", "startedAt");
