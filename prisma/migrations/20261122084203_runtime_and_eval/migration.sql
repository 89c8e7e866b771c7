-- CreateEnum
CREATE TYPE "ExecutionMode" AS ENUM ('pipeline_live', 'pipeline', 'invoke');

-- CreateEnum
CREATE TYPE "TraceStatus" AS ENUM ('running', 'succeeded', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "EvalSetKind" AS ENUM ('golden', 'regression_pool');

-- CreateEnum
CREATE TYPE "EvalSetVersionStatus" AS ENUM ('draft', 'frozen');

-- CreateEnum
CREATE TYPE "EvalRunMode" AS ENUM ('in_platform', 'pasted');

-- CreateEnum
CREATE TYPE "EvalRunStatus" AS ENUM ('created', 'answering', 'awaiting_review', 'completed', 'cancelled', 'failed');

-- CreateEnum
CREATE TYPE "EvalItemStatus" AS ENUM ('pending', 'answering', 'answered', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "Verdict" AS ENUM ('pass', 'fail');

-- CreateEnum
CREATE TYPE "BadCaseStatus" AS ENUM ('open', 'fixing', 'fixed', 'wont_fix');

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "publishedVersion" INTEGER;

-- CreateTable
CREATE TABLE "Trace" (
    "id" TEXT NOT NULL,
    "agentId" TEXT,
    "workflowVersionId" TEXT,
    "source" TEXT NOT NULL,
    "mode" "ExecutionMode" NOT NULL,
    "status" "TraceStatus" NOT NULL DEFAULT 'running',
    "sessionId" TEXT,
    "input" JSONB NOT NULL,
    "answer" TEXT,
    "payload" JSONB,
    "steps" JSONB NOT NULL DEFAULT '[]',
    "error" JSONB,
    "cache" TEXT NOT NULL DEFAULT 'bypass',
    "llmProvider" TEXT,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "durationMs" INTEGER,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "createdById" TEXT,

    CONSTRAINT "Trace_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TraceFeedback" (
    "id" TEXT NOT NULL,
    "traceId" TEXT NOT NULL,
    "score" INTEGER NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TraceFeedback_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentMemory" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "memoryType" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AgentMemory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChatCacheEntry" (
    "id" TEXT NOT NULL,
    "workflowVersionId" TEXT NOT NULL,
    "questionHash" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "payload" JSONB,
    "traceId" TEXT NOT NULL,
    "hits" INTEGER NOT NULL DEFAULT 0,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChatCacheEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EvalSet" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "kind" "EvalSetKind" NOT NULL,
    "gateThreshold" INTEGER NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "EvalSet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EvalSetVersion" (
    "id" TEXT NOT NULL,
    "setId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "status" "EvalSetVersionStatus" NOT NULL DEFAULT 'draft',
    "note" TEXT NOT NULL DEFAULT '',
    "frozenAt" TIMESTAMP(3),
    "frozenById" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EvalSetVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EvalSample" (
    "id" TEXT NOT NULL,
    "setVersionId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "question" TEXT NOT NULL,
    "expectedPoints" JSONB NOT NULL DEFAULT '[]',
    "classification" TEXT NOT NULL DEFAULT '',
    "script" JSONB,
    "assertions" JSONB,
    "sourceTraceId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EvalSample_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EvalRun" (
    "id" TEXT NOT NULL,
    "shortId" TEXT NOT NULL,
    "setVersionId" TEXT NOT NULL,
    "workflowVersionId" TEXT NOT NULL,
    "mode" "EvalRunMode" NOT NULL,
    "tier" "ExecutionMode" NOT NULL,
    "environment" TEXT NOT NULL DEFAULT '',
    "status" "EvalRunStatus" NOT NULL DEFAULT 'created',
    "concurrency" INTEGER NOT NULL DEFAULT 4,
    "rerunOfId" TEXT,
    "error" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "answeredAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "EvalRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EvalRunItem" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "sampleId" TEXT NOT NULL,
    "status" "EvalItemStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "answer" TEXT,
    "payload" JSONB,
    "traceId" TEXT,
    "latencyMs" INTEGER,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "answeredAt" TIMESTAMP(3),
    "suggestion" JSONB,
    "suggestedAt" TIMESTAMP(3),
    "judgeTokens" INTEGER NOT NULL DEFAULT 0,
    "verdict" "Verdict",
    "verdictSource" TEXT,
    "verdictBasis" TEXT,
    "attribution" TEXT,
    "classification" TEXT,
    "verdictById" TEXT,
    "verdictAt" TIMESTAMP(3),

    CONSTRAINT "EvalRunItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VerdictChange" (
    "id" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB NOT NULL,
    "byId" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "VerdictChange_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BadCase" (
    "id" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "sampleId" TEXT NOT NULL,
    "status" "BadCaseStatus" NOT NULL DEFAULT 'open',
    "title" TEXT NOT NULL,
    "notes" TEXT NOT NULL DEFAULT '',
    "attribution" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BadCase_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Trace_agentId_startedAt_idx" ON "Trace"("agentId", "startedAt");

-- CreateIndex
CREATE INDEX "Trace_source_startedAt_idx" ON "Trace"("source", "startedAt");

-- CreateIndex
CREATE INDEX "TraceFeedback_traceId_idx" ON "TraceFeedback"("traceId");

-- CreateIndex
CREATE INDEX "TraceFeedback_score_createdAt_idx" ON "TraceFeedback"("score", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "AgentMemory_agentId_memoryType_key_key" ON "AgentMemory"("agentId", "memoryType", "key");

-- CreateIndex
CREATE INDEX "ChatCacheEntry_expiresAt_idx" ON "ChatCacheEntry"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "ChatCacheEntry_workflowVersionId_questionHash_key" ON "ChatCacheEntry"("workflowVersionId", "questionHash");

-- CreateIndex
CREATE INDEX "EvalSet_agentId_idx" ON "EvalSet"("agentId");

-- CreateIndex
CREATE UNIQUE INDEX "EvalSetVersion_setId_version_key" ON "EvalSetVersion"("setId", "version");

-- CreateIndex
CREATE INDEX "EvalSample_setVersionId_position_idx" ON "EvalSample"("setVersionId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "EvalSample_setVersionId_key_key" ON "EvalSample"("setVersionId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "EvalSample_setVersionId_sourceTraceId_key" ON "EvalSample"("setVersionId", "sourceTraceId");

-- CreateIndex
CREATE UNIQUE INDEX "EvalRun_shortId_key" ON "EvalRun"("shortId");

-- CreateIndex
CREATE INDEX "EvalRun_setVersionId_idx" ON "EvalRun"("setVersionId");

-- CreateIndex
CREATE INDEX "EvalRunItem_runId_status_idx" ON "EvalRunItem"("runId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "EvalRunItem_runId_sampleId_key" ON "EvalRunItem"("runId", "sampleId");

-- CreateIndex
CREATE INDEX "VerdictChange_itemId_idx" ON "VerdictChange"("itemId");

-- CreateIndex
CREATE UNIQUE INDEX "BadCase_itemId_key" ON "BadCase"("itemId");

-- CreateIndex
CREATE INDEX "BadCase_status_idx" ON "BadCase"("status");

-- AddForeignKey
ALTER TABLE "Trace" ADD CONSTRAINT "Trace_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Trace" ADD CONSTRAINT "Trace_workflowVersionId_fkey" FOREIGN KEY ("workflowVersionId") REFERENCES "WorkflowVersion"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TraceFeedback" ADD CONSTRAINT "TraceFeedback_traceId_fkey" FOREIGN KEY ("traceId") REFERENCES "Trace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentMemory" ADD CONSTRAINT "AgentMemory_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalSet" ADD CONSTRAINT "EvalSet_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalSetVersion" ADD CONSTRAINT "EvalSetVersion_setId_fkey" FOREIGN KEY ("setId") REFERENCES "EvalSet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalSample" ADD CONSTRAINT "EvalSample_setVersionId_fkey" FOREIGN KEY ("setVersionId") REFERENCES "EvalSetVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalRun" ADD CONSTRAINT "EvalRun_setVersionId_fkey" FOREIGN KEY ("setVersionId") REFERENCES "EvalSetVersion"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalRun" ADD CONSTRAINT "EvalRun_workflowVersionId_fkey" FOREIGN KEY ("workflowVersionId") REFERENCES "WorkflowVersion"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalRunItem" ADD CONSTRAINT "EvalRunItem_runId_fkey" FOREIGN KEY ("runId") REFERENCES "EvalRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalRunItem" ADD CONSTRAINT "EvalRunItem_sampleId_fkey" FOREIGN KEY ("sampleId") REFERENCES "EvalSample"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VerdictChange" ADD CONSTRAINT "VerdictChange_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "EvalRunItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BadCase" ADD CONSTRAINT "BadCase_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "EvalRunItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BadCase" ADD CONSTRAINT "BadCase_runId_fkey" FOREIGN KEY ("runId") REFERENCES "EvalRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Frozen evaluation set versions are immutable in the database itself, not only in the service:
-- a frozen version row cannot change (not even back to draft), and its samples cannot be added, changed or
-- removed. Deleting a whole set (cascade) is allowed only inside a transaction that sets
-- `SET LOCAL flowbench.allow_frozen_delete = 'on'`.
CREATE FUNCTION "eval_set_version_frozen_guard"() RETURNS trigger AS $$
BEGIN
  IF OLD."status" = 'frozen' THEN
    IF TG_OP = 'DELETE' AND current_setting('flowbench.allow_frozen_delete', true) = 'on' THEN
      RETURN OLD;
    END IF;
    RAISE EXCEPTION 'evaluation set version % is frozen and immutable', OLD."id"
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "EvalSetVersion_frozen" BEFORE UPDATE OR DELETE ON "EvalSetVersion"
  FOR EACH ROW EXECUTE FUNCTION "eval_set_version_frozen_guard"();

CREATE FUNCTION "eval_sample_frozen_guard"() RETURNS trigger AS $$
DECLARE
  version_status "EvalSetVersionStatus";
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('flowbench.allow_frozen_delete', true) = 'on' THEN
    RETURN OLD;
  END IF;
  SELECT "status" INTO version_status FROM "EvalSetVersion"
    WHERE "id" = (CASE WHEN TG_OP = 'DELETE' THEN OLD."setVersionId" ELSE NEW."setVersionId" END);
  IF version_status = 'frozen' OR (TG_OP = 'UPDATE' AND EXISTS (
      SELECT 1 FROM "EvalSetVersion" WHERE "id" = OLD."setVersionId" AND "status" = 'frozen')) THEN
    RAISE EXCEPTION 'samples of a frozen evaluation set version cannot be changed; create a new version'
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "EvalSample_frozen" BEFORE INSERT OR UPDATE OR DELETE ON "EvalSample"
  FOR EACH ROW EXECUTE FUNCTION "eval_sample_frozen_guard"();
