// @vitest-environment happy-dom
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";

// The page's search params as the last render saw them: deliberately not updated by history calls, as happens in the
// moment between a replaceState and the re-render Next's router makes for it.
const rendered = { params: new URLSearchParams("tab=runs&agent=a1&view=usage&from=2026-11-19&to=2026-11-25") };
vi.mock("next/navigation", () => ({
  useSearchParams: () => rendered.params,
  usePathname: () => "/eval",
  useRouter: () => ({ push: vi.fn() }),
}));

const { useEvalUrl } = await import("./context");

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const mounted: Array<() => void> = [];
afterEach(() => mounted.splice(0).forEach((u) => u()));

function mountGo() {
  let go!: ReturnType<typeof useEvalUrl>[1];
  function Probe() {
    go = useEvalUrl()[1];
    return null;
  }
  const el = document.createElement("div");
  document.body.append(el);
  const root = createRoot(el);
  act(() => root.render(<Probe />));
  mounted.push(() => act(() => root.unmount()));
  return go;
}

describe("useEvalUrl's go", () => {
  it("two filter changes before a re-render both land (the second is built from the address bar, not the last render)", () => {
    window.history.replaceState(null, "", `/eval?${rendered.params}`);
    const go = mountGo();
    go({ from: "2026-11-12", to: "2026-11-25" }, { replace: true });
    go({ scope: "all" }, { replace: true });
    const now = new URLSearchParams(window.location.search);
    expect(now.get("from")).toBe("2026-11-12");
    expect(now.get("scope")).toBe("all");
    expect(now.get("view")).toBe("usage");
  });

  it("replace keeps the history length; a new view pushes an entry", () => {
    window.history.replaceState(null, "", `/eval?${rendered.params}`);
    const go = mountGo();
    const before = window.history.length;
    go({ scope: "all" }, { replace: true });
    expect(window.history.length).toBe(before);
    go({ view: undefined }, {});
    expect(window.history.length).toBe(before + 1);
    expect(new URLSearchParams(window.location.search).get("view")).toBeNull();
  });
});
