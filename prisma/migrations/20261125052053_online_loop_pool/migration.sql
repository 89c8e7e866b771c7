-- AlterTable
ALTER TABLE "EvalSample" ADD COLUMN     "referenceAnswer" TEXT;

-- CreateTable
CREATE TABLE "LeadDismissal" (
    "traceId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "dismissedById" TEXT,
    "dismissedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LeadDismissal_pkey" PRIMARY KEY ("traceId")
);

-- CreateIndex
CREATE INDEX "EvalSample_sourceTraceId_idx" ON "EvalSample"("sourceTraceId");
