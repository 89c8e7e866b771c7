import type { ReactNode } from "react";

/** A radio group drawn as cards: each choice with a label and a line saying what it means. Arrow keys move between them (native radios). */
export function ChoiceCards<T extends string>({
  legend,
  name,
  value,
  onChange,
  options,
  columns = 2,
  tone = "brand",
}: {
  legend: ReactNode;
  name: string;
  value: T | "";
  onChange: (v: T) => void;
  options: ReadonlyArray<{ value: T; label: ReactNode; description?: ReactNode }>;
  columns?: 1 | 2;
  tone?: "brand" | "danger";
}) {
  const on = tone === "danger" ? "border-red-400 bg-red-50/60" : "border-brand-500 bg-brand-50/50";
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className={`mt-1 grid gap-2 ${columns === 2 ? "sm:grid-cols-2" : ""}`}>
        {options.map((o) => (
          <label
            key={o.value}
            className={`flex cursor-pointer gap-2 rounded-lg border px-3 py-2.5 text-sm ${value === o.value ? on : "border-slate-200 hover:bg-slate-50"}`}
          >
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              className="mt-0.5"
            />
            <span>
              <span className="block font-medium">{o.label}</span>
              {o.description && <span className="text-xs text-slate-600">{o.description}</span>}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
