-- CreateTable
CREATE TABLE "EvalSetJudgeChange" (
    "id" TEXT NOT NULL,
    "setId" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "figures" JSONB,
    "forced" BOOLEAN NOT NULL DEFAULT false,
    "reason" TEXT,
    "byId" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EvalSetJudgeChange_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "EvalSetJudgeChange_setId_at_idx" ON "EvalSetJudgeChange"("setId", "at");

-- AddForeignKey
ALTER TABLE "EvalSetJudgeChange" ADD CONSTRAINT "EvalSetJudgeChange_setId_fkey" FOREIGN KEY ("setId") REFERENCES "EvalSet"("id") ON DELETE CASCADE ON UPDATE CASCADE;
