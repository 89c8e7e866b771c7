import { describe, expect, it } from "vitest";
import { evalHref, nextView, parseEvalUrl, queueFilter, switchTab, withParams } from "./url-state";

describe("eval URL state", () => {
  it("defaults to the online feedback loop; ?tab= selects every tab", () => {
    expect(parseEvalUrl(new URLSearchParams("")).tab).toBe("online-loop");
    for (const tab of ["online-loop", "sets", "runs", "annotation", "bad-cases", "intent-shadow"]) {
      expect(parseEvalUrl(new URLSearchParams(`tab=${tab}`)).tab).toBe(tab);
    }
  });

  it("tolerates broken values: they fall back instead of failing", () => {
    const s = parseEvalUrl(new URLSearchParams("tab=nope&v=abc&verdict=maybe&run=R-7K2F9&q=%20%20&agent=a%00b"));
    expect(s).toMatchObject({ tab: "online-loop", v: undefined, verdict: undefined, run: "R-7K2F9", q: undefined, agent: undefined });
  });

  it("round-trips every view: a set version, a run, one annotation item with filters, a comparison, a Bad Case", () => {
    const views = [
      { tab: "sets", agent: "ag1", set: "s1", v: 3, q: "早餐" },
      { tab: "runs", agent: "ag1", run: "R-7K2F9" },
      { tab: "runs", agent: "ag1", view: "compare", a: "R-AAAAA", b: "R-BBBBB" },
      { tab: "annotation", agent: "ag1", run: "R-7K2F9", item: "it_1", verdict: "none", spot: "1", cls: "breakfast", q: "price" },
      { tab: "bad-cases", agent: "ag1", case: "bc1", status: "open", attribution: "retrieval" },
    ] as const;
    for (const v of views) {
      const href = evalHref(v);
      expect(href.startsWith("/eval?")).toBe(true);
      const back = parseEvalUrl(new URLSearchParams(href.slice("/eval?".length)));
      expect(Object.fromEntries(Object.entries(back).filter(([, x]) => x !== undefined))).toEqual(v);
    }
  });

  it("writes parameters in a fixed order and omits the default tab", () => {
    expect(evalHref({ q: "x", tab: "sets", agent: "a" })).toBe("/eval?tab=sets&agent=a&q=x");
    expect(evalHref({ tab: "online-loop" })).toBe("/eval");
    expect(evalHref({ tab: "online-loop", agent: "a" })).toBe("/eval?agent=a");
  });

  it("switching tabs keeps the agent and drops the other tab's state; patches keep only the tab's parameters", () => {
    const cur = parseEvalUrl(new URLSearchParams("tab=annotation&agent=a&run=R-11111&item=i&spot=1"));
    expect(switchTab(cur, "sets")).toEqual({ tab: "sets", agent: "a" });
    expect(withParams(cur, { tab: "runs" })).toEqual({ tab: "runs", agent: "a", run: "R-11111" });
    expect(withParams(cur, { item: "j" })).toMatchObject({ tab: "annotation", run: "R-11111", item: "j", spot: "1" });
  });

  it("a link naming a tab is a whole view; a patch without one changes the current view", () => {
    const cur = parseEvalUrl(new URLSearchParams("tab=runs&agent=a&run=R-11111&status=answering"));
    expect(nextView(cur, { tab: "runs" })).toEqual({ tab: "runs", agent: "a" });
    expect(nextView(cur, { tab: "runs", view: "compare", a: "R-11111" })).toEqual({ tab: "runs", agent: "a", view: "compare", a: "R-11111" });
    expect(nextView(cur, { status: "completed" })).toMatchObject({ tab: "runs", agent: "a", run: "R-11111", status: "completed" });
  });

  it("maps the annotation filters to the queue API", () => {
    const s = parseEvalUrl(new URLSearchParams("tab=annotation&verdict=none&suggestion=fail&spot=1&cls=a&q=b"));
    expect(queueFilter(s)).toEqual({ verdict: "none", suggestion: "fail", spotCheck: true, classification: "a", q: "b" });
    expect(queueFilter(parseEvalUrl(new URLSearchParams("tab=annotation")))).toEqual({});
  });
});
