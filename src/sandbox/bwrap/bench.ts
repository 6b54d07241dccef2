import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BwrapSandbox } from "./sandbox.js";

/** The targets: p50 ≤ 12 ms per sandbox, ≥ 150 sandboxes/s on 2 cores (Firecracker: ~150/s). */
export const SANDBOX_P50_TARGET_MS = 12;
export const SANDBOXES_PER_SECOND_TARGET = 150;

export interface SandboxBenchRow {
  name: string;
  n: number;
  medianMs: number;
  p95Ms: number;
  /** Completed operations per second of wall time (the concurrent rows' point). */
  perSecond: number;
  targetMs: number | undefined;
}

function row(name: string, samples: number[], wallMs: number, targetMs?: number): SandboxBenchRow {
  const sorted = [...samples].sort((a, b) => a - b);
  const q = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
  return {
    name,
    n: sorted.length,
    medianMs: q(0.5),
    p95Ms: q(0.95),
    perSecond: (sorted.length / wallMs) * 1000,
    targetMs,
  };
}

function spawnTrue(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/true", [], { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", () => resolve());
  });
}

/** Run `op` n times over `workers` concurrent loops; per-op latencies and the wall time. */
async function measure(
  n: number,
  workers: number,
  op: (worker: number) => Promise<void>,
): Promise<{ samples: number[]; wallMs: number }> {
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      while (next < n) {
        next++;
        const t = performance.now();
        await op(w);
        samples.push(performance.now() - t);
      }
    }),
  );
  return { samples, wallMs: performance.now() - started };
}

/**
 * A whole sandbox per operation — create (cgroup, workspace adoption), exec /bin/true in a fresh
 * bwrap, close (cgroup kill and removal) — sequentially and with 2 concurrent workers, against a plain
 * spawn of /bin/true in the same run (read the ratio: these machines are small and noisy).
 */
export async function benchSandbox(options: { n?: number } = {}): Promise<SandboxBenchRow[]> {
  const n = options.n ?? 200;
  const root = mkdtempSync(join(tmpdir(), "acilab-bench-sandbox-"));
  chmodSync(root, 0o711); // reachable for the sandbox user
  const workspaces = [0, 1].map((w) => mkdtempSync(join(root, `ws${w}-`)));
  const full = async (w: number) => {
    const sandbox = new BwrapSandbox({ workspace: workspaces[w] as string });
    try {
      const r = await sandbox.exec({ argv: ["/bin/true"], timeoutMs: 10_000 });
      if (r.exitCode !== 0) throw new Error(`bench: /bin/true exited ${r.exitCode}: ${r.output}`);
    } finally {
      await sandbox.close();
    }
  };
  try {
    await measure(10, 1, full); // warm-up: module loading, layout detection, the first cgroup
    const rows: SandboxBenchRow[] = [];
    let m = await measure(n, 1, () => spawnTrue());
    rows.push(row("spawn /bin/true (baseline), sequential", m.samples, m.wallMs));
    m = await measure(n, 1, full);
    rows.push(row("bwrap sandbox create+exec+close, sequential", m.samples, m.wallMs, SANDBOX_P50_TARGET_MS));
    const kept = new BwrapSandbox({ workspace: workspaces[0] as string });
    try {
      m = await measure(n, 1, async () => {
        await kept.exec({ argv: ["/bin/true"], timeoutMs: 10_000 });
      });
      rows.push(row("bwrap exec /bin/true in a kept sandbox", m.samples, m.wallMs));
    } finally {
      await kept.close();
    }
    m = await measure(n, 2, () => spawnTrue());
    rows.push(row("spawn /bin/true (baseline), 2 workers", m.samples, m.wallMs));
    m = await measure(n, 2, full);
    rows.push(row("bwrap sandbox create+exec+close, 2 workers", m.samples, m.wallMs));
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The rows as a table, with the targets next to the measurements. */
export function formatSandboxBench(rows: SandboxBenchRow[]): string {
  const lines = rows.map((r) => {
    const target =
      r.name.includes("2 workers") && r.name.startsWith("bwrap")
        ? `≥ ${SANDBOXES_PER_SECOND_TARGET}/s`
        : r.targetMs
          ? `≤ ${r.targetMs} ms`
          : "";
    return `${r.name.padEnd(48)} n=${String(r.n).padStart(4)}  p50 ${r.medianMs.toFixed(2).padStart(7)} ms  p95 ${r.p95Ms.toFixed(2).padStart(7)} ms  ${r.perSecond.toFixed(0).padStart(5)}/s  ${target}`;
  });
  return `${lines.join("\n")}\n`;
}
