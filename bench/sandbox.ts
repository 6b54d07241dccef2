import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adoptTree, BwrapSandbox, sandboxIdentity } from "../src/sandbox/index.js";
import { onPhase, useSpawner } from "../src/sandbox/testing.js";
import { prepareSnapshot } from "../src/workspace/index.js";
import { quantile } from "./stats.js";

/** Targets: p50 ≤ 12 ms per sandbox, ≥ 150 sandboxes/s on 2 cores (Firecracker's rate: ~150/s). */
export const SANDBOX_P50_TARGET_MS = 12;
export const SANDBOXES_PER_SECOND_TARGET = 150;
/** Extra resident memory for the rows that show what the harness's size costs a fork. */
const BALLAST_MB = 512;

export interface SandboxBenchRow {
  name: string;
  n: number;
  medianMs: number;
  p90Ms: number;
  p95Ms: number;
  /** Completed operations per second of wall time (the concurrent rows' point). */
  perSecond: number;
  targetMs: number | undefined;
  /** Median over the same run's plain fork+exec of /bin/true (sequential rows only). */
  ratio?: number;
  /** A part of the full sandbox (its breakdown), not an operation of its own. */
  part?: boolean;
}

function row(name: string, samples: number[], wallMs: number, targetMs?: number): SandboxBenchRow {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    name,
    n: sorted.length,
    medianMs: quantile(sorted, 0.5),
    p90Ms: quantile(sorted, 0.9),
    p95Ms: quantile(sorted, 0.95),
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

/** The full sandbox's steps in order: each part is the time from the previous mark to this one. */
const PARTS = [
  ["checkout", "CoW checkout (overlay, tmpfs upper)"],
  ["cgroup created", "cgroup create (mkdir + limits)"],
  ["wrapper started", "start: spawner round trip, its fork, our opens of the pipes"],
  ["bwrap cloned", "child: cgroup join, rlimits, uid drop, exec bwrap, its clone"],
  ["program exited", "bwrap setup (mounts, seccomp) + exec /bin/true + exit"],
  ["cgroup swept", "empty-cgroup check"],
  ["exec returned", "pipe drain, result"],
  ["cgroup removed", "cgroup removal (close)"],
  ["checkout disposed", "checkout dispose (unmounts, rmdir)"],
] as const;

/** A git repository of `files` small files owned by the sandbox user, as a prepared task would be. */
function makeSource(root: string, files: number): string {
  const src = join(root, "src");
  for (let i = 0; i < files; i++) {
    mkdirSync(join(src, `pkg${Math.floor(i / 50)}`), { recursive: true });
    writeFileSync(join(src, `pkg${Math.floor(i / 50)}`, `mod${i}.py`), `X = ${i}\n`);
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@localhost", ...args], {
      cwd: src,
      stdio: "ignore",
    });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "bench: base");
  const id = sandboxIdentity();
  if (id.switched) adoptTree(src, id.uid, id.gid);
  return src;
}

/**
 * In one run: plain fork+exec of /bin/true from this process (the floor every row is read against),
 * a bwrap sandbox without a workspace copy (create + exec /bin/true + close), and the full sandbox —
 * CoW checkout (tmpfs upper) + sandbox + exec /bin/true + teardown — sequentially with its breakdown,
 * and with 2 concurrent workers for throughput. Read ratios: these machines are small and shared.
 */
