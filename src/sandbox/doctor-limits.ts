import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BwrapSandbox, DEFAULT_CPUS, DEFAULT_MEMORY_BYTES } from "./bwrap/sandbox.js";
import { openSandbox } from "./open.js";
import { DEFAULT_LIMITS } from "./process.js";
import type { ResourceLimits } from "./types.js";

/** One line of `acilab doctor` (see doctor.ts). */
export interface LimitLine {
  kind: "limit";
  name: string;
  /** Enforced on this machine, by the sandbox `acilab run` would open here. */
  ok: boolean;
  reason: string;
}

/**
 * A limit another part of acilab enforces and reports itself — the workspace's size cap belongs to
 * its checkout (src/workspace) — passed to detectBackends({ limits }) to join the list.
 */
export type LimitProbe = () => LimitLine | Promise<LimitLine>;

const PROBE_TIMEOUT_MS = 30_000;

/** The rlimits as `cat /proc/self/limits` names them, with their unit there. */
const RLIMITS: Array<{ name: string; row: string; key: keyof ResourceLimits; unit: string; per: string }> = [
  { name: "cpu time", row: "Max cpu time", key: "cpuSeconds", unit: "s", per: "per process (RLIMIT_CPU)" },
  {
    name: "file size",
    row: "Max file size",
    key: "fileSizeBytes",
    unit: "B",
    per: "per file (RLIMIT_FSIZE)",
  },
  {
    name: "open files",
    row: "Max open files",
    key: "openFiles",
    unit: "",
    per: "per process (RLIMIT_NOFILE)",
  },
  {
    name: "address space",
    row: "Max address space",
    key: "addressSpaceBytes",
    unit: "B",
    per: "per process (RLIMIT_AS)",
  },
];

/**
 * Each limit a sandboxed command gets, enforced here or not, and why: the sandbox `acilab run` would
 * open is opened, the rlimits are read back from inside it (/proc/self/limits) and the cgroup limits
 * from the cgroup it got. `workspace size` comes from `extra` when its owner passes a probe.
 */
export async function limitChecks(extra: readonly LimitProbe[] = []): Promise<LimitLine[]> {
  const ws = mkdtempSync(join(tmpdir(), "acilab-doctor-"));
  const lines: LimitLine[] = [];
  try {
    const { sandbox } = await openSandbox({ workspace: ws, adoptWorkspace: true });
    try {
      const bwrap = sandbox instanceof BwrapSandbox ? sandbox : undefined;
      const cgroup = bwrap?.cgroupLimits() ?? {};
      const missing = bwrap?.warnings.join("; ") || `the ${sandbox.backend} backend has no cgroup`;
      const gib = (n: number) => `${n / 1024 ** 3} GiB`;
      lines.push(
        cgroup.memory
          ? line("memory", true, `${gib(DEFAULT_MEMORY_BYTES)} per sandbox (${cgroup.memory})`)
          : line("memory", false, `${missing}; only address space is bounded (RLIMIT_AS)`),
      );
      lines.push(
        cgroup.pids
          ? line("processes", true, `${DEFAULT_LIMITS.processes} per sandbox (${cgroup.pids})`)
          : line(
              "processes",
              true,
              `${DEFAULT_LIMITS.processes} by RLIMIT_NPROC only (no pids cgroup)${bwrap ? ", counted inside the sandbox's user namespace" : ", counted over all of the user's processes"}`,
            ),
      );
      lines.push(
        cgroup.cpu
          ? line("cpu", true, `${DEFAULT_CPUS} CPUs' worth per sandbox (${cgroup.cpu})`)
          : line("cpu", false, `${missing}; each process still stops at its CPU time limit`),
      );
      const r = await sandbox.exec({ argv: ["cat", "/proc/self/limits"], timeoutMs: PROBE_TIMEOUT_MS });
      for (const spec of RLIMITS) {
        const want = DEFAULT_LIMITS[spec.key];
        const got = readLimit(r.stdout, spec.row);
        const shown = spec.unit === "B" ? bytes(want) : `${want}${spec.unit ? ` ${spec.unit}` : ""}`;
        lines.push(
          got === want
            ? line(spec.name, true, `${shown} ${spec.per}, read back inside a ${sandbox.backend} sandbox`)
            : line(
                spec.name,
                false,
                `asked for ${shown} ${spec.per}, but a ${sandbox.backend} sandbox has ${got ?? "no such line in /proc/self/limits"}`,
              ),
        );
      }
    } finally {
      await sandbox.close();
    }
  } catch (err) {
    lines.push(line("sandbox", false, `no sandbox could be opened to check: ${(err as Error).message}`));
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
  for (const probe of extra) lines.push(await probe());
  if (!lines.some((l) => l.name === "workspace size"))
    lines.push(
      line(
        "workspace size",
        false,
        "not checked by the sandbox: each file is capped (file size); their sum is bounded by the workspace's own file system (a checkout's size cap, where it has one)",
      ),
    );
  return lines;
}

function line(name: string, ok: boolean, reason: string): LimitLine {
  return { kind: "limit", name, ok, reason };
}

/** The soft limit of a /proc/self/limits row, as a number (Infinity for "unlimited"). */
function readLimit(text: string, row: string): number | undefined {
  const rest = text
    .split("\n")
    .find((l) => l.startsWith(row))
    ?.slice(row.length);
  const soft = rest?.trim().split(/\s+/)[0];
  if (soft === undefined) return undefined;
  return soft === "unlimited" ? Number.POSITIVE_INFINITY : Number(soft);
}

function bytes(n: number): string {
  for (const [unit, size] of [
    ["GiB", 1024 ** 3],
    ["MiB", 1024 ** 2],
    ["KiB", 1024],
  ] as const)
    if (n >= size && n % size === 0) return `${n / size} ${unit}`;
  return `${n} bytes`;
}
