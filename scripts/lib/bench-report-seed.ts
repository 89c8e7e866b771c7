/** The report benchmarks' questions and answers (scripts/bench-eval.ts and its child, bench-report-child.ts). */
export function reportSeed(n: number) {
  const samples = Array.from({ length: n }, (_, i) => ({
    key: `q${String(i + 1).padStart(5, "0")}`,
    question: `Question ${i + 1}: recommend a breakfast dish and mention the price`,
    expected_points: ["recommends a breakfast dish", "mentions the price"],
    classification: ["breakfast", "lunch", "price", "coupon"][i % 4],
  }));
  const answers = samples.map((s, i) => ({
    key: s.key,
    answer:
      i % 10 === 0
        ? "Sorry, I cannot help."
        : i % 7 === 0
          ? "I recommend something tasty."
          : "I recommend the scallion pancake breakfast dish; the price is 12 yuan.",
    latencyMs: 100 + (i % 900),
  }));
  return { samples, answers };
}
