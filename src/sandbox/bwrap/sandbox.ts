import { realpathSync, statSync } from "node:fs";
import { posix } from "node:path";
import { resolveInside } from "../../workspace/index.js";
import { checkBindDest, resolveReadOnlyBinds } from "../binds.js";
import { drain, killGroup, OutputCapture, watchExit } from "../child.js";
import { hostLayout } from "../host-layout.js";
import { type NetDecision, SandboxNetwork } from "../net/index.js";
import { DEFAULT_LIMITS, DEFAULT_OUTPUT_LIMIT, sandboxEnvironment } from "../process.js";
import type { ExecRequest, ExecResult, ResourceLimits, Sandbox, SandboxOptions } from "../types.js";
import { buildBwrapArgs, INSIDE_HOME, WORKSPACE_MOUNT } from "./argv.js";
import { bwrapBinary } from "./binary.js";
import { type CpuStat, SandboxCgroup } from "./cgroup.js";
import type { CgroupPlan } from "./cgroup-plan.js";
import { mappingPrefix, type OwnerMapping, ownerMapping } from "./idmap.js";
import { FD_SECCOMP, FD_STATUS, type Launched, launch, setupFailure } from "./launch.js";
import { adoptTree, assertReachable, type HostIdentity, sandboxIdentity } from "./owner.js";
import { phase } from "./phases.js";
import { defaultSeccompFilter } from "./seccomp.js";

/**
 * Memory per sandbox (cgroup): the same 4 GiB as a `docker run --memory 4g` sandbox. Node needs ~1 GiB of it to start
 * tsx; a test suite's peak is usually far below.
 */
export const DEFAULT_MEMORY_BYTES = 4 * 1024 ** 3;
/**
 * CPUs' worth of time per sandbox (cgroup cpu quota): two, so a test runner's parallel workers still
 * run side by side, while a busy loop or a fork bomb of them cannot take more than two cores of a big
 * host — SWE-bench's default of 4 workers then fits in 8 cores. On this 2-core VM the quota itself
 * rarely binds; the sandbox's own cpu cgroup still makes all of its processes one scheduling group
 * beside the harness (CFS group scheduling), however many a program forks.
 */
export const DEFAULT_CPUS = 2;

/** An ExecResult plus what the backend wants a person to see: missing cgroups, limits that fired. */
export interface BwrapExecResult extends ExecResult {
  warnings: string[];
}

const warned = new Set<string>();
/** Say a degradation once per process on stderr as well as in every result: loud, not a flood. */
function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  process.emitWarning(message, { code: "ACILAB_SANDBOX" });
}

/**
 * The default OS sandbox on Linux: each exec runs in a fresh bubblewrap container over the workspace
 * — minimal read-only root, private /proc, /dev and /tmp, new user/pid/net/ipc/uts/cgroup namespaces,
 * an unprivileged uid with no capabilities, a seccomp filter, the allowlisted environment, rlimits, the
 * sandbox's cgroup (memory, pids, cpu) and a wall-clock timeout. Everything an exec starts dies with it:
 * the pid namespace ends when its command does, and the cgroup catches anything else.
 */
export class BwrapSandbox implements Sandbox {
  readonly backend = "bwrap";
  readonly workspace: string;
  /** Degradations found at creation (no cgroup…); repeated in every result. */
  readonly warnings: readonly string[];
  /** Which cgroup holds the sandbox's limits: "none" means memory is unlimited (see warnings). */
  readonly cgroupMode: "v2" | "v1" | "none";
  readonly identity: HostIdentity;
  private readonly limits: ResourceLimits;
  private readonly env: Record<string, string>;
  private readonly readOnly: Array<{ source: string; dest: string }>;
  private readonly writable: Array<{ source: string; dest: string }>;
  /** Set when the workspace is a user's directory shown through an idmapped mount. */
  private readonly mapping: OwnerMapping | undefined;
  private readonly cgroup: SandboxCgroup | undefined;
  /** Processes allowed at once: the pids cgroup's limit, or RLIMIT_NPROC without one. */
  private readonly pids: number;
  private readonly running = new Set<Launched["child"]>();
  private readonly net: SandboxNetwork;
  private closed = false;

