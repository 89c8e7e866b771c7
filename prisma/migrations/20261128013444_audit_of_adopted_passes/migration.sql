-- AlterTable
ALTER TABLE "EvalRun" ADD COLUMN     "auditRate" DOUBLE PRECISION NOT NULL DEFAULT 0.1,
ADD COLUMN     "maxAuditOverturn" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "EvalRunItem" ADD COLUMN     "auditId" TEXT;

-- AlterTable
ALTER TABLE "EvalSet" ADD COLUMN     "auditRate" DOUBLE PRECISION NOT NULL DEFAULT 0.1,
ADD COLUMN     "maxAuditOverturn" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "EvalAudit" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "algorithm" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "rate" DOUBLE PRECISION NOT NULL,
    "population" JSONB NOT NULL,
    "sample" JSONB NOT NULL,
    "byId" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EvalAudit_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "EvalAudit_runId_at_idx" ON "EvalAudit"("runId", "at");

-- AddForeignKey
ALTER TABLE "EvalAudit" ADD CONSTRAINT "EvalAudit_runId_fkey" FOREIGN KEY ("runId") REFERENCES "EvalRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalRunItem" ADD CONSTRAINT "EvalRunItem_auditId_fkey" FOREIGN KEY ("auditId") REFERENCES "EvalAudit"("id") ON DELETE SET NULL ON UPDATE CASCADE;
