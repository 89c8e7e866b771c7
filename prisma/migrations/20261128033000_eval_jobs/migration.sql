-- CreateTable
CREATE TABLE "EvalJob" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "setId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "total" INTEGER NOT NULL,
    "done" INTEGER NOT NULL DEFAULT 0,
    "doneItems" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "request" JSONB NOT NULL,
    "result" JSONB,
    "error" JSONB,
    "byId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "EvalJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "EvalJob_setId_status_idx" ON "EvalJob"("setId", "status");

-- AddForeignKey
ALTER TABLE "EvalJob" ADD CONSTRAINT "EvalJob_setId_fkey" FOREIGN KEY ("setId") REFERENCES "EvalSet"("id") ON DELETE CASCADE ON UPDATE CASCADE;
