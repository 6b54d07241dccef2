/**
 * A vitest reporter that ends the run with one line naming what was skipped for want of a tool —
 * "skipped: 12 sandbox tests (no bwrap), 3 cua tests (no chromium)" — so a machine missing a package
 * cannot pass green unnoticed. It counts the tests ./needs.ts marked; nothing else.
 */
import type { Reporter, TestModule } from "vitest/node";
import { SKIP_MARK } from "./needs.js";

/** The area a test file belongs to: src/<area>/…, test/<area>/…, or the top folder. */
function areaOf(relative: string): string {
  const parts = relative.split("/");
  return (parts[0] === "src" || parts[0] === "test") && parts.length > 2
    ? (parts[1] as string)
    : (parts[0] as string);
}

/** "skipped: N area tests (no need), …" for the marked tests of these modules, or undefined. */
export function skipSummary(
  modules: ReadonlyArray<Pick<TestModule, "relativeModuleId" | "children">>,
): string | undefined {
  const counts = new Map<string, number>();
  for (const module of modules)
    for (const test of module.children.allTests("skipped")) {
      const at = test.fullName.indexOf(SKIP_MARK);
      if (at < 0) continue;
      const need = test.fullName.slice(at + SKIP_MARK.length).split(":")[0];
      const key = `${areaOf(module.relativeModuleId)} tests (no ${need})`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  if (counts.size === 0) return undefined;
  return `skipped: ${[...counts].map(([what, n]) => `${n} ${what}`).join(", ")} — CI=true fails them instead`;
}

export default class SkipSummary implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const line = skipSummary(modules);
    if (line) process.stdout.write(`\n${line}\n`);
  }
}
