"use client";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { deniedReason, useCaps } from "../context";
import { words } from "../format";
import type { BadCaseDetail } from "../types";
import { useUpdateBadCase } from "./use-bad-cases";

/** What a later run said of the question: its verdict and who gave it, or why there is none yet. */
export function LaterVerdict({ later }: { later: NonNullable<BadCaseDetail["latestRun"]> }) {
  if (later.verdict)
    return (
      <>
        <Badge tone={later.verdict === "pass" ? "success" : "danger"}>{later.verdict}</Badge>
        {later.byLabel && (
          <span className="text-slate-600">
            {" "}
            {later.verdictSource === "adopted" ? "adopted" : "judged"} by {later.byLabel}
          </span>
        )}
      </>
    );
  if (later.itemStatus === "answered" || later.itemStatus === "failed")
    return <span className="text-slate-600">answered, not judged yet</span>;
  return (
    <span className="text-slate-600">
      not answered yet (the run is {words(later.runStatus)}
      {later.itemStatus === "cancelled" ? ", the question was cancelled" : ""})
    </span>
  );
}

/**
 * Verifying is one button that says what it rests on ("Verify: passed in R-KC3Q5 by Ana"): the newest later run with a
 * pass for the question (the server checks the same rule). Without one it says what is missing.
 */
export function Verify({ badCase: b }: { badCase: BadCaseDetail }) {
  const { caps, role } = useCaps();
  const update = useUpdateBadCase({ success: () => "Bad Case verified", failure: "Not verified", all: true });
  if (b.status === "verified") {
    const by = [...b.history].reverse().find((h) => h.toStatus === "verified");
    return (
      <p className="rounded-lg bg-emerald-50 p-2 text-emerald-900 ring-1 ring-emerald-200">
        Verified{by?.runShortId ? `: passed in ${by.runShortId}` : ""}
        {by?.byLabel ? `, verified by ${by.byLabel}` : ""}.
      </p>
    );
  }
  const e = b.verifiableBy;
  if (!e)
    return (
      <p className="rounded-lg border border-dashed border-slate-300 p-2 text-slate-600">
        Not verifiable yet: no later run of {b.setName} has a pass for {b.sampleKey}.
      </p>
    );
  const basis = `passed in ${e.runShortId}${e.byLabel ? ` by ${e.byLabel}` : ""}${e.verdictSource === "adopted" ? " (adopted)" : ""}`;
  return (
    <Button
      className="w-full"
      disabled={!caps.annotate || update.isPending}
      title={caps.annotate ? `Set the status to verified: ${basis}` : deniedReason(role, "annotate")}
      onClick={() => update.mutate({ id: b.id, body: { status: "verified" } })}
    >
      Verify: {basis}
    </Button>
  );
}
