-- AlterEnum
ALTER TYPE "TraceStatus" ADD VALUE 'interrupted';
