-- CreateTable
CREATE TABLE "ShadowConfig" (
    "agentId" TEXT NOT NULL,
    "candidateVersion" INTEGER,
    "candidateWorkflow" JSONB,
    "liveRef" TEXT NOT NULL,
    "candidateRef" TEXT NOT NULL,
    "sampleRate" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "updatedById" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShadowConfig_pkey" PRIMARY KEY ("agentId")
);

-- CreateTable
CREATE TABLE "ShadowResult" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "traceId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "liveIntent" TEXT,
    "candidateIntent" TEXT,
    "agree" BOOLEAN,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "candidateTraceId" TEXT,
    "message" TEXT NOT NULL DEFAULT '',
    "traceStartedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShadowResult_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ShadowResult_traceId_key" ON "ShadowResult"("traceId");

-- CreateIndex
CREATE INDEX "ShadowResult_agentId_traceStartedAt_idx" ON "ShadowResult"("agentId", "traceStartedAt");
