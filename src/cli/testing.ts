/** Test helpers of the CLI area: `acilab ARGV` in-process, or from source as a child process. */
import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { tsxLoaderPath } from "../tasks/index.js";
import { main } from "./main.js";

export async function runCli(
  argv: readonly string[],
  /** Told of each line of standard output as it is printed (to act mid-run). */
  onLine: (line: string) => void = () => undefined,
): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    [...argv],
    (t) => {
      out.push(t);
      onLine(t);
    },
    (t) => err.push(t),
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/**
 * `acilab ARGV` from source (through tsx) as a child process, for tests that signal or kill it. The
 * caller owns the child: kill it in the test's cleanup.
 */
export function spawnCliFromSource(
  argv: readonly string[],
  stdio: StdioOptions,
  env: NodeJS.ProcessEnv = process.env,
): ChildProcess {
  const main = fileURLToPath(new URL("./main.ts", import.meta.url));
  const code = `const m = await import(${JSON.stringify(main)}); process.exitCode = await m.main(process.argv.slice(1));`;
  return spawn(process.execPath, ["--import", tsxLoaderPath(), "--input-type=module", "-e", code, ...argv], {
    stdio,
    env,
  });
}
