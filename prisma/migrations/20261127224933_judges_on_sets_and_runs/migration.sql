-- AlterTable
ALTER TABLE "EvalRun" ADD COLUMN     "judge" JSONB;

-- AlterTable
ALTER TABLE "EvalRunItem" ADD COLUMN     "otherSuggestions" JSONB;

-- AlterTable
ALTER TABLE "EvalSet" ADD COLUMN     "judge" JSONB;
