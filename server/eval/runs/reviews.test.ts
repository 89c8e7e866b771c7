import { describe, expect, it } from "vitest";
import { finalVerdictOf, othersVisible, reviewStateOf, type Review } from "./reviews";

const at = (s: number) => new Date(Date.UTC(2026, 10, 27, 12, 0, s));
const review = (reviewerId: string, verdict: "pass" | "fail", s: number, extra: Partial<Review> = {}): Review => ({
  reviewerId,
  verdict,
  source: "human",
  basis: `${reviewerId}'s basis`,
  attribution: verdict === "fail" ? "generation" : null,
  classification: "price",
  at: at(s),
  ...extra,
});

describe("the final verdict of an item with several reviewers (issue 23)", () => {
  it("open until it has its reviews; agreed reviews are final with the latest review's basis; a disagreement is a dispute", () => {
    expect(finalVerdictOf([], 2)).toEqual({ state: "open" });
    expect(finalVerdictOf([review("alice", "pass", 1)], 2)).toEqual({ state: "open" });
    expect(finalVerdictOf([review("bob", "fail", 5), review("alice", "fail", 1)], 2)).toEqual({
      state: "agreed",
      verdict: "fail",
      source: "human",
      basis: "bob's basis",
      attribution: "generation",
      classification: "price",
      byId: "bob",
      at: at(5),
    });
    expect(finalVerdictOf([review("alice", "pass", 1), review("bob", "fail", 2)], 2)).toEqual({ state: "disputed" });
    // three reviewers: two of three is not agreement
    expect(finalVerdictOf([review("a", "pass", 1), review("b", "pass", 2), review("c", "fail", 3)], 3)).toEqual({
      state: "disputed",
    });
    expect(finalVerdictOf([review("a", "pass", 1), review("b", "pass", 2)], 3)).toEqual({ state: "open" });
  });
  it("an adopted review agreeing with a person's makes a human verdict; one reviewer per item is the one verdict", () => {
    const adopted = review("adopted", "pass", 1, { source: "adopted", basis: null });
    expect(finalVerdictOf([adopted, review("alice", "pass", 2)], 2)).toMatchObject({
      state: "agreed",
      source: "human",
    });
    expect(finalVerdictOf([adopted], 1)).toMatchObject({ state: "agreed", source: "adopted", verdict: "pass" });
  });
  it("the stored state and blind review", () => {
    const two = [review("alice", "pass", 1), review("bob", "fail", 2)];
    expect(reviewStateOf({ disputed: true, adjudicatedAt: null }, two, 2)).toBe("disputed");
    expect(reviewStateOf({ disputed: false, adjudicatedAt: at(9) }, two, 2)).toBe("adjudicated");
    expect(reviewStateOf({ disputed: false, adjudicatedAt: null }, two.slice(0, 1), 2)).toBe("open");
    expect(reviewStateOf({ disputed: false, adjudicatedAt: null }, [two[0]!, review("bob", "pass", 2)], 2)).toBe(
      "agreed",
    );
    // bob has not reviewed: alice's verdict is hidden from him (and from anyone without a review) ...
    expect(othersVisible(two.slice(0, 1), 2, "bob")).toBe(false);
    expect(othersVisible(two.slice(0, 1), 2, null)).toBe(false);
    // ... alice sees her own side; once the item has its reviews everyone sees them (an adjudicator too)
    expect(othersVisible(two.slice(0, 1), 2, "alice")).toBe(true);
    expect(othersVisible(two, 2, "carol")).toBe(true);
  });
});
