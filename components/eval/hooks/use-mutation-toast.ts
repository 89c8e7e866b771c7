"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTRPC } from "@/lib/trpc";
import { useToast } from "@/components/ui/toast";
import { errorInfo } from "../types";

/**
 * What the evaluation pages say after an action, one way everywhere: `ok(title, description?)` a success toast,
 * `fail(title)` an `onError` handler whose toast says what did not happen (the title) and why (the server's message),
 * `refresh()` reads every `eval.*` answer again (what an action on runs, sets or verdicts may have changed).
 */
export function useMutationToast() {
  const toast = useToast();
  const trpc = useTRPC();
  const qc = useQueryClient();
  return useMemo(
    () => ({
      toast,
      ok: (title: string, description?: string) => toast({ tone: "success", title, description }),
      fail: (title: string) => (e: unknown) => toast({ tone: "error", title, description: errorInfo(e).message }),
      refresh: () => qc.invalidateQueries({ queryKey: trpc.eval.pathKey() }),
    }),
    [toast, trpc, qc],
  );
}
