"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, inputClass } from "@/components/ui/field";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import { formatOf } from "../sets/import-dialog";
import { errorInfo } from "../types";

type Format = "json" | "jsonl" | "csv";
type Result = { matched: number; unmatched: Array<{ row: number; key?: string; sampleId?: string; reason: string }>; skipped: Array<{ row: number; key: string; reason: string }> };

/** Pasted mode: upload answers (file or paste) matched by sample key or id; rows that match nothing are shown. */
export function AnswersDialog({ open, onClose, runId }: { open: boolean; onClose: () => void; runId: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [format, setFormat] = useState<Format>("csv");
  const [content, setContent] = useState("");
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<{ message: string; rows: Array<{ row: number; field: string; message: string }> } | null>(null);
  useEffect(() => {
    if (open) {
      setContent("");
      setResult(null);
      setError(null);
    }
  }, [open]);
  const upload = useMutation(
    trpc.eval.runs.answers.mutationOptions({
      onSuccess: async (r) => {
        setResult(r);
        setError(null);
        toast({ tone: "success", title: `${r.matched} answer${r.matched === 1 ? "" : "s"} stored`, description: r.unmatched.length ? `${r.unmatched.length} rows matched no question.` : undefined });
        await qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
      },
      onError: (e) => {
        const info = errorInfo(e);
        setError({ message: info.message, rows: info.code === "IMPORT_INVALID" ? (info.details as Array<{ row: number; field: string; message: string }>) : [] });
      },
    }),
  );
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="lg"
      title="Upload answers"
      description={
        <>
          Columns (CSV) or fields (JSON, JSON Lines): <code className="text-xs">key</code> or <code className="text-xs">sample_id</code>, <code className="text-xs">answer</code>, optional{" "}
          <code className="text-xs">payload</code> (JSON), <code className="text-xs">trace_id</code>, <code className="text-xs">latency_ms</code>, <code className="text-xs">error</code>. Questions that already
          have a verdict are not overwritten.
        </>
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {result ? "Done" : "Cancel"}
          </Button>
          <Button disabled={!content.trim() || upload.isPending} onClick={() => upload.mutate({ id: runId, body: { format, content } })}>
            {upload.isPending ? "Uploading…" : "Upload"}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
          <Field label="File" hint="Or paste below">
            <input
              type="file"
              accept=".json,.jsonl,.ndjson,.csv"
              className="block w-full text-sm text-slate-600 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1.5 file:text-sm file:font-medium"
              onChange={async (e) => {
                const f = e.target.files?.[0];
                if (!f) return;
                setContent(await f.text());
                const guessed = formatOf(f.name);
                if (guessed) setFormat(guessed);
              }}
            />
          </Field>
          <Field label="Format">
            <select className={inputClass} value={format} onChange={(e) => setFormat(e.target.value as Format)}>
              <option value="csv">CSV</option>
              <option value="json">JSON</option>
              <option value="jsonl">JSON Lines</option>
            </select>
          </Field>
        </div>
        <Field label="Answers">
          <textarea className={`${inputClass} font-mono text-xs`} rows={8} value={content} onChange={(e) => setContent(e.target.value)} spellCheck={false} />
        </Field>
        {error && (
          <div role="alert" className="space-y-2">
            <p className="text-sm font-medium text-red-700">{error.message}</p>
            {error.rows.length > 0 && (
              <Table caption="Row errors">
                <THead>
                  <tr>
                    <Th>Row</Th>
                    <Th>Field</Th>
                    <Th>Problem</Th>
                  </tr>
                </THead>
                <tbody>
                  {error.rows.slice(0, 100).map((r, i) => (
                    <Tr key={i}>
                      <Td>{r.row}</Td>
                      <Td className="font-mono text-xs">{r.field}</Td>
                      <Td>{r.message}</Td>
                    </Tr>
                  ))}
                </tbody>
              </Table>
            )}
          </div>
        )}
        {result && (
          <div className="space-y-2 text-sm">
            <p className="font-medium text-emerald-800">
              {result.matched} matched · {result.unmatched.length} unmatched · {result.skipped.length} skipped (already judged)
            </p>
            {result.unmatched.length + result.skipped.length > 0 && (
              <Table caption="Rows not stored">
                <THead>
                  <tr>
                    <Th>Row</Th>
                    <Th>Key or id</Th>
                    <Th>Why</Th>
                  </tr>
                </THead>
                <tbody>
                  {[...result.unmatched, ...result.skipped].slice(0, 100).map((r, i) => (
                    <Tr key={i}>
                      <Td>{r.row}</Td>
                      <Td className="font-mono text-xs">{r.key ?? ("sampleId" in r ? r.sampleId : "") ?? "—"}</Td>
                      <Td>{r.reason}</Td>
                    </Tr>
                  ))}
                </tbody>
              </Table>
            )}
          </div>
        )}
      </div>
    </Dialog>
  );
}
