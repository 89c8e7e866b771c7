"use client";

import { useEffect, useState } from "react";
import { errorInfo, type EvalSample } from "../types";

export type Turn = { role: "user" | "assistant" | "system"; content: string; preset: boolean };
export type Assertion = { type: string } & Record<string, unknown>;

/**
 * The sample editor's form: its fields (reset from the sample each time the dialog opens), the body it sends, and the
 * server's refusal shown by field (`errorFor("question")`) and as a message.
 */
export function useSampleForm(open: boolean, sample: EvalSample | null) {
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
  const clearErrors = () => {
    setErrors([]);
    setMessage(null);
  };
  const errorFor = (prefix: string) =>
    errors
      .filter((e) => e.path.replace(/^\//, "").startsWith(prefix))
      .map((e) => e.message)
      .join("; ") || undefined;

  const body = {
    ...(key.trim() ? { key: key.trim() } : {}),
    question: question.trim(),
    expectedPoints: points.map((p) => p.trim()).filter(Boolean),
    classification: classification.trim(),
    script: script?.length ? script : null,
    assertions: assertions.length ? (assertions as never) : null,
  };

  return {
    fields: { key, question, points, classification, script, assertions },
    set: { setKey, setQuestion, setPoints, setClassification, setScript, setAssertions },
    body,
    message,
    onError,
    clearErrors,
    errorFor,
  };
}
