import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseInput } from "./errors";
import { DAY_RANGE, QueryFlag, dayBounds, dayRangeOf, dayRangeQuery } from "./params";

/** The one day-range rule: from after to is refused by the schema naming `from`; bounded ranges default and are capped. */
describe("day ranges", () => {
  const open = dayRangeQuery({ limit: z.number().optional() }, { bounded: false });
  const bounded = dayRangeQuery({}, { bounded: true });

  it("from after to is a schema issue on `from`, for open and bounded ranges", () => {
    for (const schema of [open, bounded]) {
      const r = schema.safeParse({ from: "2026-02-01", to: "2026-01-31" });
      expect(r.success).toBe(false);
      expect(r.error?.issues).toEqual([
        expect.objectContaining({ path: ["from"], message: "from (2026-02-01) is after to (2026-01-31)" }),
      ]);
    }
    expect(open.parse({ from: "2026-01-31", to: "2026-01-31", limit: 3 })).toEqual({
      from: "2026-01-31",
      to: "2026-01-31",
      limit: 3,
    });
    // a service called directly answers the faces' 400 naming the field
    expect(() => parseInput(bounded, { from: "2026-02-01", to: "2026-01-31" })).toThrow(
      expect.objectContaining({
        status: 400,
        code: "REQUEST_INVALID",
        details: [expect.objectContaining({ path: "/from" })],
      }),
    );
  });

  it("an open range has no defaults and no cap; its bounds are [from's midnight, the day after to)", () => {
    expect(open.safeParse({ from: "2000-01-01", to: "2026-01-01" }).success).toBe(true);
    expect(dayBounds({})).toEqual({ start: null, end: null });
    expect(dayBounds({ from: "2026-01-01", to: "2026-01-31" })).toEqual({
      start: new Date("2026-01-01T00:00:00.000Z"),
      end: new Date("2026-02-01T00:00:00.000Z"),
    });
  });

  it("a bounded range defaults to the last 30 days ending today (or at from) and holds at most 366 days", () => {
    const now = Date.parse("2026-03-15T12:00:00Z");
    expect(dayRangeOf({}, now)).toMatchObject({ from: "2026-02-14", to: "2026-03-15", days: DAY_RANGE.defaultDays });
    expect(dayRangeOf({ to: "2026-01-31" }, now)).toMatchObject({ from: "2026-01-02", to: "2026-01-31", days: 30 });
    expect(dayRangeOf({ from: "2026-04-01" }, now)).toMatchObject({ from: "2026-04-01", to: "2026-04-01", days: 1 });
    expect(dayRangeOf({ from: "2026-01-01", to: "2026-01-07" }, now)).toMatchObject({
      days: 7,
      start: new Date("2026-01-01T00:00:00.000Z"),
      end: new Date("2026-01-08T00:00:00.000Z"),
    });
    expect(bounded.safeParse({ from: "2024-01-01", to: "2024-12-31" }).success).toBe(true); // 366 days
    const long = bounded.safeParse({ from: "2024-01-01", to: "2025-01-01" });
    expect(long.error?.issues).toEqual([
      expect.objectContaining({ path: ["from"], message: expect.stringContaining("at most 366 days") }),
    ]);
    // only `from` given, far back: the default `to` (today) makes it too long, and `from` is named
    expect(bounded.safeParse({ from: "2000-01-01" }).error?.issues[0]?.path).toEqual(["from"]);
  });
});

describe("a yes/no query parameter", () => {
  it("takes REST's text and tRPC's boolean, false when absent; anything else is refused", () => {
    expect(QueryFlag.parse("true")).toBe(true);
    expect(QueryFlag.parse("false")).toBe(false);
    expect(QueryFlag.parse(true)).toBe(true);
    expect(QueryFlag.parse(undefined)).toBe(false);
    expect(QueryFlag.safeParse("yes").success).toBe(false);
  });
});
