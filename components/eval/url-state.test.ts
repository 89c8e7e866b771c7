import { describe, expect, it } from "vitest";
import {
  compareQuery,
  evalHref,
  manyQuery,
  manyRuns,
  nextView,
  parseEvalUrl,
  queueFilter,
  switchTab,
  usageRange,
  withParams,
} from "./url-state";

describe("eval URL state", () => {
  it("defaults to the online feedback loop; ?tab= selects every tab", () => {
    expect(parseEvalUrl(new URLSearchParams("")).tab).toBe("online-loop");
    for (const tab of ["online-loop", "sets", "runs", "annotation", "bad-cases", "intent-shadow"]) {
      expect(parseEvalUrl(new URLSearchParams(`tab=${tab}`)).tab).toBe(tab);
    }
  });

  it("tolerates broken values: they fall back instead of failing", () => {
    const s = parseEvalUrl(new URLSearchParams("tab=nope&v=abc&verdict=maybe&run=R-7K2F9&q=%20%20&agent=a%00b"));
    expect(s).toMatchObject({
      tab: "online-loop",
      v: undefined,
      verdict: undefined,
      run: "R-7K2F9",
      q: undefined,
      agent: undefined,
    });
  });

  it("round-trips every view: a set version, a run, one annotation item with filters, a comparison, a Bad Case", () => {
    const views = [
      { tab: "sets", agent: "ag1", set: "s1", v: 3, q: "早餐" },
      { tab: "runs", agent: "ag1", run: "R-7K2F9" },
      { tab: "runs", agent: "ag1", view: "compare", a: "R-AAAAA", b: "R-BBBBB" },
      {
        tab: "annotation",
        agent: "ag1",
        run: "R-7K2F9",
        item: "it_1",
        verdict: "none",
        spot: "1",
        cls: "breakfast",
        q: "price",
      },
      { tab: "bad-cases", agent: "ag1", case: "bc1", status: "open", attribution: "retrieval" },
      {
        tab: "runs",
        agent: "ag1",
        view: "compare",
        a: "R-AAAAA",
        b: "R-BBBBB",
        q: "q07",
        outcome: "regressed",
        page: 3,
        open: "q 07/β",
      },
      { tab: "runs", agent: "ag1", view: "usage", from: "2026-01-01", to: "2026-02-28", scope: "all" },
      { tab: "bad-cases", agent: "ag1", status: "fixing", cls: "breakfast", run: "R-7K2F9", set: "s1" },
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
    expect(nextView(cur, { tab: "runs", view: "compare", a: "R-11111" })).toEqual({
      tab: "runs",
      agent: "a",
      view: "compare",
      a: "R-11111",
    });
    expect(nextView(cur, { status: "completed" })).toMatchObject({
      tab: "runs",
      agent: "a",
      run: "R-11111",
      status: "completed",
    });
  });

  it("keeps the online loop's lead filters (status, signal, score, time range) through a patch and a reload", () => {
    const cur = parseEvalUrl(new URLSearchParams("agent=a&status=new"));
    const next = withParams(cur, { signal: "empty_items", score: 3, from: "2026-01-01", to: "2026-01-31" });
    expect(next).toMatchObject({
      tab: "online-loop",
      agent: "a",
      status: "new",
      signal: "empty_items",
      score: 3,
      from: "2026-01-01",
      to: "2026-01-31",
    });
    const href = evalHref(next);
    expect(href).toBe("/eval?agent=a&status=new&signal=empty_items&score=3&from=2026-01-01&to=2026-01-31");
    expect(parseEvalUrl(new URLSearchParams(href.slice("/eval?".length)))).toMatchObject({
      signal: "empty_items",
      score: 3,
      from: "2026-01-01",
      to: "2026-01-31",
    });
    // a broken day falls back; another tab drops them
    expect(parseEvalUrl(new URLSearchParams("from=2026-13-45&to=yesterday"))).toMatchObject({
      from: undefined,
      to: undefined,
    });
    expect(withParams(next, { tab: "sets" })).toEqual({ tab: "sets", agent: "a" });
  });

  it("maps the annotation filters to the queue API", () => {
    const s = parseEvalUrl(new URLSearchParams("tab=annotation&verdict=none&suggestion=fail&spot=1&cls=a&q=b"));
    expect(queueFilter(s)).toEqual({
      verdict: "none",
      suggestion: "fail",
      spotCheck: true,
      classification: "a",
      q: "b",
    });
    expect(queueFilter(parseEvalUrl(new URLSearchParams("tab=annotation")))).toEqual({});
  });

  it("the comparison's outcome filter, page and opened question live in the URL and map to the compare API", () => {
    const s = parseEvalUrl(
      new URLSearchParams("tab=runs&view=compare&a=R-AAAAA&b=R-BBBBB&outcome=fixed&page=3&open=q07&q=price"),
    );
    expect(s).toMatchObject({ outcome: "fixed", page: 3, open: "q07" });
    expect(compareQuery(s, 50)).toEqual({
      run_a: "R-AAAAA",
      run_b: "R-BBBBB",
      outcome: "fixed",
      q: "price",
      limit: 50,
      offset: 100,
    });
    expect(compareQuery(parseEvalUrl(new URLSearchParams("tab=runs&view=compare&a=x&b=y")), 50)).toEqual({
      run_a: "x",
      run_b: "y",
      limit: 50,
      offset: 0,
    });
    // broken values fall back: an unknown outcome is all outcomes, page 0 or text is the first page
    expect(parseEvalUrl(new URLSearchParams("tab=runs&outcome=better&page=0"))).toMatchObject({
      outcome: undefined,
      page: undefined,
    });
    expect(parseEvalUrl(new URLSearchParams("tab=runs&page=two")).page).toBeUndefined();
    // they belong to the runs tab: another tab drops them; changing the filter in place keeps the pair of runs
    expect(withParams(s, { tab: "bad-cases" })).toEqual({ tab: "bad-cases", agent: undefined });
    expect(nextView(s, { outcome: "regressed", page: undefined, open: undefined })).toMatchObject({
      view: "compare",
      a: "R-AAAAA",
      b: "R-BBBBB",
      outcome: "regressed",
    });
    expect(evalHref(nextView(s, { outcome: "regressed", page: undefined, open: undefined }))).toBe(
      "/eval?tab=runs&view=compare&a=R-AAAAA&b=R-BBBBB&q=price&outcome=regressed",
    );
  });

  it("usage keeps its range and scope in the URL; the defaults are the last 30 days of the agent", () => {
    const now = Date.parse("2026-03-15T10:00:00Z");
    expect(usageRange(parseEvalUrl(new URLSearchParams("tab=runs&view=usage")), now)).toEqual({
      from: "2026-02-14",
      to: "2026-03-15",
      allAgents: false,
    });
    expect(usageRange(parseEvalUrl(new URLSearchParams("tab=runs&view=usage&to=2026-01-31")), now)).toEqual({
      from: "2026-01-02",
      to: "2026-01-31",
      allAgents: false,
    });
    expect(
      usageRange(parseEvalUrl(new URLSearchParams("tab=runs&view=usage&from=2026-01-01&to=2026-01-07&scope=all")), now),
    ).toEqual({ from: "2026-01-01", to: "2026-01-07", allAgents: true });
    // days that do not exist, other formats and other scopes fall back to the defaults
    expect(parseEvalUrl(new URLSearchParams("tab=runs&from=2026-02-30&to=15.03.2026&scope=everyone"))).toMatchObject({
      from: undefined,
      to: undefined,
      scope: undefined,
    });
  });

  it("the Bad Case filters (status, attribution, scenario, run, set) live in the URL of the Bad Case tab only", () => {
    const s = parseEvalUrl(
      new URLSearchParams("tab=bad-cases&agent=a&status=open&cls=breakfast&run=R-7K2F9&set=s1&outcome=fixed"),
    );
    expect(withParams(s, {})).toEqual({
      tab: "bad-cases",
      agent: "a",
      status: "open",
      cls: "breakfast",
      run: "R-7K2F9",
      set: "s1",
    });
    expect(evalHref(withParams(s, {}))).toBe(
      "/eval?tab=bad-cases&agent=a&set=s1&run=R-7K2F9&status=open&cls=breakfast",
    );
  });

  it("the many-run comparison: 2 to 8 runs in the URL, its filters, the API's query", () => {
    const s = parseEvalUrl(
      new URLSearchParams("tab=runs&view=compare&runs=R-AAAAA,R-BBBBB,R-CCCCC&changed=1&failing=1&page=2"),
    );
    expect(manyRuns(s)).toEqual(["R-AAAAA", "R-BBBBB", "R-CCCCC"]);
    expect(manyQuery(s, 100)).toEqual({
      run: ["R-AAAAA", "R-BBBBB", "R-CCCCC"],
      changed: true,
      failing_latest: true,
      limit: 100,
      offset: 100,
    });
    expect(evalHref(s)).toBe("/eval?tab=runs&view=compare&runs=R-AAAAA%2CR-BBBBB%2CR-CCCCC&changed=1&failing=1&page=2");
    // they belong to the runs tab: a link from the runs list keeps them, another tab drops them
    const list = parseEvalUrl(new URLSearchParams("tab=runs&agent=a"));
    expect(nextView(list, { tab: "runs", view: "compare", runs: "R-A,R-B" })).toEqual({
      tab: "runs",
      agent: "a",
      view: "compare",
      runs: "R-A,R-B",
    });
    expect(nextView(s, { failing: undefined })).toMatchObject({ runs: "R-AAAAA,R-BBBBB,R-CCCCC", changed: "1" });
    expect(withParams(s, { tab: "sets" })).toEqual({ tab: "sets", agent: undefined });
    // one run, nine runs or a broken list fall back to no list (the page then offers the two-run pickers)
    for (const runs of ["R-AAAAA", "a,b,c,d,e,f,g,h,i", "R-A,,R-B", "R-A;R-B"])
      expect(parseEvalUrl(new URLSearchParams(`tab=runs&view=compare&runs=${runs}`)).runs).toBeUndefined();
    expect(parseEvalUrl(new URLSearchParams("tab=runs&runs=a,b&changed=yes")).changed).toBeUndefined();
  });
});
