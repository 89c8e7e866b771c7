"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { FormDialog } from "@/components/ui/form-dialog";
import { useToast } from "@/components/ui/toast";
import { errorInfo } from "../types";
import { RowErrors, UploadFields, type UploadFormat } from "../upload";

type Result = {
  matched: number;
  unmatched: Array<{ row: number; key?: string; sampleId?: string; reason: string }>;
  skipped: Array<{ row: number; key: string; reason: string }>;
};

/** Pasted mode: upload answers (file or paste) matched by sample key or id; rows that match nothing are shown. */
export function AnswersDialog({ open, onClose, runId }: { open: boolean; onClose: () => void; runId: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [format, setFormat] = useState<UploadFormat>("csv");
  const [content, setContent] = useState("");
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<{
    message: string;
    rows: Array<{ row: number; field: string; message: string }>;
  } | null>(null);
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
        toast({
          tone: "success",
          title: `${r.matched} answer${r.matched === 1 ? "" : "s"} stored`,
          description: r.unmatched.length ? `${r.unmatched.length} rows matched no question.` : undefined,
        });
        await qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
      },
      onError: (e) => {
        const info = errorInfo(e);
        setError({
          message: info.message,
          rows:
            info.code === "IMPORT_INVALID"
              ? (info.details as Array<{ row: number; field: string; message: string }>)
              : [],
        });
      },
    }),
  );
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      size="lg"
      title="Upload answers"
      description={
        <>
          Columns (CSV) or fields (JSON, JSON Lines): <code className="text-xs">key</code> or{" "}
          <code className="text-xs">sample_id</code>, <code className="text-xs">answer</code>, optional{" "}
          <code className="text-xs">payload</code> (JSON), <code className="text-xs">trace_id</code>,{" "}
          <code className="text-xs">latency_ms</code>, <code className="text-xs">error</code>. Questions that already
          have a verdict are not overwritten.
        </>
      }
      cancelLabel={result ? "Done" : "Cancel"}
      submitLabel="Upload"
      pendingLabel="Uploading…"
      canSubmit={!!content.trim()}
      pending={upload.isPending}
      onSubmit={() => upload.mutate({ id: runId, body: { format, content } })}
      className="space-y-4"
    >
      <UploadFields
        format={format}
        onFormat={setFormat}
        content={content}
        onContent={(text) => setContent(text)}
        contentLabel="Answers"
      />
      {error && (
        <div role="alert" className="space-y-2">
          <p className="text-sm font-medium text-red-700">{error.message}</p>
          <RowErrors rows={error.rows} />
        </div>
      )}
      {result && (
        <div className="space-y-2 text-sm">
          <p className="font-medium text-emerald-800">
            {result.matched} matched · {result.unmatched.length} unmatched · {result.skipped.length} skipped (already
            judged)
          </p>
          <RowErrors caption="Rows not stored" rows={[...result.unmatched, ...result.skipped]} />
        </div>
      )}
    </FormDialog>
  );
}
