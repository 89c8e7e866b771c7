-- AlterTable
ALTER TABLE "EvalRun" ADD COLUMN     "minReviewerKappa" DOUBLE PRECISION,
ADD COLUMN     "reviewsPerItem" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "EvalRunItem" ADD COLUMN     "adjudicatedAt" TIMESTAMP(3),
ADD COLUMN     "adjudicatedById" TEXT,
ADD COLUMN     "disputed" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "EvalSet" ADD COLUMN     "minReviewerKappa" DOUBLE PRECISION,
ADD COLUMN     "reviewsPerItem" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "EvalReview" (
    "id" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "verdict" "Verdict" NOT NULL,
    "source" TEXT NOT NULL,
    "basis" TEXT,
    "attribution" TEXT,
    "classification" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EvalReview_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "EvalReview_itemId_reviewerId_key" ON "EvalReview"("itemId", "reviewerId");

-- AddForeignKey
ALTER TABLE "EvalReview" ADD CONSTRAINT "EvalReview_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "EvalRunItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;
