"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { denseInputClass } from "@/components/ui/field";
import { useTRPC } from "@/lib/trpc";
import { VerdictBadge } from "../badges";
import { useCaps } from "../context";
import { useMutationToast } from "../hooks/use-mutation-toast";
import type { EvalItem, Vocabulary } from "../types";

type Reviews = NonNullable<EvalItem["reviews"]>;
type Review = NonNullable<Reviews["mine"]>;

/** "your review 1 of 2": which review the viewer's is (or would be) of the item's reviews (issue 23). */
export function yourReviewWords(r: { needed: number; given: number; mine: unknown }): string {
  return r.mine ? `your review given (${r.given} of ${r.needed})` : `your review ${r.given + 1} of ${r.needed}`;
}

/**
 * Several reviewers per item (a set's reviewsPerItem 2 or 3): which review is the viewer's, the reviewers' verdicts
 * side by side with their bases once the viewer may see them (blind review: the server sends the others' only after
 * one's own verdict, or once the item has all its reviews), and for adjudicators (eval.adjudicate) the decision of a
 * disputed item: the verdict, a basis and, for a fail, an attribution.
 */
export function ReviewsPanel({ runId, item, vocabulary }: { runId: string; item: EvalItem; vocabulary?: Vocabulary }) {
  const r = item.reviews;
  const { caps } = useCaps();
  if (!r) return null;
  const all: Array<{ who: string; review: Review }> = [
    ...(r.mine ? [{ who: "You", review: r.mine }] : []),
    ...(r.others ?? []).map((o) => ({
      who: o.reviewerId === "adopted" ? "Adopted suggestion" : (o.byLabel ?? o.reviewerId),
      review: o,
    })),
  ];
  return (
    <section aria-label="Reviews" className="space-y-2 rounded-lg border border-slate-200 p-3">
      <h3 className="text-sm font-semibold text-slate-800">
        Reviews: {r.state === "disputed" ? "disputed" : r.state === "adjudicated" ? "adjudicated" : r.state}
        <span className="ml-2 font-normal text-slate-600">{yourReviewWords(r)}</span>
      </h3>
      {r.others === null ? (
        <p className="text-xs text-slate-600">
          Blind review: the other reviewers' verdicts show once you have given yours.
        </p>
      ) : (
        <div className="grid gap-2 sm:grid-cols-2" data-testid="reviews-side-by-side">
          {all.map(({ who, review }) => (
            <div
              key={review.reviewerId}
              role="group"
              className="rounded-md bg-slate-50 p-2 text-sm"
              aria-label={`Review by ${who}`}
            >
              <div className="flex items-center gap-2">
                <span className="font-medium text-slate-800">{who}</span>
                <VerdictBadge verdict={review.verdict} source={review.source} />
              </div>
              <p className="mt-1 whitespace-pre-wrap text-slate-700">{review.basis ?? "(no basis)"}</p>
            </div>
          ))}
        </div>
      )}
      {r.adjudication && (
        <p className="text-xs text-slate-600">
          Decided by {r.adjudication.byLabel ?? r.adjudication.byId ?? "an adjudicator"}.
        </p>
      )}
      {r.state === "disputed" && caps.adjudicate && <Adjudicate runId={runId} item={item} vocabulary={vocabulary} />}
    </section>
  );
}

function Adjudicate({ runId, item, vocabulary }: { runId: string; item: EvalItem; vocabulary?: Vocabulary }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const notify = useMutationToast();
  const [verdict, setVerdict] = useState<"pass" | "fail">("pass");
  const [basis, setBasis] = useState("");
  const [attribution, setAttribution] = useState("");
  const decide = useMutation(
    trpc.eval.items.adjudicate.mutationOptions({
      onSuccess: async () => {
        notify.ok("Dispute decided", "The adjudicator's verdict is final.");
        await qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
        await qc.invalidateQueries({ queryKey: ["eval-queue", runId] });
      },
      onError: notify.fail("Not decided"),
    }),
  );
  const attributions = Object.keys((vocabulary?.attributions as Record<string, string> | undefined) ?? {});
  const ready = basis.trim() !== "" && (verdict === "pass" || attribution !== "");
  return (
    <form
      aria-label="Adjudicate"
      className="space-y-2 border-t border-slate-100 pt-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (!ready) return;
        decide.mutate({
          id: runId,
          itemId: item.id,
          body: { verdict, basis, ...(verdict === "fail" ? { attribution } : {}) },
        });
      }}
    >
      <p className="text-sm font-medium text-slate-800">Decide the dispute (final)</p>
      <div className="flex flex-wrap gap-2">
        <select
          aria-label="Decision"
          className={denseInputClass}
          value={verdict}
          onChange={(e) => setVerdict(e.target.value as "pass" | "fail")}
        >
          <option value="pass">Pass</option>
          <option value="fail">Fail</option>
        </select>
        {verdict === "fail" && (
          <select
            aria-label="Attribution"
            className={denseInputClass}
            value={attribution}
            onChange={(e) => setAttribution(e.target.value)}
          >
            <option value="">Attribution…</option>
            {attributions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        )}
      </div>
      <textarea
        aria-label="Basis of the decision"
        className={`${denseInputClass} w-full`}
        rows={2}
        value={basis}
        onChange={(e) => setBasis(e.target.value)}
        placeholder="Why this verdict decides it"
      />
      <Button type="submit" size="sm" disabled={!ready || decide.isPending}>
        {decide.isPending ? "Deciding…" : "Decide"}
      </Button>
    </form>
  );
}
