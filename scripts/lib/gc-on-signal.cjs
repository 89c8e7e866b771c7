// Preloaded into a benchmark's server (`node --expose-gc --require scripts/lib/gc-on-signal.cjs`): SIGUSR2 runs a full
// garbage collection, so a memory reading afterwards counts what is alive, not garbage not yet collected
// (scripts/bench-memory.ts). Never loaded by the product.
process.on("SIGUSR2", () => {
  if (typeof global.gc === "function") global.gc();
});
