import { describe, expect, it } from "vitest";
import { badgeClass } from "./badge";
import { ellipse } from "./icon";
import { progressParts } from "./progress";
import { tabAfterKey } from "./tabs";
import { ago } from "./time";
import { toggleChipClass } from "./toggle-chip";

describe("tabs keyboard", () => {
  const ids = ["sets", "runs", "queue"];

  it("moves with the arrows (wrapping) and jumps with Home/End", () => {
    expect(tabAfterKey(ids, "sets", "ArrowRight")).toBe("runs");
    expect(tabAfterKey(ids, "queue", "ArrowRight")).toBe("sets");
    expect(tabAfterKey(ids, "sets", "ArrowLeft")).toBe("queue");
    expect(tabAfterKey(ids, "runs", "Home")).toBe("sets");
    expect(tabAfterKey(ids, "runs", "End")).toBe("queue");
  });

  it("leaves other keys (Tab, Enter, letters) alone", () => {
    expect(tabAfterKey(ids, "runs", "Tab")).toBeNull();
    expect(tabAfterKey(ids, "runs", "Enter")).toBeNull();
    expect(tabAfterKey([], "runs", "ArrowRight")).toBeNull();
  });
});

describe("progress", () => {
  it("splits done into passed and failed segments of the whole", () => {
    expect(progressParts(5, 10, 1)).toEqual({ max: 10, done: 5, failed: 1, okPct: 40, failedPct: 10 });
  });

  it("clamps impossible counts instead of drawing outside the bar", () => {
    expect(progressParts(15, 10, 20)).toEqual({ max: 10, done: 10, failed: 10, okPct: 0, failedPct: 100 });
    expect(progressParts(-1, 10)).toMatchObject({ done: 0, okPct: 0 });
    expect(progressParts(3, 0)).toEqual({ max: 0, done: 0, failed: 0, okPct: 0, failedPct: 0 });
  });
});

describe("badge", () => {
  it("has one look per tone and size, a pill unless square", () => {
    expect(badgeClass()).toContain("rounded-full");
    expect(badgeClass({ tone: "danger", size: "caps", square: true })).toMatch(/\brounded\b.*uppercase.*bg-red-50/);
  });
});

describe("icon paths", () => {
  it("draws a circle as two arcs", () => {
    expect(ellipse(12, 12, 9)).toBe("M3 12a9 9 0 1 0 18 0a9 9 0 1 0 -18 0");
    expect(ellipse(12, 5, 8, 3)).toBe("M4 5a8 3 0 1 0 16 0a8 3 0 1 0 -16 0");
  });
});

describe("relative time (the one formatter of the builder and the evaluation pages)", () => {
  const now = Date.parse("2026-03-15T12:00:00Z");
  it("says how long ago in words, then the date after a month", () => {
    expect(ago(new Date(now - 10_000), now)).toBe("just now");
    expect(ago(new Date(now - 60_000), now)).toBe("a minute ago");
    expect(ago(new Date(now - 5 * 60_000), now)).toBe("5 minutes ago");
    expect(ago(new Date(now - 3600_000), now)).toBe("1 hour ago");
    expect(ago(new Date(now - 3 * 86_400_000), now)).toBe("3 days ago");
    expect(ago(new Date(now - 40 * 86_400_000), now)).toMatch(/2026/);
    expect(ago(null, now)).toBe("—");
  });
});

describe("toggle chip", () => {
  it("shows pressed by its border and fill as well as by aria-pressed, and always a keyboard focus ring", () => {
    expect(toggleChipClass(true)).toMatch(/border-brand-500.*bg-brand-50/);
    expect(toggleChipClass(false)).toMatch(/border-slate-300.*bg-white/);
    for (const pressed of [true, false]) expect(toggleChipClass(pressed)).toContain("focus-visible:ring-2");
  });
});
