"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { FormDialog } from "@/components/ui/form-dialog";
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
 * Verifying is one button that says what it rests on ("Verify: passed in R-KC3Q5 by Ana"): the newest later run answered
 * in the platform by a newer agent version than the case was found with, with a pass for the question (the server
 * checks the same rule). Without one it says what is missing, and why the latest re-run does not count (pasted answers,
 * the same version); managers may verify with a reason instead, kept in the history.
 */
export function Verify({ badCase: b }: { badCase: BadCaseDetail }) {
  const { caps, role } = useCaps();
  const update = useUpdateBadCase({ success: () => "Bad Case verified", failure: "Not verified", all: true });
  if (b.status === "verified") {
    const by = [...b.history].reverse().find((h) => h.toStatus === "verified");
    return (
      <div className="rounded-lg bg-emerald-50 p-2 text-emerald-900 ring-1 ring-emerald-200">
        <p>
          {by?.runShortId || !b.verifiedReason
            ? `Verified${by?.runShortId ? `: passed in ${by.runShortId}` : ""}${by?.byLabel ? `, verified by ${by.byLabel}` : ""}.`
            : `Verified by ${by?.byLabel ?? "a manager"} with a reason (no qualifying run).`}
        </p>
        {b.verifiedReason && <p className="mt-1 whitespace-pre-wrap">Reason: {b.verifiedReason}</p>}
      </div>
    );
  }
  const e = b.verifiableBy;
  if (!e)
    return (
      <div className="space-y-2">
        <p className="rounded-lg border border-dashed border-slate-300 p-2 text-slate-600">
          Not verifiable yet: {whyNot(b)}
        </p>
        <VerifyWithReason badCase={b} />
      </div>
    );
  const basis = `passed in ${e.runShortId}${e.byLabel ? ` by ${e.byLabel}` : ""}${e.verdictSource === "adopted" ? " (adopted)" : ""}`;
  return (
    <Button
      className="w-full"
      disabled={!caps.annotate || update.isPending}
      title={
        caps.annotate
          ? `Set the status to verified: ${basis} (v${e.agentVersion}, answered in the platform)`
          : deniedReason(role, "annotate")
      }
      onClick={() => update.mutate({ id: b.id, body: { status: "verified" } })}
    >
      Verify: {basis}
    </Button>
  );
}

/** What verifying lacks, in words: the rule, and why the latest re-run's pass (if any) does not count. */
function whyNot(b: BadCaseDetail): string {
  const need = `no later run of ${b.setName} answered in the platform by an agent version newer than v${b.foundInVersion} has a pass for ${b.sampleKey}.`;
  const later = b.latestRun;
  if (later?.verdict !== "pass" || !later.notEvidence) return need;
  const reason =
    later.notEvidence === "pasted"
      ? "its answers were pasted, not answered by the agent"
      : `it ran v${later.agentVersion}, not a version newer than v${b.foundInVersion} (the one the Bad Case was found with)`;
  return `the pass in ${later.runShortId} does not count: ${reason}. ${need[0]!.toUpperCase()}${need.slice(1)}`;
}

/**
 * "Verify with a reason…": a manager's (eval.manage) verification without a qualifying run, for a fix no re-run can show
 * (the data was corrected upstream, the question was withdrawn); the reason is required and kept in the history.
 */
function VerifyWithReason({ badCase: b }: { badCase: BadCaseDetail }) {
  const { caps, role } = useCaps();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [tried, setTried] = useState(false);
  const update = useUpdateBadCase({
    success: () => "Bad Case verified with a reason",
    failure: "Not verified",
    all: true,
    onDone: () => setOpen(false),
  });
  const close = () => {
    setOpen(false);
    setTried(false);
  };
  return (
    <>
      <Button
        variant="secondary"
        className="w-full"
        disabled={!caps.manage}
        title={
          caps.manage
            ? "Verify without a qualifying run: say why; the reason and your name are kept in the history"
            : deniedReason(role, "manage")
        }
        onClick={() => {
          setReason("");
          setTried(false);
          setOpen(true);
        }}
      >
        Verify with a reason…
      </Button>
      <FormDialog
        open={open}
        onClose={close}
        title="Verify with a reason"
        description={`No platform run of a version newer than v${b.foundInVersion} passed ${b.sampleKey}. Say why the Bad Case is fixed anyway; the reason, your name and the time are kept in its history.`}
        initialFocus="textarea"
        submitLabel="Verify"
        pendingLabel="Verifying…"
        pending={update.isPending}
        onSubmit={() => {
          setTried(true);
          if (reason.trim()) update.mutate({ id: b.id, body: { status: "verified", reason: reason.trim() } });
        }}
      >
        <Field
          label="Reason"
          hint="Required. Ctrl+Enter verifies."
          error={tried && !reason.trim() ? "Say why it is verified without a re-run" : undefined}
        >
          <textarea
            className={inputClass}
            rows={3}
            maxLength={4000}
            aria-required
            value={reason}
            onChange={(ev) => setReason(ev.target.value)}
          />
        </Field>
      </FormDialog>
    </>
  );
}
