"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { useVocabulary } from "../hooks/use-vocabulary";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/dialog";
import { FormDialog } from "@/components/ui/form-dialog";
import { cn } from "@/components/ui/cn";
import { Field, inputClass } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { errorInfo, type EvalSample, type Vocabulary } from "../types";
import { useMutationToast } from "../hooks/use-mutation-toast";

type Turn = { role: "user" | "assistant" | "system"; content: string; preset: boolean };
type Assertion = { type: string } & Record<string, unknown>;

/** Add or edit a sample of a draft (question, expected points, scenario, multi-turn script, rule assertions); read-only when frozen. */
export function SampleDialog({
  open,
  onClose,
  setId,
  version,
  sample,
  readOnly,
}: {
  open: boolean;
  onClose: () => void;
  setId: string;
  version: number;
  sample: EvalSample | null;
  readOnly: boolean;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const { fail } = useMutationToast();
  const confirm = useConfirm();
  const meta = useVocabulary();
  const [key, setKey] = useState("");
  const [question, setQuestion] = useState("");
  const [points, setPoints] = useState<string[]>([""]);
  const [classification, setClassification] = useState("");
  const [script, setScript] = useState<Turn[] | null>(null);
  const [assertions, setAssertions] = useState<Assertion[]>([]);
  const [errors, setErrors] = useState<Array<{ path: string; message: string }>>([]);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setKey(sample?.key ?? "");
    setQuestion(sample?.question ?? "");
    setPoints(sample?.expectedPoints.length ? [...sample.expectedPoints] : [""]);
    setClassification(sample?.classification ?? "");
    setScript(sample?.script ? sample.script.map((t) => ({ ...t })) : null);
    setAssertions((sample?.assertions as Assertion[] | null)?.map((a) => ({ ...a })) ?? []);
    setErrors([]);
    setMessage(null);
  }, [open, sample]);

  const refresh = () => qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
  const onError = (e: unknown) => {
    const info = errorInfo(e);
    setMessage(info.message);
    setErrors(
      (info.details as Array<{ path?: string; message?: string }>).map((d) => ({
        path: String(d.path ?? ""),
        message: String(d.message ?? ""),
      })),
    );
  };
  const add = useMutation(
    trpc.eval.samples.add.mutationOptions({
      onSuccess: async (s) => (toast({ tone: "success", title: `Sample ${s.key} added` }), await refresh(), onClose()),
      onError,
    }),
  );
  const update = useMutation(
    trpc.eval.samples.update.mutationOptions({
      onSuccess: async (s) => (toast({ tone: "success", title: `Sample ${s.key} saved` }), await refresh(), onClose()),
      onError,
    }),
  );
  const del = useMutation(
    trpc.eval.samples.delete.mutationOptions({
      onSuccess: async () => (toast({ tone: "success", title: "Sample removed" }), await refresh(), onClose()),
      onError: fail("Not removed"),
    }),
  );

  const body = {
    ...(key.trim() ? { key: key.trim() } : {}),
    question: question.trim(),
    expectedPoints: points.map((p) => p.trim()).filter(Boolean),
    classification: classification.trim(),
    script: script?.length ? script : null,
    assertions: assertions.length ? (assertions as never) : null,
  };
  const save = () => {
    setErrors([]);
    setMessage(null);
    if (sample) update.mutate({ id: sample.id, body });
    else add.mutate({ id: setId, version, body });
  };
  const errorFor = (prefix: string) =>
    errors
      .filter((e) => e.path.replace(/^\//, "").startsWith(prefix))
      .map((e) => e.message)
      .join("; ") || undefined;
  const pending = add.isPending || update.isPending;
  const rules = meta.data?.rules ?? [];

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      size="lg"
      title={readOnly ? `Sample ${sample?.key ?? ""}` : sample ? `Edit sample ${sample.key}` : "New sample"}
      description={
        readOnly
          ? "This version is frozen: the sample is read-only. Create a new version to change it."
          : "Expected points are short points the answer must cover, not a full answer."
      }
      readOnly={readOnly}
      cancelLabel={readOnly ? "Close" : "Cancel"}
      submitLabel={sample ? "Save" : "Add sample"}
      pendingLabel="Saving…"
      canSubmit={!!question.trim()}
      pending={pending}
      onSubmit={save}
      extra={
        sample && (
          <Button
            variant="danger"
            className="mr-auto"
            disabled={del.isPending}
            onClick={async () => {
              if (
                await confirm({
                  title: `Remove sample ${sample.key}?`,
                  description: "It is removed from this draft only.",
                  confirmLabel: "Remove",
                  destructive: true,
                })
              )
                del.mutate({ id: sample.id });
            }}
          >
            Remove
          </Button>
        )
      }
    >
      <fieldset disabled={readOnly} className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
          <Field label="Question" error={errorFor("question")}>
            <textarea
              className={inputClass}
              rows={3}
              value={question}
              onChange={(e) => setQuestion(e.target.value)}
              maxLength={4000}
            />
          </Field>
          <div className="space-y-4">
            <Field
              label="Key"
              hint={sample ? undefined : "Optional; generated (q001…) when empty"}
              error={errorFor("key")}
            >
              <input
                className={cn(inputClass, "font-mono")}
                value={key}
                onChange={(e) => setKey(e.target.value)}
                maxLength={64}
              />
            </Field>
            <Field label="Scenario" hint="The business scenario (classification)" error={errorFor("classification")}>
              <input
                className={inputClass}
                value={classification}
                onChange={(e) => setClassification(e.target.value)}
                maxLength={120}
              />
            </Field>
          </div>
        </div>

        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Expected points</legend>
          <ol className="mt-1 space-y-2">
            {points.map((p, i) => (
              <li key={i} className="flex items-center gap-2">
                <span className="w-5 text-right text-xs tabular-nums text-slate-500">{i + 1}.</span>
                <input
                  aria-label={`Expected point ${i + 1}`}
                  className={inputClass}
                  value={p}
                  maxLength={500}
                  onChange={(e) => setPoints((ps) => ps.map((x, j) => (j === i ? e.target.value : x)))}
                  onKeyDown={(e) => {
                    if (e.key === "Enter") {
                      e.preventDefault();
                      setPoints((ps) => [...ps.slice(0, i + 1), "", ...ps.slice(i + 1)]);
                    }
                  }}
                />
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove point ${i + 1}`}
                  onClick={() => setPoints((ps) => (ps.length > 1 ? ps.filter((_, j) => j !== i) : [""]))}
                >
                  ✕
                </Button>
              </li>
            ))}
          </ol>
          {errorFor("expectedPoints") && <p className="mt-1 text-xs text-red-700">{errorFor("expectedPoints")}</p>}
          {!readOnly && (
            <Button size="sm" variant="secondary" className="mt-2" onClick={() => setPoints((ps) => [...ps, ""])}>
              Add point
            </Button>
          )}
        </fieldset>

        <fieldset className="rounded-lg border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium text-slate-800">Multi-turn script</legend>
          {script === null ? (
            <div className="flex items-center justify-between gap-3">
              <p className="text-xs text-slate-500">
                A single question. A script plays turns in order; preset turns are injected as context and do not call
                the model.
              </p>
              {!readOnly && (
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => setScript([{ role: "user", content: question, preset: false }])}
                >
                  Turn into a script
                </Button>
              )}
            </div>
          ) : (
            <div className="space-y-2">
              {script.map((t, i) => (
                <div
                  key={i}
                  className={`grid gap-2 rounded-md p-2 sm:grid-cols-[7rem_1fr_auto] ${t.preset ? "bg-slate-50" : "bg-brand-50/40"}`}
                >
                  <select
                    aria-label={`Turn ${i + 1} role`}
                    className={inputClass}
                    value={t.role}
                    onChange={(e) =>
                      setScript((s) => s!.map((x, j) => (j === i ? { ...x, role: e.target.value as Turn["role"] } : x)))
                    }
                  >
                    <option value="user">user</option>
                    <option value="assistant">assistant</option>
                    <option value="system">system</option>
                  </select>
                  <textarea
                    aria-label={`Turn ${i + 1} content`}
                    className={inputClass}
                    rows={2}
                    value={t.content}
                    onChange={(e) =>
                      setScript((s) => s!.map((x, j) => (j === i ? { ...x, content: e.target.value } : x)))
                    }
                  />
                  <div className="flex items-start gap-2">
                    <label className="flex items-center gap-1 whitespace-nowrap pt-2 text-xs text-slate-700">
                      <input
                        type="checkbox"
                        checked={t.preset}
                        onChange={(e) =>
                          setScript((s) => s!.map((x, j) => (j === i ? { ...x, preset: e.target.checked } : x)))
                        }
                      />
                      preset
                    </label>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Remove turn ${i + 1}`}
                      onClick={() => setScript((s) => (s!.length > 1 ? s!.filter((_, j) => j !== i) : null))}
                    >
                      ✕
                    </Button>
                  </div>
                </div>
              ))}
              {errorFor("script") && <p className="text-xs text-red-700">{errorFor("script")}</p>}
              {!readOnly && (
                <div className="flex gap-2">
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() => setScript((s) => [...s!, { role: "user", content: "", preset: false }])}
                  >
                    Add turn
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => setScript(null)}>
                    Back to a single question
                  </Button>
                </div>
              )}
              <p className="text-xs text-slate-500">
                Only user turns can be played; mark assistant and system turns preset.
              </p>
            </div>
          )}
        </fieldset>

        <fieldset className="rounded-lg border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium text-slate-800">Rule assertions</legend>
          <p className="text-xs text-slate-500">
            Checked by the machine on every answer; they only suggest, a person decides.
          </p>
          <div className="mt-2 space-y-2">
            {assertions.map((a, i) => (
              <AssertionRow
                key={i}
                index={i}
                value={a}
                rules={rules}
                onChange={(next) => setAssertions((as) => as.map((x, j) => (j === i ? next : x)))}
                onRemove={() => setAssertions((as) => as.filter((_, j) => j !== i))}
              />
            ))}
          </div>
          {errorFor("assertions") && <p className="mt-1 text-xs text-red-700">{errorFor("assertions")}</p>}
          {!readOnly && (
            <Button
              size="sm"
              variant="secondary"
              className="mt-2"
              onClick={() => setAssertions((as) => [...as, { type: "contains", value: "" }])}
            >
              Add assertion
            </Button>
          )}
        </fieldset>
        {message && (
          <p role="alert" className="text-sm text-red-700">
            {message}
          </p>
        )}
      </fieldset>
    </FormDialog>
  );
}