export async function benchSandbox(options: { n?: number; files?: number } = {}): Promise<SandboxBenchRow[]> {
  const n = options.n ?? 200;
  const root = mkdtempSync(join(tmpdir(), "acilab-bench-sandbox-"));
  chmodSync(root, 0o711); // reachable for the sandbox user
  const workspaces = [0, 1].map((w) => mkdtempSync(join(root, `ws${w}-`)));
  for (const ws of workspaces) chmodSync(ws, 0o777);
  const snapshot = await prepareSnapshot(makeSource(root, options.files ?? 200), {
    scratchDir: root,
    traversable: true,
    checkout: { upper: "tmpfs" },
  });
  const plain = async (w: number) => {
    const sandbox = new BwrapSandbox({ workspace: workspaces[w] as string, adoptWorkspace: false });
    try {
      const r = await sandbox.exec({ argv: ["/bin/true"], timeoutMs: 10_000 });
      if (r.exitCode !== 0) throw new Error(`bench: /bin/true exited ${r.exitCode}: ${r.output}`);
    } finally {
      await sandbox.close();
    }
  };
  const marks: Array<[string, number]> = [];
  const mark = (name: string) => marks.push([name, performance.now()]);
  const full = async () => {
    const checkout = await snapshot.checkout();
    mark("checkout");
    try {
      // The snapshot is the sandbox user's already (makeSource), so the tree needs no walk.
      const sandbox = new BwrapSandbox({ workspace: checkout.root, adoptWorkspace: false });
      try {
        const r = await sandbox.exec({ argv: ["/bin/true"], timeoutMs: 10_000 });
        mark("exec returned");
        if (r.exitCode !== 0) throw new Error(`bench: /bin/true exited ${r.exitCode}: ${r.output}`);
      } finally {
        await sandbox.close();
      }
    } finally {
      await checkout.dispose();
      mark("checkout disposed");
    }
  };
  try {
    await measure(10, 1, plain); // warm-up: module loading, layout detection, the first cgroup
    await measure(10, 1, full);
    const rows: SandboxBenchRow[] = [];
    let m = await measure(n, 1, () => spawnTrue());
    const floor = row("fork+exec /bin/true from this process, sequential", m.samples, m.wallMs);
    rows.push(floor);
    m = await measure(n, 1, plain);
    rows.push(row("bwrap create+exec+close (no workspace copy), sequential", m.samples, m.wallMs));
    useSpawner(false);
    try {
      m = await measure(n, 1, plain);
      rows.push(row("  the same through the sh wrapper (no spawner)", m.samples, m.wallMs));
    } finally {
      useSpawner(true);
    }
    // The full sandbox with its breakdown: the phases of the sandbox code, plus the bench's own marks.
    const parts = new Map<string, number[]>(PARTS.map(([key]) => [key, []]));
    onPhase((name, at) => marks.push([name, at]));
    try {
      m = await measure(n, 1, async () => {
        marks.length = 0;
        mark("start");
        await full();
        for (let i = 1; i < marks.length; i++) {
          const [name, at] = marks[i] as [string, number];
          parts.get(name)?.push(at - (marks[i - 1] as [string, number])[1]);
        }
      });
    } finally {
      onPhase(undefined);
    }
    rows.push(
      row(
        "CoW checkout + bwrap + exec /bin/true + teardown, sequential",
        m.samples,
        m.wallMs,
        SANDBOX_P50_TARGET_MS,
      ),
    );
    for (const [key, label] of PARTS) {
      const samples = parts.get(key) ?? [];
      // A part's rate is what that step alone would allow (1000 / its median), not a wall-clock count.
      const part = row(`  part: ${label}`, samples, m.wallMs);
      if (samples.length > 0) rows.push({ ...part, perSecond: 1000 / part.medianMs, part: true });
    }
    m = await measure(n, 1, async () => {
      const checkout = await snapshot.checkout();
      const sandbox = new BwrapSandbox({ workspace: checkout.root, adoptWorkspace: false });
      await sandbox.close();
      await checkout.dispose();
    });
    rows.push(row("CoW checkout + sandbox + teardown without exec, sequential", m.samples, m.wallMs));
    m = await measure(n, 1, full);
    rows.push(row("CoW checkout + bwrap + exec /bin/true + teardown, 1 worker", m.samples, m.wallMs));
    m = await measure(n, 2, () => spawnTrue());
    rows.push(row("fork+exec /bin/true from this process, 2 workers", m.samples, m.wallMs));
    m = await measure(n, 2, full);
    rows.push(row("CoW checkout + bwrap + exec /bin/true + teardown, 2 workers", m.samples, m.wallMs));
    // A harness is big (a model client, trajectories…); fork(2) copies its page tables, the spawner's not.
    const ballast = Buffer.alloc(BALLAST_MB * 1024 ** 2, 1);
    const heavy = Math.max(20, Math.floor(n / 4));
    m = await measure(heavy, 1, () => spawnTrue());
    rows.push(row(`fork+exec /bin/true from this process, +${BALLAST_MB} MB RSS`, m.samples, m.wallMs));
    m = await measure(heavy, 1, plain);
    rows.push(row(`bwrap create+exec+close (no workspace copy), +${BALLAST_MB} MB RSS`, m.samples, m.wallMs));
    useSpawner(false);
    try {
      m = await measure(heavy, 1, plain);
      rows.push(
        row(`  the same through the sh wrapper (no spawner), +${BALLAST_MB} MB RSS`, m.samples, m.wallMs),
      );
    } finally {
      useSpawner(true);
    }
    ballast.fill(0); // keeps it alive (and touched) until here
    for (const r of rows) if (!r.part && !r.name.includes("workers")) r.ratio = r.medianMs / floor.medianMs;
    return rows;
  } finally {
    await snapshot.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The rows as a table with the targets, ratios to the fork+exec floor, and the parts by size. */
export function formatSandboxBench(rows: SandboxBenchRow[]): string {
  const lines = rows.map((r) => {
    const target =
      r.name.includes("2 workers") && r.name.startsWith("CoW")
        ? `target ≥ ${SANDBOXES_PER_SECOND_TARGET}/s`
        : r.targetMs
          ? `target ≤ ${r.targetMs} ms`
          : "";
    const rate = r.part ? "" : `${r.perSecond.toFixed(0).padStart(5)}/s`;
    const ratio = r.ratio !== undefined ? `${r.ratio.toFixed(1).padStart(5)}× floor` : "";
    return `${r.name.padEnd(66)} n=${String(r.n).padStart(4)}  p50 ${r.medianMs.toFixed(2).padStart(7)}  p90 ${r.p90Ms.toFixed(2).padStart(7)} ms  ${rate.padStart(7)}  ${ratio.padEnd(12)} ${target}`;
  });
  const parts = rows.filter((r) => r.part).sort((a, b) => b.medianMs - a.medianMs);
  const total = parts.reduce((s, r) => s + r.medianMs, 0);
  const dominant = parts
    .slice(0, 3)
    .map(
      (r) =>
        `${r.name.replace("  part: ", "")} ${r.medianMs.toFixed(1)} ms (${((100 * r.medianMs) / total).toFixed(0)}%)`,
    );
  return `${lines.join("\n")}\ndominant parts (share of the parts' medians): ${dominant.join("; ")}\n`;
}
