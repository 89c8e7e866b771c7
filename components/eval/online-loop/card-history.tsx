"use client";

import { ago, when, words } from "../format";
import type { BoardCard } from "../types";

/** What happened to the sample, oldest first. */
export function CardHistory({ card }: { card: BoardCard }) {
  const line = (h: BoardCard["history"][number]) => {
    const by = h.by ? ` by ${h.by}` : "";
    switch (h.kind) {
      case "added":
        return `Added to v${h.version}${by}`;
      case "confirmed":
        return `Confirmed${by}`;
      case "expectations":
        return `${h.points} expected point${h.points === 1 ? "" : "s"}`;
      case "frozen":
        return `Frozen in v${h.version}${by}${h.unconfirmed ? " without a confirmation (the freeze took it in)" : ""}`;
      case "run":
        return `In ${h.run?.shortId} (v${h.version}): ${h.verdict ?? "not judged"}`;
      case "bad_case":
        return `Bad Case from ${h.run?.shortId}${by}, now ${words(h.status ?? "")}`;
      case "verified":
        return `Verified by ${h.run?.shortId}`;
    }
  };
  return (
    <details className="mt-2 text-slate-600">
      <summary className="cursor-pointer text-xs">History ({card.history.length})</summary>
      <ol className="mt-1 space-y-0.5 border-l-2 border-slate-200 pl-2" aria-label={`History of ${card.key}`}>
        {card.history.map((h, i) => (
          <li key={i}>
            {line(h)}
            {h.at && (
              <span className="text-slate-500" title={when(h.at)}>
                {" "}
                · {ago(h.at)}
              </span>
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}
