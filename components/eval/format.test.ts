import { describe, expect, it } from "vitest";
import { costNote, costText, money } from "./format";

const base = { currency: null, answering: null, judging: null, total: null, byCurrency: [], missingPrices: [] };

describe("cost for people", () => {
  it("an amount with its currency", () => {
    expect(money(0.16, "USD")).toBe("USD 0.16");
    expect(money(0.000018, "USD")).toBe("USD 0.000018");
    expect(money(1234.5, "EUR")).toBe("EUR 1,234.50");
  });
  it("names the models without a price instead of showing 0", () => {
    const cost = {
      ...base,
      byCurrency: [{ currency: "USD", answering: 1, judging: 0, total: 1 }],
      missingPrices: ["gpt-x"],
    };
    expect(costText(cost, "total")).toBe("no price for gpt-x");
    expect(costNote(cost)).toBe("no price for gpt-x; priced models: USD 1.00");
  });
  it("states a complete cost, and mixed currencies per currency", () => {
    const one = { ...base, currency: "USD", answering: 0.08, judging: 0.08, total: 0.16 };
    expect(costText(one, "judging")).toBe("USD 0.08");
    expect(costNote(one)).toBe("");
    const mixed = {
      ...base,
      byCurrency: [
        { currency: "EUR", answering: 0, judging: 6, total: 6 },
        { currency: "USD", answering: 2, judging: 0, total: 2 },
      ],
    };
    expect(costText(mixed, "total")).toBe("EUR 6.00 + USD 2.00");
    expect(costNote(mixed)).toBe("mixed currencies: summed per currency");
  });
});
