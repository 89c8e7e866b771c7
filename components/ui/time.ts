/**
 * Dates for people, one way everywhere (the builder's version history, the evaluation pages): `when` is a date and
 * time in the reader's locale, `ago` a relative time that turns into `when` after a month. Pure.
 */
export function when(value: string | Date | null | undefined): string {
  if (!value) return "—";
  return new Date(value).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function ago(value: string | Date | null | undefined, now = Date.now()): string {
  if (!value) return "—";
  const s = Math.round((now - new Date(value).getTime()) / 1000);
  if (s < 45) return "just now";
  if (s < 90) return "a minute ago";
  const m = Math.round(s / 60);
  if (m < 60) return `${m} minutes ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} hour${h === 1 ? "" : "s"} ago`;
  const d = Math.round(h / 24);
  return d < 30 ? `${d} day${d === 1 ? "" : "s"} ago` : when(value);
}
