"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { FormDialog } from "@/components/ui/form-dialog";
import { cn } from "@/components/ui/cn";
import { Field, inputClass } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { errorInfo } from "../types";
import { RowErrors, UploadFields, type RowError, type UploadFormat } from "../upload";

/** Import samples into a draft from a file or pasted text: all rows or none; every row error is listed by row and field. */
export function ImportDialog({
  open,
  onClose,
  setId,
  version,
}: {
  open: boolean;
  onClose: () => void;
  setId: string;
  version: number;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [format, setFormat] = useState<UploadFormat>("csv");
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
        toast({
          tone: "success",
          title: `${r.imported} sample${r.imported === 1 ? "" : "s"} imported`,
          description: r.mode === "replace" ? "The draft's samples were replaced." : undefined,
        });
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
    <FormDialog
      open={open}
      onClose={onClose}
      size="lg"
      title={`Import samples into version ${version}`}
      description={
        <>
          JSON (an array), JSON Lines (one sample per line) or CSV with a header row:{" "}
          <code className="text-xs">
            key, question, expected_points, classification, script, assertions, source_trace_id
          </code>{" "}
          (expected points separated by <code>|</code>). All rows are imported, or none.
        </>
      }
      submitLabel="Import"
      pendingLabel="Importing…"
      canSubmit={!!content.trim()}
      pending={run.isPending}
      onSubmit={() => run.mutate({ id: setId, version, body: { format, content, mode } })}
      className="space-y-4"
    >
      <UploadFields
        format={format}
        onFormat={setFormat}
        content={content}
        onContent={(text, name) => {
          setContent(text);
          if (name) setFileName(name);
        }}
        contentLabel="Content"
        fileHint={fileName ? `Read ${fileName}` : undefined}
        extra={
          <Field label="Mode">
            <select
              className={cn(inputClass, "w-36")}
              value={mode}
              onChange={(e) => setMode(e.target.value as "append" | "replace")}
            >
              <option value="append">Append</option>
              <option value="replace">Replace all</option>
            </select>
          </Field>
        }
      />
      {message && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {message}
        </p>
      )}
      <RowErrors rows={rowErrors} />
    </FormDialog>
  );
}
