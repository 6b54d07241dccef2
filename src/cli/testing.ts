/** Test helper of the CLI area: run `acilab ARGV` in-process and keep what it printed. */
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
