// @vitest-environment happy-dom
import { act, useState } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import type { AnnotationAction } from "../annotation-keys";
import { useAnnotationKeys } from "./use-annotation-keys";

/** The annotation shortcuts bound to a real document: which key calls what, and when keys are left alone. */
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const mounted: Array<() => void> = [];
afterEach(() => mounted.splice(0).forEach((u) => u()));

function mount(opts: { dialogOpen?: boolean } = {}) {
  const calls: string[] = [];
  let setLabel: (s: string) => void = () => undefined;
  let setDialog: (b: boolean) => void = () => undefined;
  function Harness() {
    // handlers change on every render (they close over state): the hook must call the newest ones
    const [label, setL] = useState("v1");
    const [dialog, setD] = useState(!!opts.dialogOpen);
    setLabel = setL;
    setDialog = setD;
    const actions: AnnotationAction[] = ["pass", "fail", "next", "prev", "nextOpen", "raw", "help"];
    useAnnotationKeys(Object.fromEntries(actions.map((a) => [a, () => calls.push(`${a}@${label}`)])), {
      dialogOpen: dialog,
    });
    return (
      <div>
        <input aria-label="Search" />
        <textarea aria-label="Basis" />
        <select aria-label="Verdict">
          <option>x</option>
        </select>
        <div role="dialog">
          <button type="button">In a dialog</button>
        </div>
        <button type="button" data-plain>
          Plain
        </button>
      </div>
    );
  }
  const el = document.createElement("div");
  document.body.append(el);
  const root = createRoot(el);
  act(() => root.render(<Harness />));
  const unmount = () => {
    act(() => root.unmount());
    el.remove();
  };
  mounted.push(unmount);
  const press = (key: string, target: Element | Document = document, init: KeyboardEventInit = {}) => {
    const e = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...init });
    act(() => void target.dispatchEvent(e));
    return e;
  };
  const q = (sel: string) => el.querySelector(sel)!;
  return {
    calls,
    press,
    q,
    unmount,
    relabel: (s: string) => act(() => setLabel(s)),
    dialog: (b: boolean) => act(() => setDialog(b)),
  };
}

describe("useAnnotationKeys (bound to the document)", () => {
  it("P F J K N R ? and the arrows call their actions and take the key (preventDefault)", () => {
    const h = mount();
    const keys = ["p", "F", "j", "ArrowDown", "k", "ArrowUp", "n", "r", "?"];
    const events = keys.map((k) => h.press(k, h.q("[data-plain]")));
    expect(h.calls).toEqual([
      "pass@v1",
      "fail@v1",
      "next@v1",
      "next@v1",
      "prev@v1",
      "prev@v1",
      "nextOpen@v1",
      "raw@v1",
      "help@v1",
    ]);
    expect(events.every((e) => e.defaultPrevented)).toBe(true);
    // a key without an action is left to the page
    expect(h.press("x").defaultPrevented).toBe(false);
    expect(h.calls).toHaveLength(9);
  });

  it("never while typing in a field, inside a dialog, with a modifier, or while the view says a dialog is open", () => {
    const h = mount();
    for (const sel of ["input", "textarea", "select", "[role=dialog] button"]) {
      const e = h.press("p", h.q(sel));
      expect(e.defaultPrevented, sel).toBe(false);
    }
    h.press("p", document, { ctrlKey: true });
    h.press("p", document, { metaKey: true });
    h.press("j", document, { altKey: true });
    expect(h.calls).toEqual([]);
    h.dialog(true);
    h.press("p");
    expect(h.calls).toEqual([]);
    h.dialog(false);
    // an open <dialog> element anywhere in the page (the confirm dialog) stops them too
    const native = document.createElement("dialog");
    native.setAttribute("open", "");
    document.body.append(native);
    h.press("p");
    native.remove();
    expect(h.calls).toEqual([]);
    h.press("p");
    expect(h.calls).toEqual(["pass@v1"]);
  });

  it("calls the handlers of the latest render, and lets go of the document when unmounted", () => {
    const h = mount();
    h.relabel("v2");
    h.press("j");
    expect(h.calls).toEqual(["next@v2"]);
    h.unmount();
    h.press("j");
    expect(h.calls).toEqual(["next@v2"]);
  });
});
