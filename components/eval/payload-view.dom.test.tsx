// @vitest-environment happy-dom
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import { PayloadView, ValueView } from "./payload-view";

/** PayloadView rendered in a DOM: what a person sees (tables, key/value lists, chips), and the raw JSON one click away. */
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

const PAYLOAD = {
  scene: "breakfast",
  goods_list: [
    {
      name: "葱油饼",
      price: 8,
      shop: { name: "Lao Wang", distance_m: 350 },
      options: [
        { size: "S", price: 6 },
        { size: "L", price: 9 },
      ],
      tags: ["hot", "vegan"],
    },
    { name: "豆浆", price: 4, shop: null, options: [], tags: [] },
  ],
};

const text = (el: Element | null | undefined) => (el?.textContent ?? "").replace(/\s+/g, " ").trim();

describe("PayloadView (rendered)", () => {
  it("a goods_list is a table with its fields as columns; nested values are key/value lists, small tables and chips, never JSON", () => {
    const el = render(<PayloadView payload={PAYLOAD} />);
    expect(text(el.querySelector("h4"))).toBe("Structured answer");
    const table = el.querySelector("section[aria-label='Goods list'] table")!;
    expect(table).not.toBeNull();
    expect([...table.querySelectorAll(":scope > thead th")].map(text)).toEqual([
      "Name",
      "Price",
      "Shop",
      "Options",
      "Tags",
    ]);
    const firstRow = table.querySelectorAll(":scope > tbody > tr")[0]!;
    const cells = firstRow.querySelectorAll(":scope > td");
    expect(text(cells[0])).toBe("葱油饼");
    // the shop: a key/value list inside the cell
    const shop = cells[2]!.querySelector("dl")!;
    expect([...shop.querySelectorAll("dt")].map(text)).toEqual(["Name", "Distance m"]);
    expect([...shop.querySelectorAll("dd")].map(text)).toEqual(["Lao Wang", "350"]);
    // the options: a nested table with its own header
    const nested = cells[3]!.querySelector("table")!;
    expect([...nested.querySelectorAll("th")].map(text)).toEqual(["Price", "Size"]);
    expect([...nested.querySelectorAll("tbody tr")].map(text)).toEqual(["6S", "9L"]);
    // tags: chips
    expect([...cells[4]!.querySelectorAll(":scope > span > span")].map(text)).toEqual(["hot", "vegan"]);
    // empty values say so
    const second = table.querySelectorAll(":scope > tbody > tr")[1]!.querySelectorAll(":scope > td");
    expect(text(second[2])).toBe("—");
    expect(text(second[3])).toBe("none");
    // a plain field of the payload
    expect(text(el.querySelector("dl dt"))).toBe("Scene");
    // no raw JSON where a person reads
    expect(el.querySelector("pre")).toBeNull();
    expect(el.textContent).not.toMatch(/[{[]"/);
  });

  it("Raw JSON is one click away and back; a controlled toggle (R in the annotation view) works the same", () => {
    const el = render(<PayloadView payload={PAYLOAD} />);
    const button = el.querySelector<HTMLButtonElement>("button[aria-pressed]")!;
    expect(button.getAttribute("aria-label")).toBe("Raw JSON of the structured answer");
    expect(button.getAttribute("aria-pressed")).toBe("false");
    act(() => button.click());
    expect(button.getAttribute("aria-pressed")).toBe("true");
    expect(JSON.parse(el.querySelector("pre")!.textContent!)).toEqual(PAYLOAD);
    expect(el.querySelector("table")).toBeNull();
    act(() => button.click());
    expect(el.querySelector("pre")).toBeNull();

    const controlled = render(<PayloadView payload={PAYLOAD} raw onToggleRaw={() => undefined} />);
    expect(controlled.querySelector("pre")).not.toBeNull();
  });

  it("a trace step's input: its own title, a plain value wrapped; nothing for an empty payload", () => {
    const el = render(
      <PayloadView
        title="Input"
        payload={{ query: "vegan breakfast", filters: { max_price: 20, tags: ["vegan"] } }}
        compact
      />,
    );
    expect(text(el.querySelector("h4"))).toBe("Input");
    expect(el.querySelector("button")!.getAttribute("aria-label")).toBe("Raw JSON of the input");
    expect(text(el.querySelector("section[aria-label='Filters']"))).toBe("FiltersMax price20");
    expect([...el.querySelectorAll("section[aria-label='Tags'] li")].map(text)).toEqual(["vegan"]);
    expect(render(<PayloadView payload={{}} />).innerHTML).toBe("");
    const value = render(<ValueView value={{ a: [{ b: 1 }] }} />);
    expect(value.querySelector("dl dt")!.textContent).toBe("A");
    expect(value.querySelector("table th")!.textContent).toBe("B");
  });
});
