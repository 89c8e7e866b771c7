/** The evaluation center over REST, one file per resource (mirroring app/api/eval/). */
export * from "./meta";
export * from "./sets";
export * from "./versions";
export * from "./samples";
export * from "./runs";
export * from "./items";
export * from "./reports";
export * from "./bad-cases";
export * from "./usage";
export * from "./online";
export * from "./shadow";
export * from "./prices";
