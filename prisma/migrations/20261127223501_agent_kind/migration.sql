-- CreateEnum
CREATE TYPE "AgentKind" AS ENUM ('agent', 'judge');

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "kind" "AgentKind" NOT NULL DEFAULT 'agent';
