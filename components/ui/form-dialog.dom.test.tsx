// @vitest-environment happy-dom
import { act, useState } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FormDialog } from "./form-dialog";

/** FormDialog rendered in a DOM: what submits (the button, Ctrl+Enter, Enter only when asked), what does not, and Cancel. */
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const mounted: Array<() => void> = [];
function render(ui: React.ReactNode) {
  const el = document.createElement("div");
  document.body.append(el);
  const root = createRoot(el);
  act(() => root.render(ui));
  mounted.push(() => {
    act(() => root.unmount());
    el.remove();
  });
  return el;
}
afterEach(() => mounted.splice(0).forEach((u) => u()));

type Props = Partial<React.ComponentProps<typeof FormDialog>>;
function Harness({ onSubmit, onClose, ...props }: Props & { onSubmit: () => void; onClose?: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <FormDialog
      open={open}
      onClose={() => {
        onClose?.();
        setOpen(false);
      }}
      title="Name it"
      submitLabel="Save"
      onSubmit={onSubmit}
      {...props}
    >
      <input aria-label="Name" />
      <textarea aria-label="Notes" />
    </FormDialog>
  );
}

const byText = (el: Element, text: string) =>
  [...el.querySelectorAll("button")].find((b) => b.textContent?.trim() === text) as HTMLButtonElement | undefined;
const key = (target: Element, init: KeyboardEventInit) =>
  act(() => {
    target.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init }));
  });

describe("FormDialog", () => {
  it("submits from its button and with Ctrl+Enter or Cmd+Enter in any field; focuses the first field", () => {
    const onSubmit = vi.fn();
    const el = render(<Harness onSubmit={onSubmit} />);
    const name = el.querySelector("input")!;
    expect(document.activeElement).toBe(name);
    act(() => byText(el, "Save")!.click());
    expect(onSubmit).toHaveBeenCalledTimes(1);
    key(el.querySelector("textarea")!, { key: "Enter", ctrlKey: true });
    key(name, { key: "Enter", metaKey: true });
    expect(onSubmit).toHaveBeenCalledTimes(3);
  });

  it("does not submit while it cannot or while pending: the button is disabled and Ctrl+Enter does nothing", () => {
    const onSubmit = vi.fn();
    const el = render(<Harness onSubmit={onSubmit} canSubmit={false} />);
    expect(byText(el, "Save")!.disabled).toBe(true);
    key(el.querySelector("textarea")!, { key: "Enter", ctrlKey: true });
    const pending = render(<Harness onSubmit={onSubmit} pending pendingLabel="Saving…" />);
    expect(byText(pending, "Saving…")!.disabled).toBe(true);
    key(pending.querySelector("textarea")!, { key: "Enter", ctrlKey: true });
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("keeps plain Enter in a one-line field from submitting unless enterSubmits", () => {
    const el = render(<Harness onSubmit={vi.fn()} />);
    const plain = new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true });
    act(() => {
      el.querySelector("input")!.dispatchEvent(plain);
    });
    expect(plain.defaultPrevented).toBe(true);
    const el2 = render(<Harness onSubmit={vi.fn()} enterSubmits />);
    const allowed = new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true });
    act(() => {
      el2.querySelector("input")!.dispatchEvent(allowed);
    });
    expect(allowed.defaultPrevented).toBe(false);
  });

  it("closes with Cancel; read-only shows the cancel button alone and never submits", () => {
    const onSubmit = vi.fn();
    const onClose = vi.fn();
    const el = render(<Harness onSubmit={onSubmit} onClose={onClose} extra={<button type="button">Remove</button>} />);
    expect(byText(el, "Remove")).toBeDefined();
    act(() => byText(el, "Cancel")!.click());
    expect(onClose).toHaveBeenCalledTimes(1);
    const ro = render(
      <Harness onSubmit={onSubmit} readOnly cancelLabel="Close" extra={<button type="button">Remove</button>} />,
    );
    expect(byText(ro, "Save")).toBeUndefined();
    expect(byText(ro, "Remove")).toBeUndefined();
    expect(byText(ro, "Close")).toBeDefined();
    key(ro.querySelector("textarea")!, { key: "Enter", ctrlKey: true });
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
