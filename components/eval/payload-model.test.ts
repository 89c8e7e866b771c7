import { describe, expect, it } from "vitest";
import { MAX_ROWS, cellOf, describePayload, humanize } from "./payload-model";

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
    expect(table.rows[0]!.image).toEqual({ kind: "image", text: "https://img.example.com/a.png", href: "https://img.example.com/a.png" });
    expect(table.rows[1]!.url!.kind).toBe("link");
    expect(table.rows[0]!.url).toEqual({ kind: "empty", text: "—" });
    expect(table.rows[1]!.tags).toEqual({ kind: "list", text: "hot, vegan", items: ["hot", "vegan"] });
    expect(cellOf([{ a: 1 }])).toEqual({ kind: "json", text: '[{"a":1}]' });
    expect(blocks[0]).toMatchObject({ kind: "fields", entries: [{ key: "scene", label: "Scene", value: { kind: "text", text: "breakfast" } }] });
  });

  it("lists of plain values become chips; nested objects become their own sections; deep values stay compact JSON", () => {
    const blocks = describePayload({ tags: ["a", 1, true], coupon: { code: "X1", rule: { min: 30, off: 5, deeper: { x: { y: 1 } } } } });
    expect(blocks.map((b) => `${b.kind}:${b.path}`)).toEqual(["values:/tags", "fields:/coupon", "fields:/coupon/rule", "fields:/coupon/rule/deeper"]);
    const deepest = blocks[3]!;
    if (deepest.kind !== "fields") throw new Error("not fields");
    expect(deepest.entries).toEqual([{ key: "x", label: "X", value: { kind: "json", text: '{"y":1}' } }]);
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

  it("humanizes keys", () => {
    expect(humanize("goods_list")).toBe("Goods list");
    expect(humanize("priceCents")).toBe("Price cents");
    expect(humanize("sku-id")).toBe("Sku id");
  });
});
