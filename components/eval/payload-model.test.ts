import { describe, expect, it } from "vitest";
import { MAX_NESTED, MAX_ROWS, cellOf, describePayload, humanize, type Cell } from "./payload-model";

describe("payload model", () => {
  it("a goods_list becomes a table with its fields as columns, names and prices first", () => {
    const blocks = describePayload({
      scene: "breakfast",
      goods_list: [
        { stock: 3, price: 12, name: "葱油饼", image: "https://img.example.com/a.png" },
        { name: "豆浆", price: 4.5, url: "https://shop.example.com/d/2", tags: ["hot", "vegan"] },
      ],
    });
    expect(blocks.map((b) => b.kind)).toEqual(["fields", "table"]);
    const table = blocks[1]!;
    if (table.kind !== "table") throw new Error("not a table");
    expect(table).toMatchObject({ title: "Goods list", path: "/goods_list", total: 2 });
    expect(table.columns).toEqual(["name", "price", "stock", "url", "image", "tags"]);
    expect(table.rows[0]!.name).toEqual({ kind: "text", text: "葱油饼" });
    expect(table.rows[1]!.price).toEqual({ kind: "number", text: "4.5" });
    expect(table.rows[0]!.image).toEqual({
      kind: "image",
      text: "https://img.example.com/a.png",
      href: "https://img.example.com/a.png",
    });
    expect(table.rows[1]!.url!.kind).toBe("link");
    expect(table.rows[0]!.url).toEqual({ kind: "empty", text: "—" });
    expect(table.rows[1]!.tags).toEqual({
      kind: "list",
      text: "hot, vegan",
      items: [
        { kind: "text", text: "hot" },
        { kind: "text", text: "vegan" },
      ],
      total: 2,
    });
    expect(blocks[0]).toMatchObject({
      kind: "fields",
      entries: [{ key: "scene", label: "Scene", value: { kind: "text", text: "breakfast" } }],
    });
  });

  it("lists of plain values become chips; nested objects become their own sections; deeper values are key/value lists, never JSON", () => {
    const blocks = describePayload({
      tags: ["a", 1, true],
      coupon: { code: "X1", rule: { min: 30, off: 5, deeper: { x: { y: 1 } } } },
    });
    expect(blocks.map((b) => `${b.kind}:${b.path}`)).toEqual([
      "values:/tags",
      "fields:/coupon",
      "fields:/coupon/rule",
      "fields:/coupon/rule/deeper",
    ]);
    const deepest = blocks[3]!;
    if (deepest.kind !== "fields") throw new Error("not fields");
    expect(deepest.entries).toEqual([
      {
        key: "x",
        label: "X",
        value: {
          kind: "record",
          text: "Y: 1",
          entries: [{ key: "y", label: "Y", value: { kind: "number", text: "1" } }],
          total: 1,
        },
      },
    ]);
  });

  it("caps long lists and long text, and says how many there are", () => {
    const blocks = describePayload({ items: Array.from({ length: MAX_ROWS + 50 }, (_, i) => ({ name: `d${i}` })) });
    expect(blocks[0]).toMatchObject({ kind: "table", total: MAX_ROWS + 50 });
    if (blocks[0]!.kind === "table") expect(blocks[0]!.rows).toHaveLength(MAX_ROWS);
    expect(cellOf("x".repeat(1000)).text).toHaveLength(300);
  });

  it("nothing to show for null or an empty object; a bare list at the top is a table", () => {
    expect(describePayload(null)).toEqual([]);
    expect(describePayload({})).toEqual([]);
    expect(describePayload([{ name: "a" }])[0]).toMatchObject({ kind: "table", title: "Details", columns: ["name"] });
  });

  it("a nested object in a table cell is a key/value list; a list of objects in a cell is a small table", () => {
    const blocks = describePayload({
      goods_list: [
        {
          name: "葱油饼",
          shop: { name: "Lao Wang", distance_m: 350, open: true },
          options: [
            { size: "S", price: 6 },
            { size: "L", price: 9, note: "popular" },
          ],
        },
        { name: "豆浆", shop: null, options: [] },
      ],
    });
    const table = blocks[0]!;
    if (table.kind !== "table") throw new Error("not a table");
    expect(table.columns).toEqual(["name", "shop", "options"]);
    expect(table.rows[0]!.shop).toEqual({
      kind: "record",
      text: "Name: Lao Wang; Distance m: 350; Open: yes",
      total: 3,
      entries: [
        { key: "name", label: "Name", value: { kind: "text", text: "Lao Wang" } },
        { key: "distance_m", label: "Distance m", value: { kind: "number", text: "350" } },
        { key: "open", label: "Open", value: { kind: "bool", text: "yes" } },
      ],
    });
    const options = table.rows[0]!.options!;
    if (options.kind !== "records") throw new Error("not a nested table");
    expect(options).toMatchObject({ text: "2 items", columns: ["price", "size", "note"], total: 2 });
    expect(options.rows[1]).toEqual({
      price: { kind: "number", text: "9" },
      size: { kind: "text", text: "L" },
      note: { kind: "text", text: "popular" },
    });
    expect(options.rows[0]!.note).toEqual({ kind: "empty", text: "—" });
    // empty values say so
    expect(table.rows[1]!.shop).toEqual({ kind: "empty", text: "—" });
    expect(table.rows[1]!.options).toEqual({ kind: "empty", text: "none" });
  });

  it("mixed lists are chips of their own shapes; long nested lists are capped with the total; past three levels a cell says what is there", () => {
    const mixed = cellOf(["a", { b: 1 }, [1, 2]]);
    expect(mixed).toMatchObject({
      kind: "list",
      total: 3,
      items: [
        { kind: "text", text: "a" },
        { kind: "record", text: "B: 1" },
        { kind: "list", text: "1, 2" },
      ],
    });
    const long = cellOf(Array.from({ length: MAX_NESTED + 5 }, (_, i) => i));
    if (long.kind !== "list") throw new Error("not a list");
    expect(long.items).toHaveLength(MAX_NESTED);
    expect(long.total).toBe(MAX_NESTED + 5);
    const wide = cellOf(Object.fromEntries(Array.from({ length: MAX_NESTED + 2 }, (_, i) => [`k${i}`, i])));
    expect(wide).toMatchObject({ kind: "record", total: MAX_NESTED + 2 });
    if (wide.kind === "record") expect(wide.entries).toHaveLength(MAX_NESTED);
    // three levels of objects render; the fourth says what is there
    const at = (c: Cell, key: string): Cell => {
      if (c.kind !== "record") throw new Error(`${key}: not a record`);
      return c.entries.find((e) => e.key === key)!.value;
    };
    const deep = cellOf({ a: { b: { c: { d: 1 }, list: [1, [2, 3]] } } });
    expect(at(at(at(deep, "a"), "b"), "c")).toEqual({ kind: "more", text: "1 field (in the raw JSON)" });
    expect(at(at(deep, "a"), "b")).toMatchObject({ kind: "record", total: 2 });
    expect(at(at(at(deep, "a"), "b"), "list")).toEqual({ kind: "more", text: "2 items (in the raw JSON)" });
    // nothing anywhere renders as JSON text
    const texts = JSON.stringify(describePayload({ x: [{ y: { z: [{ w: { v: 1 } }] } }] }));
    expect(texts).not.toMatch(/"kind":"json"/);
    expect(texts).not.toMatch(/\{\\"/);
  });

  it("humanizes keys", () => {
    expect(humanize("goods_list")).toBe("Goods list");
    expect(humanize("priceCents")).toBe("Price cents");
    expect(humanize("sku-id")).toBe("Sku id");
  });
});
