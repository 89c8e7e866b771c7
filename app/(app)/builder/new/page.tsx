import type { Metadata } from "next";
import { Suspense } from "react";
import { NewAgentEditorLoader } from "@/components/builder/editor-loaders";
import { requireUser } from "@/server/auth/page-guard";
import { can } from "@/server/auth/roles";

export const metadata: Metadata = { title: "New agent" };

export default async function NewAgentPage() {
  const { principal } = await requireUser("builder.read");
  return (
    <Suspense>
      <NewAgentEditorLoader canWrite={can(principal.role, "builder.write")} />
    </Suspense>
  );
}
