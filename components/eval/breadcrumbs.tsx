import { EvalLink } from "./context";
import type { EvalUrl } from "./url-state";

/** Where a view sits in its tab: every part but the last links back. */
export function Breadcrumbs({ items }: { items: Array<{ label: string; to?: Partial<EvalUrl> }> }) {
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex flex-wrap items-center gap-1.5 text-sm text-slate-500">
        {items.map((it, i) => (
          <li key={`${it.label}-${i}`} className="flex items-center gap-1.5">
            {i > 0 && <span aria-hidden="true">/</span>}
            {it.to && i < items.length - 1 ? (
              <EvalLink to={it.to} className="hover:text-slate-900 hover:underline">
                {it.label}
              </EvalLink>
            ) : (
              <span aria-current={i === items.length - 1 ? "page" : undefined} className="font-medium text-slate-800">
                {it.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
