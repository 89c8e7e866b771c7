"use client";

import { badgeClass } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { deniedReason, useCaps } from "../context";
import { BadCaseBadge, badCaseTone } from "../badges";
import type { BadCase } from "../types";
import { statusWords, useBadCaseStatuses, useUpdateBadCase } from "./use-bad-cases";

/** A Bad Case's status: a select in the status's colours for those who may change it, else the badge and why. */
export function StatusSelect({ badCase }: { badCase: BadCase }) {
  const { caps, role } = useCaps();
  const { statuses } = useBadCaseStatuses();
  const update = useUpdateBadCase({
    success: (b) => `Bad Case is ${statusWords(b.status)}`,
    failure: "Status not changed",
  });
  // one control, not a badge beside a select saying the same word: those who may change the status get the select
  // in the status's colours; the others see the badge, with the reason they cannot change it. "verified" is not an
  // option: it is the case page's Verify button, which says what it rests on (the run and who passed the question)
  if (!caps.annotate) {
    return (
      <span title={deniedReason(role, "annotate")}>
        <BadCaseBadge status={badCase.status} />
      </span>
    );
  }
  return (
    <select
      aria-label={`Change the status of ${badCase.title}`}
      className={cn(
        badgeClass({ tone: badCaseTone(badCase.status), size: "sm" }),
        "cursor-pointer border-0 py-0.5 pr-6 disabled:cursor-wait",
      )}
      value={badCase.status}
      disabled={update.isPending}
      onChange={(e) => update.mutate({ id: badCase.id, body: { status: e.target.value as BadCase["status"] } })}
    >
      {statuses
        .filter((s) => s !== "verified" || badCase.status === "verified")
        .map((s) => (
          <option key={s} value={s}>
            {statusWords(s)}
          </option>
        ))}
    </select>
  );
}
