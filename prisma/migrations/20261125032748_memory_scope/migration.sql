-- DropIndex
DROP INDEX "AgentMemory_agentId_memoryType_key_key";

-- AlterTable
ALTER TABLE "AgentMemory" ADD COLUMN     "scope" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "AgentMemory_scope_idx" ON "AgentMemory"("scope");

-- CreateIndex
CREATE UNIQUE INDEX "AgentMemory_agentId_scope_memoryType_key_key" ON "AgentMemory"("agentId", "scope", "memoryType", "key");
