/**
 * Tokenisation for the built-in judge (pure). Chinese, Japanese and English text is segmented with
 * `Intl.Segmenter` (word granularity, ICU dictionaries), never split on whitespace alone. Tokens are
 * normalised (NFKC, lower case), English words get a light stemmer, stop words and instruction words
 * ("mentions", "提到") are dropped, and runs of single Han characters are merged back ("菜|品" -> "菜品").
 */
const segmenter = new Intl.Segmenter("zh", { granularity: "word" });
const HAN = /\p{Script=Han}/u;
const LATIN_WORD = /^[a-z][a-z'-]*$/;

const EN_STOP = new Set(
  (
    "a an the of to in on at for and or nor but is are was were be been being am it its this that these those with as by from about " +
    "any some all should must shall would could can may might will do does did done has have had i you he she we they them their our your my " +
    "me us his her there here than then so such very also just only not no yes into onto over under up down out more most less least one two " +
    "answer response reply user question what which who whom whose when where why how if whether whatever"
  ).split(" "),
);
/** Words that say what the answer should do, not what it should contain. */
const EN_META = new Set(
  "mention mentions mentioned mentioning include includes included including state states stated say says said tell tells told give gives given provide provides provided explain explains explained describe describes described list lists listed contain contains contained refer refers note notes point points show shows shown indicate indicates indicated clearly correctly correct properly".split(
    " ",
  ),
);
const ZH_STOP = new Set(
  "的 了 是 在 和 与 及 或 有 把 被 对 给 将 要 会 能 应 该 应该 需要 回答 答案 提到 提及 包含 包括 说明 给出 指出 告知 告诉 用户 一个 一些 等 吗 呢 吧 啊 并 也 都 就 还 让 向 为 您 你 我 我们 他 她 它 这 那 这个 那个 些 个 其 之 所 以 及其 并且 而且 或者 是否 正确 明确 清楚 了解 知道 能够 可以".split(
    " ",
  ),
);

/** Concepts: bilingual synonym groups so "price" matches "costs $5" and "价格" matches "12元". */
const CONCEPTS: Record<string, string[]> = {
  price: [
    "price",
    "prices",
    "priced",
    "cost",
    "costs",
    "pricing",
    "fee",
    "价格",
    "价钱",
    "售价",
    "多少钱",
    "费用",
    "价位",
    "报价",
  ],
  recommend: [
    "recommend",
    "recommends",
    "recommended",
    "recommendation",
    "suggest",
    "suggests",
    "suggested",
    "suggestion",
    "推荐",
    "建议",
    "推介",
  ],
  breakfast: ["breakfast", "早餐", "早饭", "早点"],
  lunch: ["lunch", "午餐", "午饭", "中餐"],
  dinner: ["dinner", "supper", "晚餐", "晚饭"],
  coupon: [
    "coupon",
    "coupons",
    "voucher",
    "vouchers",
    "discount",
    "discounts",
    "优惠券",
    "优惠",
    "折扣",
    "代金券",
    "券",
  ],
  delivery: ["delivery", "deliver", "shipping", "ship", "配送", "送达", "外卖", "快递"],
  stock: ["stock", "inventory", "available", "availability", "库存", "有货", "现货"],
  time: ["time", "hours", "schedule", "时间", "营业时间", "时段"],
  address: ["address", "location", "地址", "位置", "地点"],
  refund: ["refund", "refunds", "退款", "退货"],
};
/** Generic item nouns: covered when the answer enumerates items (a list), e.g. "推荐了早餐菜品" vs "豆浆、油条". */
const GENERIC_ITEMS = new Set([
  "菜品",
  "菜",
  "菜肴",
  "菜式",
  "餐品",
  "商品",
  "产品",
  "物品",
  "选项",
  "dish",
  "meal",
  "food",
  "item",
  "product",
  "option",
  "goods",
]);
CONCEPTS.dish = ["dish", "dishes", "meal", "meals", "food", "菜品", "菜肴", "菜式", "餐品", "菜"];

const conceptOf = new Map<string, string>();
for (const [id, words] of Object.entries(CONCEPTS)) for (const w of words) if (!conceptOf.has(w)) conceptOf.set(w, id);
const MONEY = /[$¥￥€£]\s?\d|\d+(?:\.\d+)?\s?(?:元|块|角|yuan|rmb|usd|dollars?|euros?)\b|\d+(?:\.\d+)?\s?元/iu;

export function normalize(text: string): string {
  return text.normalize("NFKC").toLocaleLowerCase();
}

/** Light English stemmer: plural, -ing, -ed (enough to match "prices"/"price", "recommended"/"recommend"). */
export function stem(word: string): string {
  let w = word.replace(/'s$/, "");
  if (!LATIN_WORD.test(w) || w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith("sses")) return w.slice(0, -2);
  if (/(ss|us|is)$/.test(w)) return w;
  if (/(x|z|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith("s")) w = w.slice(0, -1);
  else if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
  else return w;
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  return w;
}

export type Token = { text: string; stem: string; han: boolean; concept?: string; generic: boolean; numeric: boolean };

function makeToken(text: string): Token {
  const han = HAN.test(text);
  const s = han ? text : stem(text);
  return {
    text,
    stem: s,
    han,
    concept: conceptOf.get(text) ?? conceptOf.get(s),
    generic: GENERIC_ITEMS.has(text) || GENERIC_ITEMS.has(s),
    numeric: /^\d+(?:[.,]\d+)?$/.test(text),
  };
}

/** Word-like segments, normalised, without stop words or instruction words; single Han characters re-joined. */
export function contentTokens(input: string): Token[] {
  const text = normalize(input);
  const segs = [...segmenter.segment(text)];
  const words = segs
    .filter((s) => s.isWordLike && s.segment.trim())
    .map((s) => ({ text: s.segment.trim(), index: s.index }));
  const single = (w: { text: string } | undefined) => !!w && [...w.text].length === 1 && HAN.test(w.text);
  const kept: Array<{ text: string; index: number }> = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    // instruction words the segmenter split into single characters ("给|出", "提|及")
    if (single(w) && single(next) && next!.index === w.index + w.text.length && ZH_STOP.has(w.text + next!.text)) {
      i++;
      continue;
    }
    if (ZH_STOP.has(w.text) || EN_STOP.has(w.text) || EN_META.has(w.text)) continue;
    kept.push(w);
  }
  // merge adjacent single Han characters ("菜" "品" -> "菜品"); adjacency = no gap in the original text
  const merged: string[] = [];
  let prevEnd = -1;
  let lastIsSingleRun = false;
  for (const k of kept) {
    const one = single(k);
    if (one && lastIsSingleRun && k.index === prevEnd) merged[merged.length - 1] += k.text;
    else merged.push(k.text);
    lastIsSingleRun = one;
    prevEnd = k.index + k.text.length;
  }
  return merged.map(makeToken);
}

/** What an answer offers to match against. */
export type AnswerIndex = {
  text: string;
  compact: string;
  stems: Set<string>;
  concepts: Set<string>;
  hasList: boolean;
};

export function indexAnswer(answer: string, extraListItems = 0): AnswerIndex {
  const text = normalize(answer);
  const compact = text.replace(/\s+/g, "");
  const tokens = contentTokens(answer);
  const stems = new Set(tokens.map((t) => t.stem));
  const concepts = new Set<string>();
  for (const t of tokens) if (t.concept) concepts.add(t.concept);
  for (const [word, id] of conceptOf) if (HAN.test(word) && compact.includes(word)) concepts.add(id);
  if (MONEY.test(text)) concepts.add("price");
  const bullets = text.split(/\n/).filter((l) => /^\s*(?:[-*•·]|\d+[.)、．]|[（(]?\d+[)）])\s*\S/.test(l)).length;
  const enumerated = /[^、,，;；\s]{1,30}[、,，;；][^、,，;；\s]{1,30}/.test(text);
  return { text, compact, stems, concepts, hasList: bullets >= 2 || enumerated || extraListItems >= 2 };
}

/** Credit (0..1) one point token earns against the answer. */
export function tokenCredit(t: Token, a: AnswerIndex): number {
  if (t.concept && a.concepts.has(t.concept)) return 1;
  if (t.han) {
    if (a.compact.includes(t.text)) return 1;
    if (t.generic && a.hasList) return 1;
    const chars = [...t.text];
    const hit = chars.filter((c) => a.compact.includes(c)).length;
    return chars.length >= 2 && hit / chars.length >= 0.5 ? 0.5 : 0;
  }
  if (t.numeric) return a.compact.includes(t.text) ? 1 : 0;
  if (a.stems.has(t.stem) || a.stems.has(t.text)) return 1;
  if (t.generic && a.hasList) return 1;
  // a long word sharing its first 5 letters with an answer word ("availability" / "available")
  if (t.stem.length >= 6)
    for (const s of a.stems) if (s.length >= 5 && s.slice(0, 5) === t.stem.slice(0, 5)) return 0.5;
  return 0;
}
