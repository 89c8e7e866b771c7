-- A Bad Case verified by a manager's reason instead of a qualifying run (issue 28, item 6). The version a Bad Case was
-- found with needs no column: it is its run's snapshotted workflow version (EvalRun.workflowVersionId, immutable).
-- AlterTable
ALTER TABLE "BadCase" ADD COLUMN     "verifiedReason" TEXT;

-- AlterTable
ALTER TABLE "BadCaseEvent" ADD COLUMN     "reason" TEXT;
