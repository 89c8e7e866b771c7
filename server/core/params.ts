import { z } from "zod";

/** The path/input shape `{ id }` of one resource (cuid or short Run ID), shared by the REST and tRPC faces. */
export const IdParam = z.object({ id: z.string().min(1).max(64) });

/**
 * The largest version number (and any integer id) the database stores: a 32-bit `integer` column. One bound shared
 * by every schema that takes a version number, so a larger one is a 400 (documented as the schema's maximum), never
 * a database error.
 */
export const MAX_DB_INT = 2_147_483_647;
/**
 * An integer input that reaches a 32-bit `integer` column (or an `::int` cast): `min` .. MAX_DB_INT. Every integer a
 * REST or tRPC input carries is bounded like this or tighter; `server/http/openapi.test.ts` walks the documented
 * input schemas and fails on an integer without such a bound.
 */
export const DbInt = (min = 0) => z.int().min(min).max(MAX_DB_INT);
/** A version number in a path or body (1 .. MAX_DB_INT). */
export const VersionNumber = DbInt(1);
/** A version number in a path (text coerced to an integer; same bound). */
export const VersionParam = z.coerce.number().int().min(1).max(MAX_DB_INT);

/**
 * A yes/no query parameter: REST sends text ("true" | "false"), tRPC a boolean; both parse to a boolean, false when
 * absent.
 */
export const QueryFlag = z
  .union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")])
  .default(false);

/**
 * A calendar day (YYYY-MM-DD) both JavaScript and PostgreSQL hold: 1970-01-01 .. 9999-12-31 (year 0000 is a 400).
 * The year's bound is a pattern, so the OpenAPI document says it too (four digits cap it at 9999).
 */
export const CalendarDay = z.iso
  .date()
  .regex(/^(?:19[7-9]\d|[2-9]\d{3})-/, "must be a day between 1970-01-01 and 9999-12-31")
  .meta({ format: "date" });

// ---------------------------------------------------------------- ranges of days

/**
 * The one rule for a range of days in a query (`from`, `to`: UTC calendar days, `to` inclusive):
 * - `from` after `to` is a 400 REQUEST_INVALID naming `from`, checked by the schema (`dayRangeQuery`);
 * - a **bounded** range (a count over every day of it: usage, leads per day) has defaults, `to` today (or `from` when
 *   that is later) and `from` DAY_RANGE.defaultDays - 1 days before `to`, and is at most DAY_RANGE.maxDays long (a 400
 *   naming the field that was given), also checked by the schema;
 * - an **open** range (a list or report filtered by days) has no defaults: a missing side is unbounded.
 * `dayRangeOf` (bounded) and `dayBounds` (open) turn a parsed query into what the callers need: the days and the
 * timestamps [start, end) that select rows.
 */
export const DAY_RANGE = { defaultDays: 30, maxDays: 366 } as const;
const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const midnight = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

type Days = { from?: string | undefined; to?: string | undefined };

/** The timestamps of an open range: `start` (from's midnight UTC, inclusive), `end` (the day after `to`, exclusive); null: unbounded. */
export function dayBounds(r: Days): { start: Date | null; end: Date | null } {
  return { start: r.from ? new Date(midnight(r.from)) : null, end: r.to ? new Date(midnight(r.to) + DAY_MS) : null };
}

/** A bounded range once its defaults apply: the days (`from`, `to`), how many, and the timestamps [start, end). */
export function dayRangeOf(
  r: Days,
  now = Date.now(),
): { from: string; to: string; days: number; start: Date; end: Date } {
  const today = isoDay(now);
  const to = r.to ?? (r.from && r.from > today ? r.from : today);
  const from = r.from ?? isoDay(midnight(to) - (DAY_RANGE.defaultDays - 1) * DAY_MS);
  return {
    from,
    to,
    days: Math.round((midnight(to) - midnight(from)) / DAY_MS) + 1,
    start: new Date(midnight(from)),
    end: new Date(midnight(to) + DAY_MS),
  };
}

/**
 * A query schema with `from` and `to` beside `shape`, and the range rule above as its refinement (so REST answers 400
 * REQUEST_INVALID with the field's path, tRPC BAD_REQUEST, before any service runs). `bounded`: the defaults and the
 * DAY_RANGE.maxDays cap apply.
 */
export function dayRangeQuery<S extends z.ZodRawShape>(shape: S, opts: { bounded: boolean }) {
  const days = opts.bounded
    ? {
        from: CalendarDay.optional().meta({
          description: `First day (UTC, YYYY-MM-DD); default ${DAY_RANGE.defaultDays - 1} days before \`to\` (${DAY_RANGE.defaultDays} days); at most ${DAY_RANGE.maxDays} days in all`,
        }),
        to: CalendarDay.optional().meta({
          description: "Last day (UTC, inclusive); default today (or `from` when that is later)",
        }),
      }
    : {
        from: CalendarDay.optional().meta({ description: "First day (UTC, YYYY-MM-DD)" }),
        to: CalendarDay.optional().meta({ description: "Last day (UTC, inclusive)" }),
      };
  return z.object({ ...days, ...shape }).superRefine((q, ctx) => {
    const r = q as Days;
    if (r.from && r.to && r.from > r.to) {
      ctx.addIssue({ code: "custom", path: ["from"], message: `from (${r.from}) is after to (${r.to})` });
      return;
    }
    if (!opts.bounded) return;
    const range = dayRangeOf(r);
    if (range.days > DAY_RANGE.maxDays) {
      ctx.addIssue({
        code: "custom",
        path: [r.from ? "from" : "to"],
        message: `the range is at most ${DAY_RANGE.maxDays} days (${range.from} .. ${range.to} is ${range.days})`,
      });
    }
  });
}

/**
 * The `cursor` of every list, one rule: the previous page's `nextCursor` given back as it came, 1 to 64 characters
 * (and storable text, like every input); anything else is 400 REQUEST_INVALID. A list whose cursor has a form of its
 * own narrows `Cursor` (the leads: `<instant>_<trace id>`, an instant both JavaScript and PostgreSQL hold); an id
 * cursor that names no row is an empty page. The fuzz test sends every list's cursor hostile values.
 */
export const Cursor = z.string().min(1).max(64);
export const CursorParam = Cursor.optional().meta({ description: "nextCursor of the previous page" });

/** A cursor page of `item`s: `{ items, nextCursor }` (null on the last page). */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });
