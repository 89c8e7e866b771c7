/** The one icon helper: line (or filled) icons from SVG path data; `ICONS` holds the shared ones. Decorative unless `label` is given. */
export function Icon({
  d,
  className = "h-4 w-4",
  strokeWidth = 1.9,
  filled = false,
  viewBox = "0 0 24 24",
  label,
}: {
  /** one path, or several drawn on top of each other */
  d: string | readonly string[];
  className?: string;
  strokeWidth?: number;
  filled?: boolean;
  viewBox?: string;
  /** an accessible name: the icon then stands for something (role img) instead of decorating a text */
  label?: string;
}) {
  return (
    <svg
      viewBox={viewBox}
      className={className}
      fill={filled ? "currentColor" : "none"}
      stroke={filled ? undefined : "currentColor"}
      strokeWidth={filled ? undefined : strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label ? "img" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      {(typeof d === "string" ? [d] : d).map((p) => (
        <path key={p} d={p} />
      ))}
    </svg>
  );
}

/** An ellipse (or with one radius a circle) as path data, for icons drawn from paths only. */
export const ellipse = (cx: number, cy: number, rx: number, ry = rx) =>
  `M${cx - rx} ${cy}a${rx} ${ry} 0 1 0 ${2 * rx} 0a${rx} ${ry} 0 1 0 ${-2 * rx} 0`;

export const ICONS = {
  undo: "M9 14L4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3",
  redo: "M15 14l5-5-5-5M20 9H9a5 5 0 0 0 0 10h3",
  layout: "M3 5h6v5H3zM15 3h6v5h-6zM15 16h6v5h-6zM9 7.5h3v11h3M12 5.5h3",
  fit: "M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5",
  download: "M12 4v11M7 10l5 5 5-5M5 20h14",
  upload: "M12 20V9M7 14l5-5 5 5M5 4h14",
  history: "M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l3 3",
  play: "M7 5v14l11-7z",
  back: "M15 18l-6-6 6-6",
  chevronDown: "M6 9l6 6 6-6",
  x: "M6 6l12 12M18 6L6 18",
  trash: "M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3",
  copy: "M9 9h10v10H9zM5 15V5h10",
  check: "M5 12l5 5 9-10",
  plus: "M12 5v14M5 12h14",
  collapse: "M15 6l-6 6 6 6M20 4v16",
  expand: "M9 6l6 6-6 6M4 4v16",
  /** filled, on a 16×16 view box */
  errorSolid:
    "M8 1.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM7.25 4.5h1.5v4.5h-1.5zM8 10.25a.9.9 0 1 1 0 1.8.9.9 0 0 1 0-1.8z",
  /** filled, on a 16×16 view box */
  warningSolid: "M8 1.8 15 14H1zM7.3 6h1.4v4H7.3zm.7 5.2a.8.8 0 1 1 0 1.6.8.8 0 0 1 0-1.6z",
} as const;
