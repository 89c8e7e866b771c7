-- The gate threshold is snapshotted by each run (existing runs take their set's current threshold, the value their
-- gate used until now); verdict changes get a per-item version so the history is a complete chain.

-- DropIndex (replaced by the unique (itemId, version) index below)
DROP INDEX "VerdictChange_itemId_idx";

-- AlterTable
ALTER TABLE "EvalRun" ADD COLUMN     "gateThreshold" INTEGER;
UPDATE "EvalRun" AS r SET "gateThreshold" = s."gateThreshold"
  FROM "EvalSetVersion" AS v JOIN "EvalSet" AS s ON s."id" = v."setId"
  WHERE v."id" = r."setVersionId";
ALTER TABLE "EvalRun" ALTER COLUMN "gateThreshold" SET NOT NULL;

-- AlterTable
ALTER TABLE "VerdictChange" ADD COLUMN     "version" INTEGER;
UPDATE "VerdictChange" AS c SET "version" = n."version"
  FROM (SELECT "id", row_number() OVER (PARTITION BY "itemId" ORDER BY "at", "id") AS "version" FROM "VerdictChange") AS n
  WHERE n."id" = c."id";
ALTER TABLE "VerdictChange" ALTER COLUMN "version" SET NOT NULL;

-- AlterTable
ALTER TABLE "EvalRunItem" ADD COLUMN     "verdictVersion" INTEGER NOT NULL DEFAULT 0;
UPDATE "EvalRunItem" AS i SET "verdictVersion" = c."n"
  FROM (SELECT "itemId", count(*)::int AS "n" FROM "VerdictChange" GROUP BY "itemId") AS c
  WHERE c."itemId" = i."id";

-- CreateIndex
CREATE UNIQUE INDEX "VerdictChange_itemId_version_key" ON "VerdictChange"("itemId", "version");
