import type { ReactNode } from "react";

/**
 * A tooltip shown on hover and on keyboard focus inside its trigger (CSS only, role tooltip). Give it an `id` and
 * point the trigger's aria-describedby at it when the text is more than the trigger's own name.
 */
export function Tip({
  text,
  children,
  side = "bottom",
  align = "center",
  id,
}: {
  text: ReactNode;
  children: ReactNode;
  side?: "bottom" | "top" | "right";
  align?: "center" | "end";
  id?: string;
}) {
  const pos =
    side === "right"
      ? "left-full ml-2 top-1/2 -translate-y-1/2"
      : `${side === "top" ? "bottom-full mb-2" : "top-full mt-2"} ${align === "end" ? "right-0" : "left-1/2 -translate-x-1/2"}`;
  return (
    <span className="group/tip relative inline-flex">
      {children}
      <span
        id={id}
        role="tooltip"
        className={`pointer-events-none absolute z-50 w-max max-w-64 rounded-md bg-slate-900 px-2 py-1 text-xs font-medium text-white opacity-0 shadow-lg transition-opacity delay-150 group-focus-within/tip:opacity-100 group-hover/tip:opacity-100 ${pos}`}
      >
        {text}
      </span>
    </span>
  );
}
