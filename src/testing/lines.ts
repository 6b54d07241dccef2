/**
 * A child process's output as lines, for tests and benchmarks that act on what it says: every line
 * kept, and a promise for the first line matching a pattern (already printed or still to come).
 */
import type { ChildProcess } from "node:child_process";

export interface WatchedLines {
  lines: string[];
  /** The first line matching `re`; rejects if the process exits first. */
  line(re: RegExp): Promise<string>;
  exited: Promise<number | null>;
}

export function watchLines(child: ChildProcess): WatchedLines {
  const lines: string[] = [];
  const waiting: Array<{ re: RegExp; resolve: (l: string) => void }> = [];
  let partial = "";
  const take = (chunk: Buffer) => {
    partial += chunk.toString();
    const parts = partial.split("\n");
    partial = parts.pop() ?? "";
    for (const l of parts) {
      lines.push(l);
      for (const w of [...waiting])
        if (w.re.test(l)) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve(l);
        }
    }
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  // "close" comes once the process has exited and its output is all read: the last word is in.
  const closed = new Promise<void>((r) => child.once("close", () => r()));
  return {
    lines,
    exited,
    line: (re) => {
      const found = lines.find((l) => re.test(l));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        waiting.push({ re, resolve });
        void closed.then(() =>
          reject(
            new Error(
              `exited (${child.exitCode ?? child.signalCode}) before a line matching ${re}:\n${lines.join("\n")}`,
            ),
          ),
        );
      });
    },
  };
}
