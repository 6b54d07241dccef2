import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { packageRoot } from "../src/tasks/index.js";
import { type BenchRow, summarise } from "./stats.js";

const RUNS = 7;

/**
 * How long the CLI takes to be ready: `acilab grade --help` (a command that loads the grader, the
 * tasks and the run settings, and prints) against a bare `node -e 0`, alternating so load hits both.
 * Target: at most 1 s over bare Node — it was 1.3 s of CPU before Playwright and BullMQ were loaded
 * only by the commands that use them. Needs the build (dist/).
 */
export function benchCliStart(): BenchRow[] {
  const cli = join(packageRoot(), "bin", "acilab.js");
  const bare: number[] = [];
  const help: number[] = [];
  const timed = (args: string[]) => {
    const t = performance.now();
    execFileSync(process.execPath, args, { stdio: "ignore" });
    return performance.now() - t;
  };
  for (let i = 0; i < RUNS; i++) {
    bare.push(timed(["-e", "0"]));
    help.push(timed([cli, "grade", "--help"]));
  }
  const over = help.map((h, i) => h - (bare[i] ?? 0));
  return [
    summarise("cli: node -e 0", bare),
    summarise("cli: acilab grade --help", help),
    summarise("cli: start-up over bare node", over, 1000),
  ];
}
