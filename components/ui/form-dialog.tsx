"use client";

import { useId, type ComponentProps, type KeyboardEvent, type ReactNode } from "react";
import { Button } from "./button";
import { Dialog } from "./dialog";

/**
 * A dialog that asks for something and submits it: the body is a form, the footer is Cancel and the submit button
 * (plus `extra` actions at its left, e.g. "Remove"). Ctrl+Enter (Cmd+Enter) submits from anywhere in the form,
 * Escape and Cancel close it, the first field is focused (or `initialFocus`), focus returns to the opener.
 * `onSubmit` runs only when `canSubmit` and not `pending`; a dialog that validates on submit (showing what is missing)
 * leaves `canSubmit` true. Enter in a one-line field submits only with `enterSubmits` (as a plain form would).
 * `readOnly` shows the same form to look at: the footer is the cancel button alone (say "Close") and nothing submits.
 */
export function FormDialog({
  open,
  onClose,
  title,
  description,
  size,
  initialFocus,
  submitLabel,
  pendingLabel,
  submitVariant = "primary",
  cancelLabel = "Cancel",
  onSubmit,
  canSubmit = true,
  pending = false,
  enterSubmits = false,
  readOnly = false,
  extra,
  onKeyDown,
  className,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  size?: ComponentProps<typeof Dialog>["size"];
  initialFocus?: string;
  submitLabel: ReactNode;
  /** shown on the submit button while `pending` (default: `submitLabel`) */
  pendingLabel?: ReactNode;
  submitVariant?: ComponentProps<typeof Button>["variant"];
  cancelLabel?: ReactNode;
  onSubmit: () => void;
  canSubmit?: boolean;
  pending?: boolean;
  enterSubmits?: boolean;
  readOnly?: boolean;
  /** more footer actions, placed before Cancel (give one `className="mr-auto"` to set it apart on the left) */
  extra?: ReactNode;
  /** the form's own keys (runs after Ctrl+Enter was handled) */
  onKeyDown?: (e: KeyboardEvent<HTMLFormElement>) => void;
  className?: string;
  children: ReactNode;
}) {
  const formId = useId();
  const submit = () => {
    if (canSubmit && !pending && !readOnly) onSubmit();
  };
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      size={size}
      initialFocus={initialFocus}
      footer={
        <>
          {!readOnly && extra}
          <Button variant="secondary" onClick={onClose}>
            {cancelLabel}
          </Button>
          {!readOnly && (
            <Button type="submit" form={formId} variant={submitVariant} disabled={!canSubmit || pending}>
              {pending && pendingLabel ? pendingLabel : submitLabel}
            </Button>
          )}
        </>
      }
    >
      <form
        id={formId}
        className={className}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            submit();
            return;
          }
          const t = e.target as HTMLElement;
          if (!enterSubmits && e.key === "Enter" && t.tagName === "INPUT") e.preventDefault();
          onKeyDown?.(e);
        }}
      >
        {children}
      </form>
    </Dialog>
  );
}