  constructor(options: SandboxOptions) {
    this.workspace = realpathSync(options.workspace);
    if (!statSync(this.workspace).isDirectory())
      throw new Error(`sandbox: workspace ${this.workspace} is not a directory`);
    this.identity = sandboxIdentity(options);
    this.net = new SandboxNetwork(options.network, this.identity.switched ? this.identity : undefined);
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.env = options.env ?? {};
    this.mapping = options.mapWorkspaceOwner ? ownerMapping(this.workspace, this.identity) : undefined;
    // Parts of a mapped workspace are bound from its mapped view, where they are the program's own.
    const mapped = this.mapping?.target;
    this.readOnly = resolveReadOnlyBinds(options.readOnlyBinds ?? [], this.workspace).map((b) =>
      mapped && b.source.startsWith(`${this.workspace}/`)
        ? { ...b, source: posix.join(mapped, b.source.slice(this.workspace.length + 1)) }
        : b,
    );
    for (const { source } of this.readOnly)
      if (!mapped || !source.startsWith(`${mapped}/`))
        assertReachable(source, this.identity, "read-only path");
    assertReachable(mapped ?? this.workspace, this.identity, "workspace");
    this.writable = (options.writableBinds ?? []).map((b) => {
      const source = realpathSync(b.source);
      if (!statSync(source).isDirectory())
        throw new Error(`sandbox: writable bind ${b.source} is not a directory`);
      assertReachable(source, this.identity, "writable folder");
      if (this.identity.switched) adoptTree(source, this.identity.uid, this.identity.gid);
      return { source, dest: checkBindDest(b.dest) };
    });
    if (this.identity.switched && options.adoptWorkspace !== false && !options.mapWorkspaceOwner)
      adoptTree(this.workspace, this.identity.uid, this.identity.gid);
    hostLayout(); // the /etc copy is made before the first exec, not during it
    this.pids = options.pids ?? this.limits.processes;
    const cpus = options.cpus ?? DEFAULT_CPUS;
    if (!(cpus > 0)) throw new Error(`sandbox: cpus must be a positive number of CPUs, got ${cpus}`);
    const made = SandboxCgroup.create({
      memoryBytes: options.memoryBytes ?? DEFAULT_MEMORY_BYTES,
      pids: this.pids,
      cpus,
    });
    this.cgroup = made.cgroup;
    this.cgroupMode = made.cgroup?.plan.mode ?? "none";
    this.warnings = made.warnings;
    for (const w of this.warnings) warnOnce(`bwrap sandbox: ${w}`);
  }

