#!/usr/bin/env node
// npm bin entry: runs scripts/check_eval_wave_c_size.ts through tsx (a dependency), so `npx check_eval_wave_c_size` works without a build step.
import { register } from "tsx/esm/api";

register();
await import("../scripts/check_eval_wave_c_size.ts");
