"use client";

import { useEffect, useState } from "react";
import { ChoiceCards } from "@/components/ui/choice-cards";
import { FormDialog } from "@/components/ui/form-dialog";
import { Field, inputClass } from "@/components/ui/field";
import { words } from "../format";
import type { EvalItem, Vocabulary } from "../types";

export type FailInput = { basis: string; attribution: string; classification?: string };

/** A fail needs a basis (what is wrong) and an attribution (where in the chain); the scenario defaults to the sample's. */
export function FailDialog({
  open,
  onClose,
  item,
  vocabulary,
  saving,
  onSubmit,
}: {
  open: boolean;
  onClose: () => void;
  item?: EvalItem;
  vocabulary?: Vocabulary;
  saving: boolean;
  onSubmit: (input: FailInput) => void;
}) {
  const [basis, setBasis] = useState("");
  const [attribution, setAttribution] = useState("");
  const [classification, setClassification] = useState("");
  const [tried, setTried] = useState(false);
  // a fresh form for each item (and each verdict version of it) the dialog opens on, not on every reload of it
  const seed = open && item ? `${item.id}:${item.verdictVersion}` : null;
  useEffect(() => {
    if (!seed || !item) return;
    const v = item.verdict;
    setBasis(v?.verdict === "fail" && v.source === "human" ? (v.basis ?? "") : "");
    setAttribution(v?.verdict === "fail" ? (v.attribution ?? "") : "");
    setClassification(v?.classification || item.sampleClassification || "");
    setTried(false);
  }, [seed]); // eslint-disable-line react-hooks/exhaustive-deps
  const attributions = Object.entries((vocabulary?.attributions ?? {}) as Record<string, string>);
  const submit = () => {
    setTried(true);
    if (basis.trim() && attribution)
      onSubmit({ basis: basis.trim(), attribution, classification: classification.trim() || undefined });
  };
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      size="lg"
      title="Fail: what is wrong?"
      description="A fail needs a basis and the point in the chain where it broke. The server checks the same rules."
      initialFocus="textarea"
      submitLabel="Save fail"
      submitVariant="dangerSolid"
      pending={saving}
      onSubmit={submit}
      enterSubmits
      className="space-y-4"
      onKeyDown={(e) => {
        // 1-9 choose an attribution, unless the person is typing
        const typing =
          (e.target as HTMLElement).tagName === "TEXTAREA" ||
          ((e.target as HTMLElement).tagName === "INPUT" && (e.target as HTMLInputElement).type === "text");
        const n = Number(e.key);
        if (!typing && Number.isInteger(n) && n >= 1 && n <= attributions.length) {
          e.preventDefault();
          setAttribution(attributions[n - 1]![0]);
        }
      }}
    >
      <Field
        label="Basis"
        hint="What the answer misses or gets wrong. Ctrl+Enter saves; outside the text, keys 1-9 choose the attribution."
        error={tried && !basis.trim() ? "Say what is wrong" : undefined}
      >
        <textarea
          className={inputClass}
          rows={3}
          maxLength={4000}
          value={basis}
          onChange={(e) => setBasis(e.target.value)}
        />
      </Field>
      <div>
        <ChoiceCards
          legend="Attribution"
          name="attribution"
          tone="danger"
          value={attribution}
          onChange={setAttribution}
          options={attributions.map(([id, meaning], i) => ({
            value: id,
            label: (
              <>
                {i < 9 && <span className="mr-1 text-xs text-slate-500">{i + 1}</span>}
                {words(id)}
              </>
            ),
            description: meaning,
          }))}
        />
        {tried && !attribution && <p className="mt-1 text-xs text-red-700">Choose where it broke</p>}
      </div>
      <Field label="Scenario" hint="Defaults to the sample's business scenario">
        <input
          className={inputClass}
          value={classification}
          maxLength={120}
          onChange={(e) => setClassification(e.target.value)}
        />
      </Field>
    </FormDialog>
  );
}

export type CommentInput = { verdict: "pass" | "fail"; basis: string; attribution?: string; classification?: string };

/**
 * A comment on any verdict, pass included (C): kept as the verdict's basis and in its history. On an item without a
 * verdict it is a pass with a comment (a fail goes through F, which asks where it broke); on an item with one it keeps
 * that verdict, its attribution and scenario, and the comment makes it the person's own (an adopted one is then checked).
 */
export function CommentDialog({
  open,
  onClose,
  item,
  onSubmit,
}: {
  open: boolean;
  onClose: () => void;
  item?: EvalItem;
  onSubmit: (input: CommentInput) => void;
}) {
  const [text, setText] = useState("");
  const [tried, setTried] = useState(false);
  const seed = open && item ? `${item.id}:${item.verdictVersion}` : null;
  useEffect(() => {
    if (!seed || !item) return;
    const v = item.verdict;
    setText(v?.source === "human" ? (v.basis ?? "") : "");
    setTried(false);
  }, [seed]); // eslint-disable-line react-hooks/exhaustive-deps
  const v = item?.verdict;
  const verdict = v?.verdict ?? "pass";
  const submit = () => {
    setTried(true);
    if (!text.trim()) return;
    onSubmit({
      verdict,
      basis: text.trim(),
      ...(verdict === "fail" ? { attribution: v?.attribution ?? undefined } : {}),
      ...(v?.classification ? { classification: v.classification } : {}),
    });
  };
  const label = v ? `Save comment on the ${v.verdict}` : "Pass with this comment";
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      size="md"
      title={v ? `Comment on the ${v.verdict}` : "Pass with a comment"}
      description={
        v
          ? `The comment is kept with the verdict and in its history${v.source === "adopted" ? "; the adopted verdict becomes yours (checked)" : ""}.`
          : "The item has no verdict yet: this saves a pass with your comment. For a fail, press F."
      }
      initialFocus="textarea"
      submitLabel={label}
      submitVariant={verdict === "fail" ? "dangerSolid" : "success"}
      onSubmit={submit}
      enterSubmits
    >
      <Field
        label="Comment"
        hint="Ctrl+Enter saves."
        error={tried && !text.trim() ? "Write the comment first" : undefined}
      >
        <textarea
          className={inputClass}
          rows={3}
          maxLength={4000}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </Field>
    </FormDialog>
  );
}
