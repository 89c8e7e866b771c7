-- CreateTable
CREATE TABLE "OnlineJudgingRule" (
    "agentId" TEXT NOT NULL,
    "samplingRate" DOUBLE PRECISION NOT NULL,
    "filters" JSONB NOT NULL DEFAULT '{}',
    "judge" JSONB NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "updatedById" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OnlineJudgingRule_pkey" PRIMARY KEY ("agentId")
);

-- CreateTable
CREATE TABLE "OnlineJudgment" (
    "traceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "rationale" TEXT NOT NULL,
    "judgedBy" JSONB NOT NULL,
    "criteria" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "tokens" JSONB NOT NULL DEFAULT '[]',
    "judgedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OnlineJudgment_pkey" PRIMARY KEY ("traceId")
);

-- CreateTable
CREATE TABLE "OnlineLead" (
    "traceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "signals" TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OnlineLead_pkey" PRIMARY KEY ("traceId")
);

-- CreateTable
CREATE TABLE "OnlineAlertRule" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "signal" TEXT,
    "lastN" INTEGER,
    "percent" DOUBLE PRECISION,
    "minCount" INTEGER,
    "windowMinutes" INTEGER,
    "cooldownMinutes" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "lastFiredAt" TIMESTAMP(3),
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OnlineAlertRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OnlineAlert" (
    "id" TEXT NOT NULL,
    "ruleId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "figures" JSONB NOT NULL,
    "firedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "acknowledgedAt" TIMESTAMP(3),
    "acknowledgedById" TEXT,

    CONSTRAINT "OnlineAlert_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OnlineJudgment_agentId_judgedAt_idx" ON "OnlineJudgment"("agentId", "judgedAt");

-- CreateIndex
CREATE INDEX "OnlineLead_agentId_createdAt_idx" ON "OnlineLead"("agentId", "createdAt");

-- CreateIndex
CREATE INDEX "OnlineAlertRule_agentId_idx" ON "OnlineAlertRule"("agentId");

-- CreateIndex
CREATE INDEX "OnlineAlert_agentId_firedAt_idx" ON "OnlineAlert"("agentId", "firedAt");

-- AddForeignKey
ALTER TABLE "OnlineAlert" ADD CONSTRAINT "OnlineAlert_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "OnlineAlertRule"("id") ON DELETE CASCADE ON UPDATE CASCADE;
