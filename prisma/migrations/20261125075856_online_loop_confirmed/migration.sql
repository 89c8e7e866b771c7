-- AlterTable
ALTER TABLE "EvalSample" ADD COLUMN     "addedById" TEXT,
ADD COLUMN     "confirmedAt" TIMESTAMP(3),
ADD COLUMN     "confirmedById" TEXT;
