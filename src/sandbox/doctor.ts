import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { SandboxCgroup } from "./bwrap/cgroup.js";
import { probeCgroupHost } from "./bwrap/cgroup-layout.js";
import { PROBE_TIMEOUT_MS, probeBwrap } from "./bwrap/detect.js";
import { DEFAULT_CPUS } from "./bwrap/sandbox.js";
import { defaultSeccompFilter } from "./bwrap/seccomp.js";
import { type LimitProbe, limitChecks } from "./doctor-limits.js";
import { probeRunsc } from "./runsc/index.js";

const run = promisify(execFile);

/**
 * One line of `acilab doctor`: a backend, a kernel feature or a limit, whether it works (is enforced)
 * here, and why.
 */
export interface DoctorCheck {
  kind: "backend" | "feature" | "limit" | "browser" | "queue";
  name: string;
  ok: boolean;
  /** One line: what was measured, or what is missing and the fix. */
  reason: string;
}

/**
 * Which sandbox backends and kernel features work on this machine, and which limits a sandboxed
 * command gets here — and why not where they don't. `limits`: probes of limits other parts enforce
 * (the workspace's size cap), listed with the sandbox's own.
 */
export async function detectBackends(
  options: { limits?: readonly LimitProbe[] } = {},
): Promise<DoctorCheck[]> {
  const [bwrap, runsc, overlay, cgroups, limits] = await Promise.all([
    probeBwrap(),
    probeRunsc(),
    probeOverlay(),
    cgroupChecks(),
    limitChecks(options.limits),
  ]);
  return [
    { kind: "backend", name: "bwrap", ok: bwrap.ok, reason: bwrap.reason },
    { kind: "backend", name: "runsc", ok: runsc.ok, reason: runsc.reason },
    {
      kind: "backend",
      name: "process",
      ok: true,
      reason:
        "inner layer only (empty environment, rlimits, timeout): no filesystem, network or process isolation",
    },
    ...cgroups,
    { kind: "feature", name: "seccomp", ...probeSeccomp() },
    { kind: "feature", name: "overlayfs", ...overlay },
    ...limits,
  ];
}

const HEADINGS: Record<DoctorCheck["kind"], string> = {
  backend: "sandbox backends",
  feature: "kernel features",
  limit: "limits per sandboxed command (as acilab run gets them here)",
  browser: "browser box (acilab cua): what holds for Chromium here",
  queue: "queue (--redis): what a worker or coordinator here needs",
};

/** The table `acilab doctor` prints. */
export function formatDoctor(checks: DoctorCheck[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  const lines: string[] = [];
  for (const kind of ["backend", "feature", "limit", "browser", "queue"] as const) {
    const group = checks.filter((x) => x.kind === kind);
    if (group.length === 0) continue;
    lines.push(HEADINGS[kind]);
    for (const c of group)
      lines.push(`  ${c.ok ? "yes" : "no "}  ${c.name.padEnd(width)}  ${c.reason.replace(/\s*\n\s*/g, " ")}`);
  }
  return `${lines.join("\n")}\n`;
}

type Result = Pick<DoctorCheck, "ok" | "reason">;

async function cgroupChecks(): Promise<DoctorCheck[]> {
  const host = probeCgroupHost();
  const v2 = host.v2;
  const v2ok = v2 !== undefined && ["memory", "pids"].every((c) => v2.controllers.includes(c));
  const v2reason = !v2
    ? "cgroup2 is not mounted"
    : v2ok
      ? `${v2.dir}: controllers ${v2.controllers.join(" ")}`
      : `${v2.dir} has ${v2.controllers.length > 0 ? `only ${v2.controllers.join(" ")}` : "no controllers"} — memory and pids are not on v2 here (cgroup.kill still works)`;
  const v1have = (["memory", "pids", "cpu", "freezer"] as const).filter((c) => host.v1[c] !== undefined);
  const v1ok = v1have.includes("memory") && v1have.includes("pids");
  const v1reason =
    v1have.length === 0
      ? "no v1 hierarchies mounted"
      : `${v1have.map((c) => `${c} at ${host.v1[c]}`).join(", ")}`;
  const made = SandboxCgroup.create({ memoryBytes: 64 * 1024 ** 2, pids: 16, cpus: DEFAULT_CPUS }, host);
  let sandbox: Result;
  if (made.cgroup) {
    const { mode, killer, enforced } = made.cgroup.plan;
    const limits = (["memory", "pids", "cpu"] as const).filter((l) => enforced[l] !== undefined);
    sandbox = {
      ok: made.warnings.length === 0,
      reason: `per-sandbox ${mode} cgroup with ${limits.join(", ")} limits, killed via ${killer}${made.warnings.length ? ` — ${made.warnings.join("; ")}` : ""}`,
    };
    await made.cgroup.destroy();
  } else sandbox = { ok: false, reason: made.warnings.join("; ") };
  return [
    { kind: "feature", name: "cgroup v2", ok: v2ok, reason: v2reason },
    { kind: "feature", name: "cgroup v1", ok: v1ok, reason: v1reason },
    { kind: "feature", name: "sandbox cgroup", ...sandbox },
  ];
}

function probeSeccomp(): Result {
  let actions = "";
  try {
    actions = readFileSync("/proc/sys/kernel/seccomp/actions_avail", "utf8").trim();
  } catch {
    return {
      ok: false,
      reason: "the kernel has no seccomp filter support (/proc/sys/kernel/seccomp missing)",
    };
  }
  const needed = ["kill_process", "errno", "allow"];
  const missing = needed.filter((a) => !actions.split(" ").includes(a));
  if (missing.length > 0)
    return { ok: false, reason: `the kernel lacks seccomp actions ${missing.join(", ")}` };
  return {
    ok: true,
    reason: `filters supported; acilab's filter is ${defaultSeccompFilter().length / 8} BPF instructions`,
  };
}

/** Mount an overlay in a temporary directory (as root, or in a user namespace otherwise). */
async function probeOverlay(): Promise<Result> {
  if (!readFileSync("/proc/filesystems", "utf8").includes("overlay"))
    return { ok: false, reason: "the kernel has no overlay filesystem (modprobe overlay)" };
  const dir = mkdtempSync(join(tmpdir(), "acilab-overlay-probe-"));
  try {
    for (const d of ["lower", "upper", "work", "merged"]) mkdirSync(join(dir, d));
    const opts = `lowerdir=${join(dir, "lower")},upperdir=${join(dir, "upper")},workdir=${join(dir, "work")}`;
    const merged = join(dir, "merged");
    const asRoot = process.getuid?.() === 0;
    const script = `mount -t overlay overlay -o ${opts} ${merged} && touch ${merged}/probe && umount ${merged}`;
    const started = performance.now();
    if (asRoot) await run("sh", ["-c", script], { timeout: PROBE_TIMEOUT_MS });
    else await run("unshare", ["-rm", "sh", "-c", script], { timeout: PROBE_TIMEOUT_MS });
    const ms = performance.now() - started;
    if (!existsSync(join(dir, "upper", "probe")))
      return { ok: false, reason: "overlay mounted but writes did not reach the upper layer" };
    return {
      ok: true,
      reason: `mount -t overlay works ${asRoot ? "as root" : "in a user namespace"} (${ms.toFixed(0)} ms)`,
    };
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    return { ok: false, reason: `mount -t overlay failed: ${(e.stderr || e.message).trim().split("\n")[0]}` };
  } finally {
    if (process.getuid?.() === 0) await run("umount", [join(dir, "merged")]).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}
