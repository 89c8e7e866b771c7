#!/usr/bin/env node
// npm bin entry: runs scripts/flowbench-eval.ts through tsx (a dependency), so `npx flowbench-eval run …` works without a build step.
import { register } from "tsx/esm/api";

register();
await import("../scripts/flowbench-eval.ts");
