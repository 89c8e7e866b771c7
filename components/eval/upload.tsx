"use client";

import { cn } from "@/components/ui/cn";
import { Field, inputClass } from "@/components/ui/field";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";

/** The shared parts of the two uploads (sample import, pasted answers): a file or pasted text in JSON, JSON Lines or CSV, and row errors. */
export type UploadFormat = "json" | "jsonl" | "csv";
export type RowError = { row: number; field: string; message: string };

export function formatOf(fileName: string): UploadFormat | null {
  const ext = fileName.toLowerCase().split(".").pop();
  return ext === "json" ? "json" : ext === "jsonl" || ext === "ndjson" ? "jsonl" : ext === "csv" ? "csv" : null;
}

export function UploadFields({
  format,
  onFormat,
  content,
  onContent,
  contentLabel,
  fileHint,
  extra,
}: {
  format: UploadFormat;
  onFormat: (f: UploadFormat) => void;
  content: string;
  onContent: (text: string, fileName?: string) => void;
  contentLabel: string;
  fileHint?: string;
  extra?: React.ReactNode;
}) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-[1fr_auto]">
        <Field label="File" hint={fileHint ?? "Or paste the text below"}>
          <input
            type="file"
            accept=".json,.jsonl,.ndjson,.csv,application/json,text/csv"
            className="block w-full text-sm text-slate-600 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-700 hover:file:bg-slate-200"
            onChange={async (e) => {
              const f = e.target.files?.[0];
              if (!f) return;
              onContent(await f.text(), f.name);
              const guessed = formatOf(f.name);
              if (guessed) onFormat(guessed);
            }}
          />
        </Field>
        <div className="flex gap-3">
          <Field label="Format">
            <select
              className={cn(inputClass, "w-36")}
              value={format}
              onChange={(e) => onFormat(e.target.value as UploadFormat)}
            >
              <option value="csv">CSV</option>
              <option value="json">JSON</option>
              <option value="jsonl">JSON Lines</option>
            </select>
          </Field>
          {extra}
        </div>
      </div>
      <Field label={contentLabel}>
        <textarea
          className={cn(inputClass, "font-mono text-xs")}
          rows={8}
          value={content}
          onChange={(e) => onContent(e.target.value)}
          spellCheck={false}
        />
      </Field>
    </>
  );
}

/** Row errors of an upload, by row and field (the server's all-or-nothing answer); the first 200. */
export function RowErrors({
  rows,
  caption = "Row errors",
}: {
  rows: Array<{ row: number; field?: string; key?: string; message?: string; reason?: string }>;
  caption?: string;
}) {
  if (!rows.length) return null;
  return (
    <>
      <Table caption={caption}>
        <THead>
          <tr>
            <Th className="w-16">Row</Th>
            <Th className="w-40">Field or key</Th>
            <Th>Problem</Th>
          </tr>
        </THead>
        <tbody>
          {rows.slice(0, 200).map((r, i) => (
            <Tr key={i}>
              <Td className="tabular-nums">{r.row}</Td>
              <Td className="font-mono text-xs">{r.field ?? r.key ?? "—"}</Td>
              <Td>{r.message ?? r.reason}</Td>
            </Tr>
          ))}
        </tbody>
      </Table>
      {rows.length > 200 && <p className="text-xs text-slate-500">…and {rows.length - 200} more.</p>}
    </>
  );
}
