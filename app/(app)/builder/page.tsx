import type { Metadata } from "next";
import { AgentList } from "@/components/builder/agent-list";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/server/auth/page-guard";

export const metadata: Metadata = { title: "Agents" };

export default async function BuilderPage() {
  const { principal } = await requireUser("builder.read");
  return (
    <>
      <PageHeader title="Agents" description="Workflows you build here are validated, versioned and ready to evaluate." />
      <div className="p-8">
        <AgentList canWrite={principal.role === "admin" || principal.role === "builder"} />
      </div>
    </>
  );
}
