import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BwrapSandbox, RunscSandbox, runscBuild, type Sandbox } from "../src/sandbox/index.js";
import { type BenchRow, summarise } from "./stats.js";

/** One line of the table. */
export type RunscBenchRow = BenchRow;

async function trueIn(sandbox: Sandbox): Promise<void> {
  const r = await sandbox.exec({ argv: ["/bin/true"], timeoutMs: 30_000 });
  if (r.exitCode !== 0)
    throw new Error(`bench: /bin/true exited ${r.exitCode} in ${sandbox.backend}: ${r.output}`);
}

/**
 * The price of gVisor: create + exec /bin/true + close of a whole sandbox, runsc against bwrap in the
 * same run (interleaved, so both see the same load), plus an exec in a kept runsc sandbox (gVisor
 * boots per exec, so this is nearly the whole cost). Sequential: these machines have 2 cores.
 */
export async function benchRunsc(options: { n?: number } = {}): Promise<RunscBenchRow[]> {
  const build = runscBuild();
  if ("error" in build) return [];
  const n = options.n ?? 30;
  const root = mkdtempSync(join(tmpdir(), "acilab-bench-runsc-"));
  chmodSync(root, 0o711); // reachable for the sandbox user
  const ws = mkdtempSync(join(root, "ws-"));
  const full = async (make: () => Sandbox) => {
    const started = performance.now();
    const sandbox = make();
    try {
      await trueIn(sandbox);
    } finally {
      await sandbox.close();
    }
    return performance.now() - started;
  };
  try {
    const runsc = () => new RunscSandbox({ workspace: ws });
    const bwrap = () => new BwrapSandbox({ workspace: ws });
    await full(runsc); // warm-up: layout, /etc, page cache
    await full(bwrap);
    const samples = { runsc: [] as number[], bwrap: [] as number[], kept: [] as number[] };
    for (let i = 0; i < n; i++) {
      samples.runsc.push(await full(runsc));
      samples.bwrap.push(await full(bwrap));
    }
    const kept = runsc();
    try {
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        await trueIn(kept);
        samples.kept.push(performance.now() - t);
      }
    } finally {
      await kept.close();
    }
    return [
      summarise(`runsc (${build.platform}) sandbox create+exec+close`, samples.runsc),
      summarise("bwrap sandbox create+exec+close (same run)", samples.bwrap),
      summarise(`runsc (${build.platform}) exec /bin/true in a kept sandbox`, samples.kept),
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// `node --import tsx bench/runsc.ts [n]` prints the rows on their own.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchRunsc({ n: Number(process.argv[2] ?? 30) });
  if (rows.length === 0) console.log("runsc is not installed: nothing to measure");
  for (const r of rows)
    console.log(
      `${r.name.padEnd(52)} n=${String(r.n).padStart(3)}  p50 ${r.medianMs.toFixed(1).padStart(7)} ms  p95 ${r.p95Ms.toFixed(1).padStart(7)} ms`,
    );
}
