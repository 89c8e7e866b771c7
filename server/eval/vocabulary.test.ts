import { describe, expect, it } from "vitest";

describe("the vocabulary the pages show", () => {
  it("names and explains every lead signal, lead status and comparison outcome the API uses", async () => {
    const { evalVocabulary } = await import("./vocabulary");
    const { OUTCOMES } = await import("./reports/compare");
    const { LEAD_SIGNALS, LEAD_STATUSES } = await import("./online/schemas");
    const v = evalVocabulary();
    expect(v.leadSignals.map((s) => s.id)).toEqual([...LEAD_SIGNALS]);
    expect(v.leadStatuses.map((s) => s.id)).toEqual([...LEAD_STATUSES]);
    expect(v.compareOutcomes.map((s) => s.id)).toEqual([...OUTCOMES]);
    for (const w of [...v.leadSignals, ...v.leadStatuses, ...v.compareOutcomes]) {
      expect(w.label.length, w.id).toBeGreaterThan(0);
      expect(w.meaning.length, w.id).toBeGreaterThan(0);
    }
    expect(v.leadSignals.find((s) => s.id === "empty_items")?.meaning).toBe(v.guardrailFlags.empty_items);
  });

  it("lists every reason the gate gives, the audit's too", async () => {
    const { evalVocabulary } = await import("./vocabulary");
    const codes = evalVocabulary().gateReasons.map((r) => r.code);
    expect(codes).toEqual(expect.arrayContaining(["GATE_UNJUDGED", "GATE_AUDIT_PENDING", "GATE_AUDIT_OVERTURNED"]));
    for (const r of evalVocabulary().gateReasons) expect(r.meaning.length, r.code).toBeGreaterThan(0);
  });
});
