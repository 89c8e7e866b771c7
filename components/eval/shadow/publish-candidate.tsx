"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/dialog";
import { useToast } from "@/components/ui/toast";
import { deniedReason, useCaps } from "../context";
import { pct } from "../format";
import { useMutationToast } from "../hooks/use-mutation-toast";

/**
 * "Publish the candidate", for builders and admins, after a confirmation that says what changes for online users. A
 * version candidate is published; a draft is first provisioned as the agent's next version. The server then turns the
 * shadow off (the live version is the candidate now).
 */
export function PublishCandidate({
  agentId,
  agentName,
  candidateVersion,
  latestVersion,
  publishedVersion,
  agreement,
}: {
  agentId: string;
  agentName: string;
  candidateVersion: number | null;
  latestVersion: number;
  publishedVersion: number | null;
  agreement: { rate: number | null; compared: number };
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const { fail } = useMutationToast();
  const confirm = useConfirm();
  const { caps, role } = useCaps();
  const publish = useMutation(
    trpc.eval.shadow.publish.mutationOptions({
      onSuccess: async (r) => {
        toast({
          tone: "success",
          title: `Version ${r.version} is live`,
          description: `${r.provisioned ? `The draft was provisioned as version ${r.version}. ` : ""}Online chat answers with it now; the shadow is off.`,
        });
        await Promise.all([
          qc.invalidateQueries({ queryKey: trpc.eval.shadow.pathKey() }),
          qc.invalidateQueries({ queryKey: trpc.builder.pathKey() }),
        ]);
      },
      onError: fail("Not published"),
    }),
  );
  const draft = candidateVersion === null;
  const target = draft ? latestVersion + 1 : candidateVersion;
  const now = publishedVersion ? `version ${publishedVersion}` : "no published version";
  if (!draft && candidateVersion === publishedVersion)
    return <span className="ml-auto text-xs text-slate-500">The candidate is the live version.</span>;
  return (
    <Button
      className="ml-auto"
      disabled={!caps.publish || publish.isPending}
      title={caps.publish ? undefined : deniedReason(role, "publish")}
      onClick={async () => {
        const ok = await confirm({
          title: draft ? `Provision the draft as version ${target} and publish it?` : `Publish version ${target}?`,
          description: `${draft ? `The draft candidate becomes version ${target} of ${agentName} (checked like any provisioning). ` : ""}Every online chat of ${agentName} is answered by version ${target} from the next message, instead of ${now}: not only its intent, its whole answer. The intent shadow is turned off; its results stay. Agreement so far: ${pct(agreement.rate, 0)} of ${agreement.compared} compared.`,
          confirmLabel: draft ? "Provision and publish" : "Publish",
        });
        if (ok) publish.mutate({ agentId });
      }}
    >
      Publish the candidate
    </Button>
  );
}
