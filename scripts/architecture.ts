// `npm run architecture`: checks the import rules (.dependency-cruiser.cjs) and prints the floors of server/ as a
// Mermaid graph; `-- --write` puts the graph into ARCHITECTURE.md (server/architecture.test.ts compares the two).
import fs from "node:fs";
import path from "node:path";
import { ROOT, cruiseApp, describeViolation, floorDrawing } from "./lib/architecture";

const result = await cruiseApp();
const drawing = floorDrawing(result);
console.log(drawing);
for (const v of result.summary.violations) console.error(`violation ${describeViolation(v)}`);
if (process.argv.includes("--write")) {
  const file = path.join(ROOT, "ARCHITECTURE.md");
  const doc = fs.readFileSync(file, "utf8");
  if (!/```mermaid\n[\s\S]*?```/.test(doc)) throw new Error("ARCHITECTURE.md has no ```mermaid block to replace");
  fs.writeFileSync(file, doc.replace(/```mermaid\n[\s\S]*?```/, `\`\`\`mermaid\n${drawing}\n\`\`\``));
  console.error("ARCHITECTURE.md updated");
}
process.exit(result.summary.violations.length ? 1 : 0);
