-- AlterTable
ALTER TABLE "EvalRunItem" ADD COLUMN     "judgeCalls" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "llmCalls" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "turns" JSONB;

-- AlterTable
ALTER TABLE "EvalSetVersion" ADD COLUMN     "assertions" JSONB;

-- CreateIndex
CREATE INDEX "EvalRun_createdAt_idx" ON "EvalRun"("createdAt");
