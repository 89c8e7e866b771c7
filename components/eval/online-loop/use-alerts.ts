"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { useMutationToast } from "../hooks/use-mutation-toast";

/** How often the banner asks for new alerts while the tab is open (rules are evaluated within seconds of an answer). */
const ALERT_POLL_MS = 15_000;

/** The agent's open alerts (the banner's; polled), and acknowledging one. */
export function useOpenAlerts(agentId: string) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { ok, fail } = useMutationToast();
  const alerts = useQuery({
    ...trpc.eval.online.alerts.list.queryOptions({ agentId, open: "true" }),
    refetchInterval: ALERT_POLL_MS,
  });
  const acknowledge = useMutation(
    trpc.eval.online.alerts.acknowledge.mutationOptions({
      onSuccess: async () => {
        ok("Alert acknowledged");
        await qc.invalidateQueries({ queryKey: trpc.eval.online.alerts.pathKey() });
      },
      onError: fail("Not acknowledged"),
    }),
  );
  return { alerts, acknowledge };
}

/** The agent's alert rules, and adding, switching and deleting one. */
export function useAlertRules(agentId: string) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { ok, fail } = useMutationToast();
  const rules = useQuery(trpc.eval.online.alertRules.list.queryOptions({ agentId }));
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.eval.online.alertRules.pathKey() });
  const create = useMutation(
    trpc.eval.online.alertRules.create.mutationOptions({
      onSuccess: async () => {
        ok("Alert rule added");
        await refresh();
      },
      onError: fail("Alert rule not added"),
    }),
  );
  const update = useMutation(
    trpc.eval.online.alertRules.update.mutationOptions({ onSuccess: refresh, onError: fail("Not changed") }),
  );
  const remove = useMutation(
    trpc.eval.online.alertRules.delete.mutationOptions({
      onSuccess: async () => {
        ok("Alert rule deleted");
        await refresh();
      },
      onError: fail("Not deleted"),
    }),
  );
  return { rules, create, update, remove };
}
