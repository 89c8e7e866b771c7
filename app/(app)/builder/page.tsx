import type { Metadata } from "next";
import { AgentList } from "@/components/builder/agent-list";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/server/auth/page-guard";
import { can } from "@/server/auth/roles";

export const metadata: Metadata = { title: "Agents" };

export default async function BuilderPage() {
  const { principal } = await requireUser("builder.read");
  return (
    <>
      <PageHeader
        title="Agents"
        description="Build agents as workflows on the canvas; every version is validated and immutable."
      />
      <div className="mx-auto max-w-6xl p-8">
        <AgentList canWrite={can(principal.role, "builder.write")} />
      </div>
    </>
  );
}
