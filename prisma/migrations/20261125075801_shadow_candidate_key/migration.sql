-- DropIndex
DROP INDEX "ShadowResult_agentId_traceStartedAt_idx";

-- AlterTable
ALTER TABLE "ShadowConfig" ADD COLUMN     "candidateKey" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "candidateNote" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "ShadowResult" ADD COLUMN     "candidateKey" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "ShadowResult_agentId_candidateKey_traceStartedAt_idx" ON "ShadowResult"("agentId", "candidateKey", "traceStartedAt");
