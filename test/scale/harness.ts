/**
 * Real processes for the scale-out tests: `acilab worker`s and coordinators from source, their output
 * read line by line, and the experiment store read from outside (as an operator would).
 */
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import Database from "better-sqlite3";
import { spawnCliFromSource } from "../../src/cli/testing.js";
import type { AttemptRow } from "../../src/experiment/index.js";
import { watchLines } from "../../src/testing/lines.js";

export interface Proc {
  child: ChildProcess;
  lines: string[];
  /** Resolves with the first line matching `re` (already printed or to come). */
  line(re: RegExp): Promise<string>;
  exited: Promise<number | null>;
  kill9(): Promise<void>;
}

/**
 * The processes one test starts, killed together when it ends: concurrent tests in a file each kill
 * only their own (vitest's `onTestFinished` from the test's context, or a file's `afterAll`).
 */
export class Processes {
  private readonly live = new Set<ChildProcess>();

  spawn(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Proc {
    const child = spawnCliFromSource(argv, ["ignore", "pipe", "pipe"], env);
    this.live.add(child);
    const watched = watchLines(child);
    void watched.exited.then(() => this.live.delete(child));
    return {
      child,
      ...watched,
      kill9: async () => {
        child.kill("SIGKILL");
        await watched.exited;
      },
    };
  }

  worker(url: string, extra: readonly string[] = [], env?: NodeJS.ProcessEnv): Proc {
    return this.spawn(["worker", "--redis", url, "--concurrency", "1", ...FAST, ...extra], env);
  }

  async killAll(): Promise<void> {
    await Promise.all(
      [...this.live].map(
        (c) =>
          new Promise<void>((r) => {
            if (c.exitCode !== null || c.signalCode !== null) return r();
            c.once("exit", () => r());
            c.kill("SIGKILL");
          }),
      ),
    );
  }
}

/**
 * Short locks so a dead worker's job moves on in seconds, not the default 15 — but not so short that
 * a worker on a loaded machine misses a renewal and loses a job it is still running.
 */
export const FAST = ["--lock-seconds", "5", "--stalled-seconds", "1"];

/** For tests that count how often a job ran, or drain one: locks no load can let lapse. */
export const STEADY = ["--lock-seconds", "60"];

export function rows(dir: string): AttemptRow[] {
  let db: Database.Database;
  try {
    db = new Database(join(dir, "experiment.db"), { readonly: true, fileMustExist: true });
  } catch {
    return []; // not made yet
  }
  try {
    return db.prepare<[], AttemptRow>("SELECT * FROM attempts ORDER BY id").all();
  } catch {
    return [];
  } finally {
    db.close();
  }
}

/** Each job id a worker log says it took, with how many times. */
export function taken(procs: readonly Proc[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of procs)
    for (const l of p.lines) {
      const m = / taking (\S+):/.exec(l);
      if (m?.[1]) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
    }
  return counts;
}
