"use client";

import { createContext, useCallback, useContext, useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Button } from "./button";
import { ICONS, Icon } from "./icon";

const FIELDS = "[data-autofocus],input,textarea,select";

/**
 * A dialog whose fields come after it opened (its content was still loading) had to focus a button: the first field
 * takes the focus when it appears, unless the person has moved it meanwhile (a key or a click in the dialog) or the
 * dialog closed. Returns the clean-up.
 */
function focusFieldWhenItComes(d: HTMLDialogElement, fallback: HTMLElement): () => void {
  const stop = () => {
    observer.disconnect();
    d.removeEventListener("keydown", stop, true);
    d.removeEventListener("pointerdown", stop, true);
  };
  const observer = new MutationObserver(() => {
    if (!d.open || document.activeElement !== fallback) return stop();
    const field = d.querySelector<HTMLElement>(FIELDS);
    if (!field) return;
    stop();
    field.focus();
  });
  observer.observe(d, { childList: true, subtree: true });
  d.addEventListener("keydown", stop, true);
  d.addEventListener("pointerdown", stop, true);
  return stop;
}

/**
 * A modal dialog on the native <dialog> element (showModal, aria-modal): the page behind is inert, so focus stays
 * inside; Escape closes; focus returns to what opened it; keys pressed inside never reach the page's shortcuts.
 * Focus goes to `initialFocus`, else the first field, else the first button, and to the first field when it comes
 * later (content that was loading). Labelled by its title, described by its description.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  role = "dialog",
  size = "md",
  initialFocus,
  closeLabel = "Close",
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  role?: "dialog" | "alertdialog";
  size?: "sm" | "md" | "lg" | "xl";
  /** a selector inside the dialog to focus first (default: the first field or button) */
  initialFocus?: string;
  /** the accessible name of the close (×) button, e.g. "Close version history" */
  closeLabel?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  const descId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      opener.current = document.activeElement;
      d.showModal();
      const first =
        (initialFocus ? d.querySelector<HTMLElement>(initialFocus) : null) ??
        d.querySelector<HTMLElement>(`${FIELDS},button:not([data-dialog-close])`);
      first?.focus();
      if (!initialFocus && first && !first.matches(FIELDS)) return focusFieldWhenItComes(d, first);
    } else if (!open && d.open) {
      d.close();
      (opener.current as HTMLElement | null)?.focus?.();
    }
  }, [open, initialFocus]);
  const width = { sm: "max-w-sm", md: "max-w-lg", lg: "max-w-2xl", xl: "max-w-4xl" }[size];
  return (
    <dialog
      ref={ref}
      role={role}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClose={() => {
        if (open) onClose(); // closed by the browser itself (a second Escape skips the cancel event)
      }}
      onKeyDown={(e) => e.stopPropagation()}
      onClick={(e) => {
        if (e.target === ref.current) onClose(); // a click on the backdrop
      }}
      className={`m-auto w-[calc(100%-2rem)] ${width} rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-900/40`}
    >
      {open && (
        <div className="flex max-h-[85vh] flex-col">
          <header className="flex items-start justify-between gap-4 border-b border-slate-100 px-5 py-4">
            <div>
              <h2 id={titleId} className="text-base font-semibold">
                {title}
              </h2>
              {description && (
                <div id={descId} className="mt-1 text-sm text-slate-600">
                  {description}
                </div>
              )}
            </div>
            <button
              type="button"
              data-dialog-close
              aria-label={closeLabel}
              onClick={onClose}
              className="-mr-1 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
            >
              <Icon d={ICONS.x} strokeWidth={2} />
            </button>
          </header>
          {children && <div className="min-h-0 overflow-y-auto px-5 py-4">{children}</div>}
          {footer && (
            <footer className="flex flex-wrap justify-end gap-2 border-t border-slate-100 bg-slate-50/60 px-5 py-3">
              {footer}
            </footer>
          )}
        </div>
      )}
    </dialog>
  );
}

type ConfirmOptions = {
  title: string;
  description?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  destructive?: boolean;
};
type Pending = ConfirmOptions & { resolve: (ok: boolean) => void };
const ConfirmContext = createContext<((o: ConfirmOptions) => Promise<boolean>) | null>(null);

/** `const confirm = useConfirm(); if (await confirm({ title, description })) ...` — an accessible window.confirm. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const ask = useCallback(
    (o: ConfirmOptions) =>
      new Promise<boolean>((resolve) =>
        setPending((prev) => {
          prev?.resolve(false); // a newer question replaces an unanswered one
          return { ...o, resolve };
        }),
      ),
    [],
  );
  const finish = (ok: boolean) => {
    pending?.resolve(ok);
    setPending(null);
  };
  return (
    <ConfirmContext.Provider value={ask}>
      {children}
      <Dialog
        open={!!pending}
        onClose={() => finish(false)}
        role="alertdialog"
        size="sm"
        title={pending?.title ?? ""}
        description={pending?.description}
        initialFocus="[data-confirm]"
        footer={
          <>
            <Button variant="secondary" onClick={() => finish(false)}>
              {pending?.cancelLabel ?? "Cancel"}
            </Button>
            <Button
              data-confirm
              variant={pending?.destructive ? "dangerSolid" : "primary"}
              onClick={() => finish(true)}
            >
              {pending?.confirmLabel ?? "Continue"}
            </Button>
          </>
        }
      />
    </ConfirmContext.Provider>
  );
}

export function useConfirm(): (o: ConfirmOptions) => Promise<boolean> {
  const ask = useContext(ConfirmContext);
  if (!ask) throw new Error("useConfirm needs a <ConfirmProvider> above it");
  return ask;
}
