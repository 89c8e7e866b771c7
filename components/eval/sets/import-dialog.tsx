"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, inputClass } from "@/components/ui/field";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import { errorInfo } from "../types";

type Format = "json" | "jsonl" | "csv";
type RowError = { row: number; field: string; message: string };

export function formatOf(fileName: string): Format | null {
  const ext = fileName.toLowerCase().split(".").pop();
  return ext === "json" ? "json" : ext === "jsonl" || ext === "ndjson" ? "jsonl" : ext === "csv" ? "csv" : null;
}

/** Import samples into a draft from a file or pasted text: all rows or none; every row error is listed by row and field. */
export function ImportDialog({ open, onClose, setId, version }: { open: boolean; onClose: () => void; setId: string; version: number }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [format, setFormat] = useState<Format>("csv");
  const [mode, setMode] = useState<"append" | "replace">("append");
  const [content, setContent] = useState("");
  const [fileName, setFileName] = useState<string | null>(null);
  const [rowErrors, setRowErrors] = useState<RowError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    if (open) {
      setContent("");
      setFileName(null);
      setRowErrors([]);
      setMessage(null);
    }
  }, [open]);
  const run = useMutation(
    trpc.eval.versions.import.mutationOptions({
      onSuccess: async (r) => {
        toast({ tone: "success", title: `${r.imported} sample${r.imported === 1 ? "" : "s"} imported`, description: r.mode === "replace" ? "The draft's samples were replaced." : undefined });
        await qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
        onClose();
      },
      onError: (e) => {
        const info = errorInfo(e);
        setMessage(info.code === "IMPORT_INVALID" ? `${info.message}. Fix these rows and import again:` : info.message);
        setRowErrors(info.code === "IMPORT_INVALID" ? (info.details as RowError[]) : []);
      },
    }),
  );
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="lg"
      title={`Import samples into version ${version}`}
      description={
        <>
          JSON (an array), JSON Lines (one sample per line) or CSV with a header row: <code className="text-xs">key, question, expected_points, classification, script, assertions, source_trace_id</code>{" "}
          (expected points separated by <code>|</code>). All rows are imported, or none.
        </>
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={!content.trim() || run.isPending} onClick={() => run.mutate({ id: setId, version, body: { format, content, mode } })}>
            {run.isPending ? "Importing…" : "Import"}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="File" hint={fileName ? `Read ${fileName}` : "Or paste the text below"}>
            <input
              type="file"
              accept=".json,.jsonl,.ndjson,.csv,application/json,text/csv"
              className="block w-full text-sm text-slate-600 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-700 hover:file:bg-slate-200"
              onChange={async (e) => {
                const f = e.target.files?.[0];
                if (!f) return;
                setFileName(f.name);
                setContent(await f.text());
                const guessed = formatOf(f.name);
                if (guessed) setFormat(guessed);
              }}
            />
          </Field>
          <div className="grid grid-cols-2 gap-3">
            <Field label="Format">
              <select className={inputClass} value={format} onChange={(e) => setFormat(e.target.value as Format)}>
                <option value="csv">CSV</option>
                <option value="json">JSON</option>
                <option value="jsonl">JSON Lines</option>
              </select>
            </Field>
            <Field label="Mode">
              <select className={inputClass} value={mode} onChange={(e) => setMode(e.target.value as "append" | "replace")}>
                <option value="append">Append</option>
                <option value="replace">Replace all</option>
              </select>
            </Field>
          </div>
        </div>
        <Field label="Content">
          <textarea className={`${inputClass} font-mono text-xs`} rows={8} value={content} onChange={(e) => setContent(e.target.value)} spellCheck={false} />
        </Field>
        {message && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {message}
          </p>
        )}
        {rowErrors.length > 0 && (
          <Table caption="Row errors">
            <THead>
              <tr>
                <Th className="w-16">Row</Th>
                <Th className="w-40">Field</Th>
                <Th>Problem</Th>
              </tr>
            </THead>
            <tbody>
              {rowErrors.slice(0, 200).map((r, i) => (
                <Tr key={i}>
                  <Td className="tabular-nums">{r.row}</Td>
                  <Td className="font-mono text-xs">{r.field}</Td>
                  <Td>{r.message}</Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
        {rowErrors.length > 200 && <p className="text-xs text-slate-500">…and {rowErrors.length - 200} more.</p>}
      </div>
    </Dialog>
  );
}
