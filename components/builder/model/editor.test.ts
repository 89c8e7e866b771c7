import { describe, expect, it } from "vitest";
import { Sequence, isDirty, saveBlockReason, saveStateText, validationView, type Baseline } from "./editor-status";
import { EMPTY_FINDINGS, type IndexedFindings } from "./findings";
import { canvasShortcut, leavingTo, type KeyLike } from "./keys";
import { freeSpot } from "./layout";
import { NODE_HEIGHT, NODE_WIDTH, toFlowNode, withSelection, workflowFileName } from "./workflow";

const findings = (errors: number, warnings: number): IndexedFindings => ({ ...EMPTY_FINDINGS, errors, warnings });

describe("validation badge", () => {
  it("says Checking… before the first answer, then the answer's counts", () => {
    expect(validationView(EMPTY_FINDINGS, true, null)).toEqual({
      state: "pending",
      label: "Checking…",
      tone: "neutral",
      pulse: true,
    });
    expect(validationView(findings(0, 0), false, null)).toMatchObject({
      state: "valid",
      label: "Valid",
      tone: "success",
      pulse: false,
    });
    expect(validationView(findings(0, 2), false, null)).toMatchObject({ state: "valid", label: "Valid · 2 warnings" });
    expect(validationView(findings(1, 0), false, null)).toMatchObject({
      state: "invalid",
      label: "1 error",
      tone: "danger",
    });
  });

  it("keeps the last answer's words and colour while the next check runs", () => {
    expect(validationView(findings(2, 0), true, null)).toMatchObject({
      state: "pending",
      label: "2 errors",
      tone: "danger",
      pulse: true,
    });
    expect(validationView(findings(0, 0), true, null)).toMatchObject({
      state: "pending",
      label: "Valid",
      tone: "neutral",
    });
  });

  it("says so when the server cannot validate", () => {
    expect(validationView(findings(1, 0), false, "network down")).toEqual({
      state: "error",
      label: "Validation unavailable",
      tone: "neutral",
      pulse: false,
    });
  });
});

describe("save", () => {
  const ok = {
    readOnly: false,
    name: "Agent",
    validationError: null,
    validating: false,
    errors: 0,
    saved: true,
    dirty: true,
  };

  it("is blocked for a reason people can act on, in order", () => {
    expect(saveBlockReason(ok)).toBeNull();
    expect(saveBlockReason({ ...ok, readOnly: true, name: "" })).toBe("Your role can view this agent but not save it.");
    expect(saveBlockReason({ ...ok, name: "  " })).toBe("Give the agent a name first.");
    expect(saveBlockReason({ ...ok, validationError: "x", validating: true })).toBe(
      "Validation is unavailable right now; saving needs a valid workflow.",
    );
    expect(saveBlockReason({ ...ok, validating: true, errors: 2 })).toBe("Checking the workflow…");
    expect(saveBlockReason({ ...ok, errors: 1 })).toBe("Fix 1 error before saving (see Issues).");
    expect(saveBlockReason({ ...ok, errors: 3 })).toBe("Fix 3 errors before saving (see Issues).");
    expect(saveBlockReason({ ...ok, dirty: false })).toBe("No unsaved changes.");
    // A new agent can be created as it is.
    expect(saveBlockReason({ ...ok, saved: false, dirty: false })).toBeNull();
  });

  it("states the save state beside the name", () => {
    expect(saveStateText(null, true)).toBe("Draft · not saved yet");
    expect(saveStateText(3, false)).toBe("v3 · saved");
    expect(saveStateText(3, true)).toBe("v3 · unsaved changes");
  });
});

describe("unsaved work", () => {
  const base: Baseline = { json: "A", name: "Agent", version: 2 };
  const opened = { key: "A", name: "Agent", fromDraft: false };

  it("is measured against the saved version (the name trimmed)", () => {
    expect(isDirty({ key: "A", name: " Agent " }, base, opened)).toBe(false);
    expect(isDirty({ key: "B", name: "Agent" }, base, opened)).toBe(true);
    expect(isDirty({ key: "A", name: "Other" }, base, opened)).toBe(true);
  });

  it("is measured against what a new agent opened with; a restored draft is unsaved from the start", () => {
    expect(isDirty({ key: "A", name: "Agent" }, null, opened)).toBe(false);
    expect(isDirty({ key: "A", name: "Agent2" }, null, opened)).toBe(true);
    expect(isDirty({ key: "A", name: "Agent" }, null, { ...opened, fromDraft: true })).toBe(true);
  });
});

describe("latest answer wins", () => {
  it("knows whether a request is still the latest", () => {
    const seq = new Sequence();
    const a = seq.next();
    expect(seq.isLatest(a)).toBe(true);
    const b = seq.next();
    expect(seq.isLatest(a)).toBe(false);
    expect(seq.isLatest(b)).toBe(true);
  });
});

