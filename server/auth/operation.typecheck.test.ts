import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The compiler refuses an operation whose answer does not match its output schema: `operation.typecheck.ts` holds such
 * operations, each under a `@ts-expect-error` line. Compiled here with the project's options, it must give no
 * diagnostic at all: a wrong answer the compiler accepted would leave its `@ts-expect-error` unused (TS2578), and a
 * right one it refused would be an error of its own. (The whole tree's `tsc --noEmit` and `next build` see the file
 * too; this check is the one `npm test`'s unit stage runs every time.)
 */
const FILE = path.join(import.meta.dirname, "operation.typecheck.ts");

function diagnostics(file: string): string[] {
  const root = path.resolve(import.meta.dirname, "../..");
  const config = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const program = ts.createProgram([file], { ...options, noEmit: true, incremental: false, plugins: [] });
  // this file's own diagnostics only: the checker then types just what it uses of the imports
  const source = program.getSourceFile(file)!;
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
    (d) =>
      `${d.file ? path.relative(root, d.file.fileName) : ""} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
  );
}

describe("typed answers", () => {
  it("every wrong answer in operation.typecheck.ts is a compile error, every right one compiles", () => {
    expect(diagnostics(FILE)).toEqual([]);
  }, 120_000);
});
