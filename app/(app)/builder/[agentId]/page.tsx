import type { Metadata } from "next";
import { AgentEditorLoader } from "@/components/builder/editor-loaders";
import { requireUser } from "@/server/auth/page-guard";
import { can } from "@/server/auth/roles";

export const metadata: Metadata = { title: "Canvas" };

export default async function AgentCanvasPage({ params }: { params: Promise<{ agentId: string }> }) {
  const { principal } = await requireUser("builder.read");
  const { agentId } = await params;
  return <AgentEditorLoader agentId={agentId} canWrite={can(principal.role, "builder.write")} />;
}