type Rule = Vocabulary["rules"][number];

/** One rule assertion: its type, then the fields that type takes (from the server's vocabulary, read from the schema). */
function AssertionRow({
  index,
  value,
  rules,
  onChange,
  onRemove,
}: {
  index: number;
  value: Assertion;
  rules: Rule[];
  onChange: (a: Assertion) => void;
  onRemove: () => void;
}) {
  const rule = rules.find((r) => r.type === value.type);
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-md bg-slate-50 p-2">
      <select
        aria-label={`Assertion ${index + 1} type`}
        className={cn(inputClass, "w-48")}
        value={value.type}
        onChange={(e) => onChange({ type: e.target.value })}
      >
        {(rules.length ? rules.map((r) => r.type) : [value.type]).map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      {rule?.fields.map((f) => (
        <RuleField
          key={f.name}
          label={`Assertion ${index + 1} ${f.name}`}
          field={f}
          value={value[f.name]}
          onChange={(v) => onChange({ ...value, [f.name]: v })}
        />
      ))}
      <Button size="sm" variant="ghost" aria-label={`Remove assertion ${index + 1}`} onClick={onRemove}>
        ✕
      </Button>
    </div>
  );
}

function RuleField({
  label,
  field,
  value,
  onChange,
}: {
  label: string;
  field: Rule["fields"][number];
  value: unknown;
  onChange: (v: unknown) => void;
}) {
  const [jsonText, setJsonText] = useState(value === undefined ? "" : JSON.stringify(value));
  const placeholder = `${field.name}${field.optional ? " (optional)" : ""}`;
  if (field.kind === "choice")
    return (
      <select
        aria-label={label}
        className={cn(inputClass, "w-32")}
        value={String(value ?? field.choices?.[0] ?? "")}
        onChange={(e) => onChange(e.target.value)}
      >
        {field.choices?.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    );
  if (field.kind === "number")
    return (
      <input
        aria-label={label}
        placeholder={placeholder}
        type="number"
        min={0}
        className={cn(inputClass, "w-28")}
        value={value === undefined ? "" : String(value)}
        onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))}
      />
    );
  if (field.kind === "json")
    return (
      <input
        aria-label={label}
        placeholder={`${placeholder}: JSON, e.g. "葱油饼" or 12`}
        className={cn(inputClass, "w-48 font-mono")}
        value={jsonText}
        onChange={(e) => {
          setJsonText(e.target.value);
          try {
            onChange(JSON.parse(e.target.value));
          } catch {
            onChange(e.target.value);
          }
        }}
      />
    );
  return (
    <input
      aria-label={label}
      placeholder={placeholder}
      className={cn(inputClass, "min-w-40 flex-1", (field.name === "path" || field.name === "flags") && "font-mono")}
      value={String(value ?? "")}
      onChange={(e) => onChange(e.target.value === "" && field.optional ? undefined : e.target.value)}
    />
  );
}
