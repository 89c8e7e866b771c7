"use client";

/** The note above the drawing area when the canvas opened on this browser's unsaved draft: when it is from, and a way to discard it. */
import { ICONS, Icon } from "@/components/ui/icon";

export function DraftBanner({
  savedAt,
  behind,
  onDiscard,
  onDismiss,
}: {
  savedAt?: string;
  behind?: { base: number; latest: number };
  onDiscard?: () => void;
  onDismiss: () => void;
}) {
  return (
    <div
      className="flex items-center gap-3 border-b border-brand-100 bg-brand-50 px-4 py-1.5 text-xs text-brand-700"
      role="status"
    >
      <span>
        Restored your unsaved changes from{" "}
        {savedAt ? new Date(savedAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "earlier"}
        {behind ? ` (based on version ${behind.base}; the latest is ${behind.latest})` : ""}.
      </span>
      {onDiscard && (
        <button type="button" className="font-semibold underline hover:text-brand-600" onClick={onDiscard}>
          Discard them
        </button>
      )}
      <button type="button" aria-label="Dismiss" className="ml-auto" onClick={onDismiss}>
        <Icon d={ICONS.x} className="h-3.5 w-3.5" />
      </button>
    </div>
  );
}
