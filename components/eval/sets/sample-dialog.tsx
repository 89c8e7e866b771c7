"use client";

import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/dialog";
import { FormDialog } from "@/components/ui/form-dialog";
import { cn } from "@/components/ui/cn";
import { Field, inputClass } from "@/components/ui/field";
import type { EvalSample } from "../types";
import { useVocabulary } from "../hooks/use-vocabulary";
import { AssertionsEditor } from "./assertions-editor";
import { PointsEditor } from "./points-editor";
import { ScriptEditor } from "./script-editor";
import { useSampleForm } from "./use-sample-form";
import { useSampleMutations } from "./use-sample-mutations";

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
  const confirm = useConfirm();
  const meta = useVocabulary();
  const form = useSampleForm(open, sample);
  const { key, question, points, classification, script, assertions } = form.fields;
  const { setKey, setQuestion, setPoints, setClassification, setScript, setAssertions } = form.set;
  const { errorFor, message } = form;
  const { add, update, del } = useSampleMutations(onClose, form.onError);

  const save = () => {
    form.clearErrors();
    if (sample) update.mutate({ id: sample.id, body: form.body });
    else add.mutate({ id: setId, version, body: form.body });
  };
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

        <PointsEditor points={points} setPoints={setPoints} error={errorFor("expectedPoints")} readOnly={readOnly} />

        <ScriptEditor
          script={script}
          setScript={setScript}
          question={question}
          error={errorFor("script")}
          readOnly={readOnly}
        />

        <AssertionsEditor
          assertions={assertions}
          setAssertions={setAssertions}
          rules={rules}
          error={errorFor("assertions")}
          readOnly={readOnly}
        />
        {message && (
          <p role="alert" className="text-sm text-red-700">
            {message}
          </p>
        )}
      </fieldset>
    </FormDialog>
  );
}