  async exec(request: ExecRequest): Promise<BwrapExecResult> {
    if (this.closed) throw new Error("sandbox: exec after close(); create a new sandbox");
    if (request.argv.length === 0) throw new Error("sandbox: empty argv; give the program to run");
    const cwd = request.cwd ? resolveInside(this.workspace, request.cwd) : { ok: true as const, rel: "" };
    if (!cwd.ok) throw new Error(`sandbox: working directory refused: ${cwd.error}`);
    const capture = new OutputCapture(request.outputLimit ?? DEFAULT_OUTPUT_LIMIT);
    const before = { oom: this.cgroup?.oomKills() ?? 0, forks: this.cgroup?.forksRefused() ?? 0 };
    const proxyDir = await this.net.dir();

    const layout = hostLayout();
    const args = buildBwrapArgs({
      layout: layout.root,
      etcDir: layout.etc,
      seccompFd: FD_SECCOMP,
      statusFd: FD_STATUS,
      workspace: this.mapping?.target ?? this.workspace,
      readOnly: this.readOnly,
      writable: this.writable,
      cwd: posix.join(WORKSPACE_MOUNT, cwd.rel),
      env: sandboxEnvironment(INSIDE_HOME, { ...this.env, ...request.env }),
      // Without a pids cgroup, RLIMIT_NPROC is the bound. Set inside the sandbox's user namespace it
      // counts only the sandbox's processes (ucounts); set outside, it would count all of the user's.
      argv: this.cgroup ? request.argv : ["/usr/bin/prlimit", `--nproc=${this.pids}`, "--", ...request.argv],
      ...(proxyDir !== undefined ? { proxyDir } : {}),
    });
    const run = await launch({
      command: [bwrapBinary(), ...args],
      limits: this.limits,
      channel: request.channel !== undefined,
      identity: this.identity,
      // The started process joins the cgroup itself before it becomes bwrap: no round trip through here.
      join: this.cgroup?.joinFiles ?? [],
      seccomp: defaultSeccompFilter(this.net.inet),
      ...(this.mapping ? { asRoot: mappingPrefix(this.mapping) } : {}),
    });
    const { child, pgid, fd } = run;
    this.running.add(child);
    if (this.closed) killGroup(pgid); // closed while starting: the exit below reports it

    let status = "";
    fd(FD_STATUS)?.setEncoding("utf8");
    fd(FD_STATUS)?.on("data", (d: string) => {
      if (status === "") phase("bwrap cloned"); // its first report, the child's pid, comes after clone()
      status += d;
    });
    capture.attach(child, request.stdin);
    const fromProgram = fd(3);
    const toProgram = fd(4);
    if (request.channel && fromProgram && toProgram) request.channel.open({ fromProgram, toProgram });

    // The cgroup is the sandbox's, shared by concurrent execs: sweep it only while this one runs alone.
    const alone = () => this.running.size === 1 && this.running.has(child);
    let timeoutKill: Promise<unknown> | undefined;
    const { code, signal, timedOut } = await watchExit(child, request.timeoutMs, () => {
      // bwrap's death takes its pid namespace with it (--die-with-parent → pid 1 dies → the kernel
      // kills the rest); the cgroup kill is for the moment in between.
      killGroup(pgid);
      timeoutKill = this.cgroup?.killAll(alone);
    });
    phase("program exited");
    killGroup(pgid);
    // Nothing of this exec may outlive it: its pid namespace is already dying; the sweep makes sure.
    await timeoutKill;
    await this.cgroup?.killAll(alone);
    phase("cgroup swept");
    await drain(child.stdout, child.stderr, fd(FD_STATUS));
    run.dispose();
    this.running.delete(child);
    const failure = setupFailure({ code, signal, timedOut, status, stderr: capture.stderrText });
    if (failure) throw new Error(failure);

    const warnings = [...this.warnings];
    if (this.cgroup) {
      const oom = this.cgroup.oomKills() - before.oom;
      const forks = this.cgroup.forksRefused() - before.forks;
      if (oom > 0) warnings.push(`the sandbox's memory limit killed ${oom} process${oom === 1 ? "" : "es"}`);
      if (forks > 0)
        warnings.push(`the sandbox's process limit refused ${forks} fork${forks === 1 ? "" : "s"}`);
    }
    return { ...capture.result({ exitCode: code, signal, timedOut }), warnings };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const child of this.running) killGroup(child.pid);
    const left = (await this.cgroup?.destroy()) ?? [];
    phase("cgroup removed");
    for (const w of left) warnOnce(`bwrap sandbox: ${w}`);
    await this.net.close();
  }

  /** How the CPU limit has held this sandbox back so far; undefined without a cpu cgroup. */
  cpuStat(): CpuStat | undefined {
    return this.cgroup?.cpuStat();
  }

  /** The limits this sandbox's cgroup sets, each with the files that carry it (`acilab doctor`). */
  cgroupLimits(): CgroupPlan["enforced"] {
    return this.cgroup?.plan.enforced ?? {};
  }

  /** The network proxy's allow/refuse decisions so far, oldest first (empty for network "none"). */
  networkLog(): readonly NetDecision[] {
    return this.net.decisions();
  }
}
