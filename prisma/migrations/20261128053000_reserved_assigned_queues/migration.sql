-- AlterTable
ALTER TABLE "EvalRun" ADD COLUMN     "assignment" JSONB;

-- AlterTable
ALTER TABLE "EvalRunItem" ADD COLUMN     "assigneeId" TEXT,
ADD COLUMN     "reservations" JSONB NOT NULL DEFAULT '[]';

-- CreateIndex
CREATE INDEX "EvalRunItem_runId_assigneeId_idx" ON "EvalRunItem"("runId", "assigneeId");
