"use client";

import { useEvalUrl } from "../context";
import { BadCaseList } from "./bad-case-list";
import { BadCaseView } from "./bad-case-view";

/** Bad Cases across the agent's runs: filters, status changes, "a Bad Case for every fail" of a run, and each case's page. */
export function BadCasesTab({ agentId }: { agentId: string }) {
  const [url] = useEvalUrl();
  return url.case ? <BadCaseView id={url.case} /> : <BadCaseList agentId={agentId} />;
}
