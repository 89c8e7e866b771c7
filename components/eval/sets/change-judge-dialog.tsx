"use client";

import { useCallback, useEffect, useState } from "react";
import { FormDialog } from "@/components/ui/form-dialog";
import { Field, inputClass } from "@/components/ui/field";
import { LoadingRows } from "@/components/ui/feedback";
import { Progress } from "@/components/ui/progress";
import { useMutationToast } from "../hooks/use-mutation-toast";
import { CompareTable, RefusalFigures } from "./judge-figures";
import { useJudgeCalibration } from "./use-judge-calibration";
import { useJudgeChoices } from "./use-judge-choices";
import { useJudgeSwitch } from "./use-judge-switch";

/**
 * "Change judge…": choose a judge, see it against the current judge on the set's human-typed verdicts, then confirm.
 * The server decides (`eval.sets.update`): at once when the candidate has suggestions there (or is the built-in
 * judge), else through the comparison job whose progress shows here; a refusal (JUDGE_AGREEMENT_DROP) shows its
 * figures and offers "Switch anyway" with a reason, which the set's judge history keeps.
 */
export function ChangeJudgeDialog({
  open,
  onClose,
  setId,
  currentKey,
  currentLabel,
  onSwitched,
}: {
  open: boolean;
  onClose: () => void;
  setId: string;
  currentKey: string;
  currentLabel: string;
  onSwitched: () => void;
}) {
  const { ok, refresh } = useMutationToast();
  const { choices, loading } = useJudgeChoices(open);
  const [key, setKey] = useState("");
  const [reason, setReason] = useState("");
  const candidate = choices.find((c) => c.key === key) ?? null;
  const done = useCallback(() => {
    ok("Judge switched", `${candidate?.label ?? "The new judge"} makes the suggestions of runs created from now on.`);
    void refresh();
    onSwitched();
    onClose();
  }, [ok, refresh, onSwitched, onClose, candidate?.label]);
  const sw = useJudgeSwitch(setId, done);
  const cmp = useJudgeCalibration(setId, key || null, open && Boolean(key) && key !== currentKey);
  const { reset } = sw;
  useEffect(() => {
    if (!open) {
      setKey("");
      setReason("");
      reset();
    }
  }, [open, reset]);

  const phase = sw.phase;
  const candidateFigures = cmp.data?.judges.find((j) => j.judge.key === key) ?? null;
  const currentFigures = cmp.data?.judges.find((j) => j.judge.key === currentKey) ?? null;
  const label = candidate?.label ?? key;

  if (phase.kind === "job")
    return (
      <FormDialog
        open={open}
        onClose={onClose}
        title="Comparing the judges"
        readOnly
        submitLabel="Switch judge"
        cancelLabel="Close"
        onSubmit={() => undefined}
      >
        <div className="space-y-3 text-sm text-slate-700">
          <p>
            {label} is judging this set&apos;s human-typed items. The switch is decided when every item is judged: it
            happens only if {label} agrees with people about as well as {currentLabel}. You can close this window; the
            comparison goes on.
          </p>
          {sw.job ? (
            <Progress value={sw.job.progress.done} max={sw.job.progress.total} label="Items judged by the candidate" />
          ) : (
            <LoadingRows rows={1} label="Starting the comparison" />
          )}
        </div>
      </FormDialog>
    );

  if (phase.kind === "refused")
    return (
      <FormDialog
        open={open}
        onClose={onClose}
        title="The switch was refused"
        description={`${label} agrees less with people than ${currentLabel} on this set.`}
        size="lg"
        submitLabel="Switch anyway"
        pendingLabel="Switching…"
        submitVariant="dangerSolid"
        canSubmit={reason.trim().length > 0 && candidate !== null}
        pending={sw.pending}
        onSubmit={() => candidate && void sw.submit(candidate.spec, { reason: reason.trim() })}
      >
        <div className="space-y-4">
          {/* the server's message is written for API callers ("send force: true"); the figures say it to people */}
          <p className="text-sm text-slate-700" role="alert">
            {phase.figures
              ? "It agrees less with the people's typed verdicts than the current judge. To switch anyway, say why: the set's judge history keeps your reason with these figures."
              : phase.message}
          </p>
          {phase.figures && <RefusalFigures figures={phase.figures} />}
          <Field label="Why switch anyway?" hint="Required. The set's judge history keeps it with the figures.">
            <textarea
              className={inputClass}
              rows={3}
              value={reason}
              maxLength={2000}
              onChange={(e) => setReason(e.target.value)}
            />
          </Field>
        </div>
      </FormDialog>
    );

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="Change the set's judge"
      description="Compare a judge with the current one on the typed verdicts of this set before switching."
      size="lg"
      submitLabel={phase.kind === "failed" ? "Try again" : "Switch judge"}
      pendingLabel="Switching…"
      canSubmit={candidate !== null && key !== currentKey}
      pending={sw.pending}
      onSubmit={() => candidate && void sw.submit(candidate.spec)}
    >
      <div className="space-y-4">
        <Field
          label="New judge"
          hint={loading ? "Loading the judge agents…" : "Judge agents are pinned to a version, like a frozen set."}
        >
          <select className={inputClass} value={key} onChange={(e) => setKey(e.target.value)}>
            <option value="">Choose a judge…</option>
            {choices.map((c) => (
              <option key={c.key} value={c.key} disabled={c.key === currentKey}>
                {c.label}
                {c.key === currentKey ? " (current)" : ""}
              </option>
            ))}
          </select>
        </Field>
        {phase.kind === "failed" && (
          <p className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-200" role="alert">
            {phase.message}
          </p>
        )}
        {candidate && key !== currentKey && (
          <section aria-label="Comparison" className="space-y-3">
            {cmp.error ? (
              <p className="text-sm text-red-700" role="alert">
                The comparison could not be read: {cmp.error.message}
              </p>
            ) : !cmp.data ? (
              <LoadingRows rows={3} label="Loading the comparison" />
            ) : cmp.data.humanTyped === 0 ? (
              <p className="text-sm text-slate-700">
                This set has no human-typed verdicts yet, so there is nothing to compare: the switch happens at once.
              </p>
            ) : (
              <>
                <CompareTable
                  current={currentFigures}
                  candidate={candidateFigures}
                  currentLabel={currentLabel}
                  candidateLabel={label}
                />
                {!candidateFigures && (
                  <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200">
                    {label} has not judged this set&apos;s {cmp.data.humanTyped} human-typed items yet. Switching first
                    has it judge them{key === "builtin" ? "" : " (a comparison job; its progress shows here)"}, then
                    switches only if its κ and fail recall are no more than 0.05 below the current judge&apos;s.
                  </p>
                )}
                {cmp.data.humanTyped < 20 && (
                  <p className="text-sm text-amber-800">
                    Too few verdicts to judge the judge ({cmp.data.humanTyped} of 20): no switch is refused on these
                    figures.
                  </p>
                )}
              </>
            )}
          </section>
        )}
      </div>
    </FormDialog>
  );
}
