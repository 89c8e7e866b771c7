import type { Metadata } from "next";
import { Suspense } from "react";
import { EvalCenter } from "@/components/eval/eval-center";
import { requireUser } from "@/server/auth/page-guard";
import { can } from "@/server/auth/roles";

export const metadata: Metadata = { title: "Evaluation" };

/** /eval: the evaluation center. Every view lives in the query string (components/eval/url-state.ts). */
export default async function EvalPage() {
  const { principal } = await requireUser("eval.read");
  const caps = {
    annotate: can(principal.role, "eval.annotate"),
    manage: can(principal.role, "eval.manage"),
    adjudicate: can(principal.role, "eval.adjudicate"),
    publish: can(principal.role, "builder.write"),
  };
  return (
    <Suspense>
      <EvalCenter caps={caps} role={principal.role} />
    </Suspense>
  );
}
