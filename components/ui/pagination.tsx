import { Button } from "./button";

/** Cursor pagination: previous / next with where you are ("21-40 of 312"); the caller keeps the cursor stack. */
export function Pagination({
  from,
  to,
  total,
  hasPrev,
  hasNext,
  onPrev,
  onNext,
  label = "Pages",
}: {
  from: number;
  to: number;
  total?: number;
  hasPrev: boolean;
  hasNext: boolean;
  onPrev: () => void;
  onNext: () => void;
  label?: string;
}) {
  if (!hasPrev && !hasNext)
    return total !== undefined && total > 0 ? (
      <p className="px-1 py-2 text-xs text-slate-500">
        {total === 1 ? "1 row" : `${total.toLocaleString("en-US")} rows`}
      </p>
    ) : null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3 px-1 py-2 text-xs text-slate-600">
      <span className="tabular-nums">
        {from.toLocaleString("en-US")}–{to.toLocaleString("en-US")}
        {total !== undefined ? ` of ${total.toLocaleString("en-US")}` : ""}
      </span>
      <span className="flex gap-2">
        <Button size="sm" variant="secondary" disabled={!hasPrev} onClick={onPrev}>
          Previous
        </Button>
        <Button size="sm" variant="secondary" disabled={!hasNext} onClick={onNext}>
          Next
        </Button>
      </span>
    </nav>
  );
}

/** Cursor pagination as "load more": how many are shown (of how many, when known) and a button for the next page. */
export function LoadMore({
  shown,
  total,
  hasMore,
  loading = false,
  onLoadMore,
  noun = "rows",
}: {
  shown: number;
  total?: number;
  hasMore: boolean;
  loading?: boolean;
  onLoadMore: () => void;
  noun?: string;
}) {
  if (shown === 0 && !hasMore) return null;
  return (
    <div className="flex items-center justify-between gap-3 px-1 py-2 text-xs text-slate-600">
      <span className="tabular-nums" aria-live="polite">
        {shown.toLocaleString("en-US")}
        {total !== undefined ? ` of ${total.toLocaleString("en-US")}` : ""} {noun}
      </span>
      {hasMore && (
        <Button size="sm" variant="secondary" disabled={loading} aria-busy={loading || undefined} onClick={onLoadMore}>
          {loading ? "Loading…" : "Load more"}
        </Button>
      )}
    </div>
  );
}
