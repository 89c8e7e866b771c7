/**
 * Several reviewers per item (issue 23), the pure rules: an item's final verdict from its reviews, its review state,
 * and what a person may see of the others' reviews (blind review). No I/O: `verdicts/verdicts.ts` writes with them,
 * `item-rows.ts` shows items with them, the report and the gate count with them.
 *
 * - A run's `reviewsPerItem` (1-3) is fixed when it is created. With 1, the item's verdict is its one verdict (as
 *   always: no review rows). With more, each person's verdict is a review (`EvalReview`, one per person); the adopted
 *   machine suggestion is one review at most (reviewer `ADOPTED_REVIEWER`).
 * - Final: once an item has `needed` reviews, they agree -> that verdict is final (source human when a person typed
 *   any of them; basis, attribution and classification of the latest review); they disagree -> disputed, no verdict,
 *   until an adjudicator decides (final). Fewer reviews -> open, no verdict.
 * - Blind: a person sees the other reviewers' verdicts on an item only once they have given theirs, or once the item
 *   needs no more reviews (agreed, disputed or adjudicated: nothing left to bias). The machine suggestion is always
 *   visible.
 */
export const ADOPTED_REVIEWER = "adopted";

export type ReviewVerdict = "pass" | "fail";
export type Review = {
  reviewerId: string;
  verdict: ReviewVerdict;
  source: "human" | "adopted";
  basis: string | null;
  attribution: string | null;
  classification: string | null;
  at: Date;
};

export type ReviewState = "open" | "agreed" | "disputed" | "adjudicated";

export type FinalOutcome =
  | { state: "open" }
  | { state: "disputed" }
  | {
      state: "agreed";
      verdict: ReviewVerdict;
      source: "human" | "adopted";
      basis: string | null;
      attribution: string | null;
      classification: string | null;
      byId: string;
      at: Date;
    };

/** The final verdict of an item from its reviews (THE rule; see the header). */
export function finalVerdictOf(reviews: Review[], needed: number): FinalOutcome {
  if (reviews.length < needed) return { state: "open" };
  const verdicts = new Set(reviews.map((r) => r.verdict));
  if (verdicts.size > 1) return { state: "disputed" };
  const latest = [...reviews].sort((a, b) => a.at.getTime() - b.at.getTime()).at(-1)!;
  return {
    state: "agreed",
    verdict: latest.verdict,
    source: reviews.some((r) => r.source === "human") ? "human" : "adopted",
    basis: latest.basis,
    attribution: latest.attribution,
    classification: latest.classification,
    byId: latest.reviewerId,
    at: latest.at,
  };
}

/** The review state of an item as stored: adjudicated, disputed, else from its reviews. */
export function reviewStateOf(
  item: { disputed: boolean; adjudicatedAt: Date | null },
  reviews: Array<Pick<Review, "verdict">>,
  needed: number,
): ReviewState {
  if (item.adjudicatedAt) return "adjudicated";
  if (item.disputed) return "disputed";
  if (reviews.length < needed) return "open";
  return new Set(reviews.map((r) => r.verdict)).size > 1 ? "disputed" : "agreed";
}

/** Whether `viewer` may see the other reviewers' verdicts on an item (blind review; see the header). */
export function othersVisible(
  reviews: Array<Pick<Review, "reviewerId">>,
  needed: number,
  viewer: string | null,
): boolean {
  if (reviews.length >= needed) return true;
  return viewer !== null && reviews.some((r) => r.reviewerId === viewer);
}
