-- AlterEnum
ALTER TYPE "BadCaseStatus" ADD VALUE 'verified';

-- AlterTable
ALTER TABLE "BadCase" ADD COLUMN     "verifiedRunId" TEXT;

-- CreateTable
CREATE TABLE "BadCaseEvent" (
    "id" TEXT NOT NULL,
    "badCaseId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "fromStatus" TEXT,
    "toStatus" TEXT NOT NULL,
    "runId" TEXT,
    "byId" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BadCaseEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BadCaseEvent_badCaseId_at_idx" ON "BadCaseEvent"("badCaseId", "at");

-- AddForeignKey
ALTER TABLE "BadCaseEvent" ADD CONSTRAINT "BadCaseEvent_badCaseId_fkey" FOREIGN KEY ("badCaseId") REFERENCES "BadCase"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: every existing Bad Case gets its "created" event, and one status event when it has moved since.
INSERT INTO "BadCaseEvent" ("id", "badCaseId", "kind", "fromStatus", "toStatus", "runId", "byId", "at")
SELECT 'c' || md5('created' || "id"), "id", 'created', NULL, 'open', "runId", "createdById", "createdAt" FROM "BadCase";
INSERT INTO "BadCaseEvent" ("id", "badCaseId", "kind", "fromStatus", "toStatus", "runId", "byId", "at")
SELECT 'c' || md5('status' || "id"), "id", 'status', 'open', "status"::text, NULL, NULL, "updatedAt" FROM "BadCase" WHERE "status" <> 'open';
