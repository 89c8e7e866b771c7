/** Clamped counts and the two segments' widths (per cent): `ok` from the left, then `failed` right after it. */
export function progressParts(
  value: number,
  max: number,
  failed = 0,
): { max: number; done: number; failed: number; okPct: number; failedPct: number } {
  const safeMax = Math.max(0, max);
  const done = Math.min(safeMax, Math.max(0, value));
  const bad = Math.min(done, Math.max(0, failed));
  const pct = (n: number) => (safeMax === 0 ? 0 : (n / safeMax) * 100);
  return { max: safeMax, done, failed: bad, okPct: pct(done - bad), failedPct: pct(bad) };
}

/** A progress bar with an accessible name and value; an optional second segment (e.g. failed items) in red. */
export function Progress({
  value,
  max,
  failed = 0,
  label,
  className = "",
  showText = true,
}: {
  value: number;
  max: number;
  failed?: number;
  label: string;
  className?: string;
  showText?: boolean;
}) {
  const { max: safeMax, done, failed: bad, okPct, failedPct } = progressParts(value, max, failed);
  return (
    <div className={`flex min-w-0 items-center gap-2 ${className}`}>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={safeMax}
        aria-valuenow={done}
        aria-valuetext={`${done} of ${safeMax}${bad ? `, ${bad} failed` : ""}`}
        className="relative h-2 min-w-16 flex-1 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="absolute inset-y-0 left-0 bg-brand-600 transition-[width] duration-500"
          style={{ width: `${okPct}%` }}
        />
        <div
          className="absolute inset-y-0 bg-red-500 transition-[width] duration-500"
          style={{ left: `${okPct}%`, width: `${failedPct}%` }}
        />
      </div>
      {showText && (
        <span className="shrink-0 text-xs tabular-nums text-slate-600">
          {done}/{safeMax}
          {bad ? <span className="text-red-700"> · {bad} failed</span> : null}
        </span>
      )}
    </div>
  );
}
