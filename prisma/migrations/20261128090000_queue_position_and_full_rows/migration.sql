-- The claim's candidate read (runs/reservations.ts): rows known full are left out, and the queue's order is the
-- item's own column, read through an index instead of a join and a sort of the run's samples.

-- AlterTable
ALTER TABLE "EvalRunItem" ADD COLUMN     "fullUntil" BIGINT,
ADD COLUMN     "position" INTEGER NOT NULL DEFAULT 0;

-- each item takes its sample's place (a run's set version is frozen: its samples never move)
UPDATE "EvalRunItem" AS i SET "position" = s."position" FROM "EvalSample" AS s WHERE s."id" = i."sampleId";

ALTER TABLE "EvalRunItem" ALTER COLUMN "position" DROP DEFAULT;

-- CreateIndex
CREATE INDEX "EvalRunItem_runId_position_id_idx" ON "EvalRunItem"("runId", "position", "id");
