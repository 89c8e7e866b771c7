import type { ReactNode } from "react";

/**
 * A region whose changes screen readers announce (aria-live): polite by default, assertive for errors. Visually
 * hidden unless a className is given. Keep it mounted and change its content; a region that appears together with
 * its text is often not announced.
 */
export function LiveRegion({
  children,
  assertive = false,
  className = "sr-only",
}: {
  children?: ReactNode;
  assertive?: boolean;
  className?: string;
}) {
  return (
    <span className={className} aria-live={assertive ? "assertive" : "polite"}>
      {children}
    </span>
  );
}
