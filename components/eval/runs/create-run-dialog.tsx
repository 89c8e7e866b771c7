"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { useVocabulary } from "../hooks/use-vocabulary";
import { ChoiceCards } from "@/components/ui/choice-cards";
import { FormDialog } from "@/components/ui/form-dialog";
import { Field, inputClass } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { EvalLink, useEvalUrl } from "../context";
import { words } from "../format";
import { useCreateAndStart } from "./use-create-and-start";

type Tier = "pipeline_live" | "pipeline" | "invoke";

/**
 * A new run: a FROZEN set version only (spec 3.1: drafts are not offered), the mode, the tier with its meaning, the
 * environment label, the agent version (default latest), the concurrency and the answers per question (repeats). A golden-set run that is not
 * pipeline_live is warned about: gate runs need the live chain.
 */
export function CreateRunDialog({
  open,
  onClose,
  agentId,
  presetVersionId,
}: {
  open: boolean;
  onClose: () => void;
  agentId: string;
  presetVersionId?: string;
}) {
  const trpc = useTRPC();
  const toast = useToast();
  const [, go] = useEvalUrl();
  const sets = useQuery({ ...trpc.eval.sets.list.queryOptions({ agentId, limit: 200 }), enabled: open });
  const details = useQueries({
    queries: (sets.data?.items ?? []).map((s) => ({ ...trpc.eval.sets.get.queryOptions({ id: s.id }), enabled: open })),
  });
  const meta = useVocabulary({ enabled: open });
  const versions = useQuery({
    ...trpc.builder.versions.list.queryOptions({ id: agentId }),
    enabled: open,
    select: (d) => d.items,
  });

  const frozen = useMemo(
    () =>
      details
        .flatMap((d) =>
          d.data
            ? d.data.versions
                .filter((v) => v.status === "frozen")
                .map((v) => ({ ...v, setName: d.data!.name, kind: d.data!.kind, threshold: d.data!.gateThreshold }))
            : [],
        )
        .sort((a, b) => a.setName.localeCompare(b.setName) || b.version - a.version),
    [details],
  );
  const [versionId, setVersionId] = useState("");
  const [mode, setMode] = useState<"in_platform" | "pasted">("in_platform");
  const [tier, setTier] = useState<Tier>("pipeline_live");
  const [environment, setEnvironment] = useState("");
  const [agentVersion, setAgentVersion] = useState("");
  const [concurrency, setConcurrency] = useState("4");
  const [repeats, setRepeats] = useState("1");
  const [startNow, setStartNow] = useState(true);
  const [error, setError] = useState<string | null>(null);
  /** the run was created but answering did not start: it exists, so say so and lead to it */
  const [notStarted, setNotStarted] = useState<{ shortId: string; message: string } | null>(null);
  useEffect(() => {
    if (open) {
      setError(null);
      setNotStarted(null);
      setVersionId(presetVersionId ?? "");
    }
  }, [open, presetVersionId]);
  useEffect(() => {
    if (open && !versionId && frozen[0]) setVersionId(frozen[0].id);
  }, [open, versionId, frozen]);
  const chosen = frozen.find((v) => v.id === versionId);

  const runs = useCreateAndStart();
  const n = Number(concurrency);
  const r = Number(repeats);
  const maxRepeats = meta.data?.limits.maxRepeats ?? 5;
  const valid =
    !!versionId &&
    Number.isInteger(n) &&
    n >= 1 &&
    n <= (meta.data?.limits.maxConcurrency ?? 32) &&
    (mode === "pasted" || (Number.isInteger(r) && r >= 1 && r <= maxRepeats));
  const submit = async () => {
    const starting = startNow && mode === "in_platform";
    const input = {
      setVersionId: versionId,
      mode,
      tier,
      environment: environment.trim(),
      concurrency: n,
      ...(mode === "in_platform" ? { repeats: r } : {}),
      ...(agentVersion ? { agentVersion: Number(agentVersion) } : {}),
    };
    const out = await runs.createAndStart(input, { start: starting });
    if (!out.ok) {
      // a run that exists but is not answering is said in the dialog, with a link to it (the hook's toast says it too)
      if (out.step === "start") setNotStarted({ shortId: out.run.shortId, message: out.message });
      else setError(out.message);
      return;
    }
    toast({
      tone: "success",
      title: `Run ${out.run.shortId} created`,
      description: starting
        ? "Answering has started."
        : mode === "pasted"
          ? "Upload the answers on the run page."
          : "Start it when you are ready.",
    });
    onClose();
    go({ tab: "runs", run: out.run.shortId });
  };
  const loading = sets.isLoading || details.some((d) => d.isLoading);
  const openRun = () => {
    if (!notStarted) return;
    onClose();
    go({ tab: "runs", run: notStarted.shortId });
  };

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      size="lg"
      title="New run"
      description="A run answers every question of a frozen set version with the agent, then people judge the answers."
      cancelLabel={notStarted ? "Close" : "Cancel"}
      submitLabel={
        notStarted
          ? `Open run ${notStarted.shortId}`
          : startNow && mode === "in_platform"
            ? "Create and start"
            : "Create run"
      }
      pendingLabel="Creating…"
      canSubmit={!!notStarted || valid}
      pending={!notStarted && runs.isPending}
      onSubmit={notStarted ? openRun : submit}
    >
      {notStarted ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
          <p className="font-semibold">
            Run{" "}
            <EvalLink to={{ tab: "runs", run: notStarted.shortId }} onClick={onClose} className="font-mono underline">
              {notStarted.shortId}
            </EvalLink>{" "}
            was created, but answering did not start.
          </p>
          <p className="mt-1 text-red-800">{notStarted.message}</p>
          <p className="mt-2 text-red-800">
            The run is kept with its questions. Open it and press Start once the cause is fixed, or cancel it there.
          </p>
        </div>
      ) : (
        <div className="space-y-4">
          <Field
            label="Set version"
            hint="Only frozen versions are listed: a run needs questions that cannot change underneath it."
          >
            <select
              className={inputClass}
              value={versionId}
              onChange={(e) => setVersionId(e.target.value)}
              disabled={loading || frozen.length === 0}
            >
              {loading && <option value="">Loading…</option>}
              {!loading && frozen.length === 0 && (
                <option value="">No frozen version yet: freeze one under Evaluation sets</option>
              )}
              {frozen.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.setName} · v{v.version} · {v.sampleCount} questions
                  {v.kind === "golden" ? ` · gate ${v.threshold}` : " · regression pool"}
                </option>
              ))}
            </select>
          </Field>

          <ChoiceCards
            legend="Mode"
            name="mode"
            value={mode}
            onChange={setMode}
            options={[
              {
                value: "in_platform",
                label: "Answer in the platform",
                description: "The agent answers every question now, through the queue.",
              },
              {
                value: "pasted",
                label: "Pasted answers",
                description: "You upload answers produced elsewhere (file or paste).",
              },
            ]}
          />

          <div>
            <ChoiceCards
              legend="Chain tier"
              name="tier"
              columns={1}
              value={tier}
              onChange={setTier}
              options={(meta.data?.tiers ?? []).map((t) => ({
                value: t.tier,
                label: words(t.tier),
                description: t.meaning,
              }))}
            />
            {chosen?.kind === "golden" && tier !== "pipeline_live" && (
              <p
                role="alert"
                className="mt-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
              >
                This is a golden set: runs that decide a release need <strong>pipeline live</strong> (the full chain
                with real calls, built like online). A {words(tier)} run is fine for a quick look, not for the gate.
              </p>
            )}
          </div>

          <div className="grid gap-4 sm:grid-cols-3">
            <Field label="Environment" hint="A label, e.g. staging-2026-11">
              <input
                className={inputClass}
                value={environment}
                maxLength={120}
                onChange={(e) => setEnvironment(e.target.value)}
              />
            </Field>
            <Field label="Agent version" hint="Snapshotted by the run">
              <select className={inputClass} value={agentVersion} onChange={(e) => setAgentVersion(e.target.value)}>
                <option value="">Latest{versions.data?.[0] ? ` (v${versions.data[0].version})` : ""}</option>
                {versions.data?.map((v) => (
                  <option key={v.version} value={v.version}>
                    v{v.version}
                    {v.note ? ` · ${v.note.slice(0, 40)}` : ""}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Concurrency" hint="Questions answered at once">
              <input
                className={inputClass}
                type="number"
                min={1}
                max={meta.data?.limits.maxConcurrency ?? 32}
                value={concurrency}
                onChange={(e) => setConcurrency(e.target.value)}
                disabled={mode === "pasted"}
              />
            </Field>
          </div>
          {mode === "in_platform" && (
            <Field
              label="Answers per question"
              hint={`1-${maxRepeats}. People judge the first answer; the report lists questions whose machine suggestions differ between answers`}
            >
              <input
                className={`${inputClass} max-w-32`}
                type="number"
                min={1}
                max={maxRepeats}
                value={repeats}
                onChange={(e) => setRepeats(e.target.value)}
              />
            </Field>
          )}
          {mode === "in_platform" && (
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" checked={startNow} onChange={(e) => setStartNow(e.target.checked)} /> Start
              answering right away
            </label>
          )}
          {error && (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
        </div>
      )}
    </FormDialog>
  );
}
