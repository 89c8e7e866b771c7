#!/usr/bin/env node
// npm bin entry: runs scripts/check_eval_golden_gate.ts through tsx (a dependency), so `npx check_eval_golden_gate` works without a build step.
import { register } from "tsx/esm/api";

register();
await import("../scripts/check_eval_golden_gate.ts");
