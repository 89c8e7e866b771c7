-- The model price table (issue 24, Cost)
CREATE TABLE "ModelPrice" (
    "model" TEXT NOT NULL,
    "promptPerMillion" DOUBLE PRECISION NOT NULL,
    "completionPerMillion" DOUBLE PRECISION NOT NULL,
    "currency" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ModelPrice_pkey" PRIMARY KEY ("model")
);

-- Tokens by model per item (Cost) and repeated answers (issue 24, Repeated answers)
ALTER TABLE "EvalRun" ADD COLUMN "repeats" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "EvalRunItem" ADD COLUMN "answerUsage" JSONB,
ADD COLUMN "judgeUsage" JSONB,
ADD COLUMN "repeatAnswers" JSONB;