describe("canvas shortcuts", () => {
  const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({
    key: k,
    ctrlKey: true,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...mods,
  });
  const canvas = { previewOpen: false, inTextField: false, inCodeField: false };

  it("maps Ctrl or Cmd with S, Z, Shift+Z, Y, C, V", () => {
    expect(canvasShortcut(key("s"), canvas)).toBe("save");
    expect(canvasShortcut(key("S", { ctrlKey: false, metaKey: true }), canvas)).toBe("save");
    expect(canvasShortcut(key("z"), canvas)).toBe("undo");
    expect(canvasShortcut(key("Z", { shiftKey: true }), canvas)).toBe("redo");
    expect(canvasShortcut(key("y"), canvas)).toBe("redo");
    expect(canvasShortcut(key("c"), canvas)).toBe("copy");
    expect(canvasShortcut(key("v"), canvas)).toBe("paste");
    expect(canvasShortcut(key("x"), canvas)).toBeNull();
    expect(canvasShortcut(key("z", { ctrlKey: false }), canvas)).toBeNull();
    expect(canvasShortcut(key("z", { altKey: true }), canvas)).toBeNull();
  });

  it("saves from anywhere but leaves text fields their keys, except undo/redo in code fields", () => {
    const text = { ...canvas, inTextField: true };
    const code = { ...canvas, inTextField: true, inCodeField: true };
    expect(canvasShortcut(key("s"), text)).toBe("save");
    expect(canvasShortcut(key("z"), text)).toBeNull();
    expect(canvasShortcut(key("c"), text)).toBeNull();
    expect(canvasShortcut(key("z"), code)).toBe("undo");
    expect(canvasShortcut(key("y"), code)).toBe("redo");
    expect(canvasShortcut(key("v"), code)).toBeNull();
  });

  it("does nothing but save while a version preview is open", () => {
    const preview = { ...canvas, previewOpen: true };
    expect(canvasShortcut(key("s"), preview)).toBe("save");
    expect(canvasShortcut(key("z"), preview)).toBeNull();
    expect(canvasShortcut(key("v"), preview)).toBeNull();
  });
});

describe("leaving the canvas by a link", () => {
  const here = "http://app.test/builder/abc?created=1";
  const click = { defaultPrevented: false, button: 0, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false };
  const link = (href: string, more: Partial<{ target: string; download: boolean }> = {}) => ({
    href,
    target: "",
    download: false,
    ...more,
  });

  it("is another page of the app, followed in this tab", () => {
    expect(leavingTo(link("http://app.test/builder"), click, here)?.pathname).toBe("/builder");
    expect(leavingTo(link("/settings"), click, here)?.pathname).toBe("/settings");
  });

  it("is not the same page, another site, a new tab, a download or a handled click", () => {
    expect(leavingTo(link("/builder/abc?x=1"), click, here)).toBeNull();
    expect(leavingTo(link("https://example.com/"), click, here)).toBeNull();
    expect(leavingTo(link("/builder", { target: "_blank" }), click, here)).toBeNull();
    expect(leavingTo(link("/builder"), { ...click, ctrlKey: true }, here)).toBeNull();
    expect(leavingTo(link("/builder"), { ...click, button: 1 }, here)).toBeNull();
    expect(leavingTo(link("/builder"), { ...click, defaultPrevented: true }, here)).toBeNull();
    expect(leavingTo(link("blob:http://app.test/1234", { download: true }), click, here)).toBeNull();
    expect(leavingTo(link("blob:http://app.test/1234"), click, here)).toBeNull();
  });
});

describe("placement and files", () => {
  it("puts a new node where it overlaps no other, nearest to where it was wanted", () => {
    const at = (id: string, x: number, y: number) => toFlowNode({ id, type: "end", config: {}, position: { x, y } });
    expect(freeSpot({ x: 0, y: 0 }, [])).toEqual({ x: 0, y: 0 });
    const below = freeSpot({ x: 0, y: 0 }, [at("a", 0, 0)]);
    expect(below).toEqual({ x: 0, y: NODE_HEIGHT + 24 });
    const spot = freeSpot({ x: 0, y: 0 }, [at("a", 0, 0), at("b", 0, NODE_HEIGHT + 24)]);
    expect(spot).toEqual({ x: 0, y: -(NODE_HEIGHT + 24) });
    expect(NODE_WIDTH).toBeGreaterThan(0);
  });

  it("selects exactly the given nodes and keeps the others' identity", () => {
    const nodes = [{ id: "a", selected: true }, { id: "b", selected: false }, { id: "c" }];
    const next = withSelection(nodes, new Set(["b"]));
    expect(next.map((n) => !!n.selected)).toEqual([false, true, false]);
    expect(next[2]).toBe(nodes[2]);
  });

  it("names an export after the agent", () => {
    expect(workflowFileName("My Agent v2!")).toBe("my-agent-v2.workflow.json");
    expect(workflowFileName("  ")).toBe("workflow.workflow.json");
  });
});
