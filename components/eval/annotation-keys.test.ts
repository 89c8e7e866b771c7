import { describe, expect, it } from "vitest";
import { SHORTCUTS, actionFor, neighbour, nextOpenItem, windowNav } from "./annotation-keys";

describe("annotation keyboard", () => {
  it("P pass, F fail, J/K and arrows move, N next open, R raw JSON, ? help", () => {
    expect(["p", "P", "f", "j", "ArrowDown", "k", "ArrowUp", "n", "r", "?"].map((key) => actionFor({ key }))).toEqual([
      "pass",
      "pass",
      "fail",
      "next",
      "next",
      "prev",
      "prev",
      "nextOpen",
      "raw",
      "help",
    ]);
    expect(actionFor({ key: "x" })).toBeNull();
  });

  it("C comments on the verdict, U takes back one's last verdict", () => {
    expect(["c", "C", "u", "U"].map((key) => actionFor({ key }))).toEqual(["comment", "comment", "undo", "undo"]);
    expect(actionFor({ key: "u", target: { tagName: "TEXTAREA" } })).toBeNull();
  });

  it("never fires while typing, inside a dialog, with a modifier or with a dialog open", () => {
    expect(actionFor({ key: "p", target: { tagName: "INPUT" } })).toBeNull();
    expect(actionFor({ key: "p", target: { tagName: "textarea" } })).toBeNull();
    expect(actionFor({ key: "p", target: { tagName: "SELECT" } })).toBeNull();
    expect(actionFor({ key: "p", target: { tagName: "DIV", isContentEditable: true } })).toBeNull();
    expect(
      actionFor({
        key: "p",
        target: { tagName: "BUTTON", closest: (s: string) => (s.includes("dialog") ? {} : null) },
      }),
    ).toBeNull();
    expect(actionFor({ key: "p", ctrlKey: true })).toBeNull();
    expect(actionFor({ key: "p", metaKey: true })).toBeNull();
    expect(actionFor({ key: "p" }, { dialogOpen: true })).toBeNull();
    expect(actionFor({ key: "p", target: { tagName: "BUTTON", closest: () => null } })).toBe("pass");
  });

  it("every action has a documented shortcut", () => {
    expect(new Set(SHORTCUTS.map((s) => s.action))).toEqual(
      new Set(["pass", "fail", "comment", "undo", "next", "prev", "nextOpen", "raw", "help"]),
    );
  });

  it("after a verdict the view goes to the next item without one, wrapping to the top, or nowhere", () => {
    const items = [
      { id: "a", verdict: null },
      { id: "b", verdict: "pass" },
      { id: "c", verdict: null },
      { id: "d", verdict: "fail" },
    ];
    expect(nextOpenItem(items, "a")?.id).toBe("c");
    expect(nextOpenItem(items, "c")?.id).toBe("a");
    expect(nextOpenItem(items, undefined)?.id).toBe("a");
    expect(
      nextOpenItem(
        items.map((i) => ({ ...i, verdict: "pass" })),
        "a",
      ),
    ).toBeNull();
  });

  it("J/K move one item and stop at the ends", () => {
    const items = [{ id: "a" }, { id: "b" }, { id: "c" }];
    expect(neighbour(items, "a", 1)?.id).toBe("b");
    expect(neighbour(items, "c", 1)?.id).toBe("c");
    expect(neighbour(items, "a", -1)?.id).toBe("a");
    expect(neighbour(items, "zzz", 1)?.id).toBe("a");
    expect(neighbour([], "a", 1)).toBeNull();
  });
});

describe("windowNav: J/K around an item the list has not loaded", () => {
  const rows = (...ids: string[]) => ids.map((id) => ({ id }));
  const w = {
    itemId: "i150",
    position: 150,
    firstPosition: 148,
    before: rows("i148", "i149"),
    after: rows("i151", "i152"),
  };
  it("the window's item: its place and the items beside it", () => {
    expect(windowNav(w, "i150")).toEqual({ position: 150, prev: { id: "i149" }, next: { id: "i151" } });
  });
  it("an item listed around it (after J or K): its place and neighbours from the same window", () => {
    expect(windowNav(w, "i151")).toEqual({ position: 151, prev: { id: "i150" }, next: { id: "i152" } });
    expect(windowNav(w, "i148")).toEqual({ position: 148, prev: null, next: { id: "i149" } });
    expect(windowNav(w, "i152")).toEqual({ position: 152, prev: { id: "i151" }, next: null });
    expect(windowNav(w, "i999")).toBeNull();
  });
  it("a window item the filters do not list is skipped when moving from its neighbours, but placed nowhere when open", () => {
    const off = { ...w, position: null, firstPosition: 60 };
    expect(windowNav(off, "i150")).toEqual({ position: null, prev: { id: "i149" }, next: { id: "i151" } });
    expect(windowNav(off, "i149")).toEqual({ position: 61, prev: { id: "i148" }, next: { id: "i151" } });
    expect(windowNav(off, "i151")).toEqual({ position: 62, prev: { id: "i149" }, next: { id: "i152" } });
  });
});
