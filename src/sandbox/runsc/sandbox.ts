import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { posix } from "node:path";
import { promisify } from "node:util";
import { resolveInside } from "../../workspace/index.js";
import { type ReadOnlyBind, resolveReadOnlyBinds } from "../binds.js";
import { INSIDE_HOME, WORKSPACE_MOUNT } from "../bwrap/argv.js";
import { adoptTree, type HostIdentity, sandboxIdentity } from "../bwrap/owner.js";
import { drain, killGroup, OutputCapture, watchExit } from "../child.js";
import { hostLayout } from "../host-layout.js";
import type { NetDecision } from "../net/index.js";
import { DEFAULT_LIMITS, DEFAULT_OUTPUT_LIMIT, sandboxEnvironment } from "../process.js";
import type { ExecRequest, ExecResult, ResourceLimits, Sandbox } from "../types.js";
import { runscBuild } from "./build.js";
import { FifoChannel } from "./channel.js";
import { type SetupFailure, setupFailure, startLogCause } from "./failure.js";
import { buildRunscSpec, makeRootfs, writeIdentity } from "./spec.js";

const run = promisify(execFile);

/** How long `runsc delete --force` may take to tear down a container whose `runsc run` we killed. */
const DELETE_TIMEOUT_MS = 10_000;
/** After `runsc kill`, how long runsc may take to exit before we kill it and its gofer ourselves. */
const KILL_GRACE_MS = 2_000;

export interface RunscSandboxOptions {
  /** Host directory mounted read-write at /workspace: the only writable host path. */
  workspace: string;
  limits?: Partial<ResourceLimits>;
  /** Extra allowlisted variables (never secrets). */
  env?: Record<string, string>;
  /** Host paths visible read-only (acilab's node_modules), or parts of the workspace kept read-only. */
  readOnlyBinds?: readonly ReadOnlyBind[];
  /** Host uid/gid the program runs as when acilab runs as root (default SANDBOX_UID/GID). */
  uid?: number;
  gid?: number;
  /** Hand the workspace to the sandbox uid when acilab runs as root (default true; see BwrapSandbox). */
  adoptWorkspace?: boolean;
  /**
   * The workspace is a user's directory that must stay theirs (see BwrapSandbox). runsc cannot show
   * it as the sandbox user's own — its file server runs as root, which an idmapped view of the
   * directory cannot map — so, as root, a directory the sandbox user does not own is refused.
   */
  mapWorkspaceOwner?: boolean;
  /** gVisor platform (default: systrap where this runsc has it, else ptrace). */
  platform?: string;
  /** The runsc program (default: the one runscBuild() found on PATH). */
  binary?: string;
}

/** Container ids are unique per --root only, but unique per process is simpler to reason about. */
let execs = 0;

/**
 * gVisor: each exec is a fresh OCI container (`runsc run --bundle`) whose syscalls are served by
 * gVisor's user-space kernel, not the host's — the strongest isolation acilab offers, at ~200 ms a
 * start. Why a bundle and not `runsc do`: `do` mounts the whole host root (read-only, under a writable
 * tmpfs overlay) and has no way to leave out the host's /etc, /home or /root or to bind the workspace
 * alone; a generated config.json gives the same layout as bwrap (skeleton root read-only, host /usr,
 * curated /etc, private /tmp, the workspace as the only writable host path).
 *
 * Identity: as root, runsc runs in its normal mode (sentry and gofer confined by runsc itself) and the
 * program runs as SANDBOX_UID — the host uid that owns the workspace, like bwrap's, since this runsc
 * cannot map uids (spec.ts); files it writes belong to that uid on the host. As an ordinary user it runs
 * `--rootless` and the program is uid 0 of gVisor's user namespace, that is the user itself, without
 * capabilities. Each sandbox has a private `--root` state directory, removed by close().
 */
export class RunscSandbox implements Sandbox {
  readonly backend = "runsc";
  readonly workspace: string;
  readonly identity: HostIdentity;
  readonly platform: string;
  private readonly binary: string;
  private readonly limits: ResourceLimits;
  private readonly env: Record<string, string>;
  private readonly readOnly: Array<{ source: string; dest: string }>;
  /** Private directory of this sandbox: runsc's --root state, the rootfs skeleton, bundles. */
  readonly dir: string;
  private readonly rootfs: string;
  private readonly state: string;
  private readonly ids: { passwd: string; group: string };
  private readonly inside: { uid: number; gid: number };
  private readonly running = new Map<string, ChildProcess>();
  private closed = false;

  constructor(options: RunscSandboxOptions) {
    const build = runscBuild();
    if ("error" in build) throw new Error(`sandbox: the runsc backend cannot run here: ${build.error}`);
    this.platform = options.platform ?? build.platform;
    this.binary = options.binary ?? build.binary;
    this.workspace = realpathSync(options.workspace);
    if (!statSync(this.workspace).isDirectory())
      throw new Error(`sandbox: workspace ${this.workspace} is not a directory`);
    this.identity = sandboxIdentity(options);
    this.inside = this.identity.switched
      ? { uid: this.identity.uid, gid: this.identity.gid }
      : { uid: 0, gid: 0 };
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.env = options.env ?? {};
    this.readOnly = resolveReadOnlyBinds(options.readOnlyBinds ?? [], this.workspace);
    if (options.mapWorkspaceOwner) refuseUserDirectory(this.workspace, this.identity);
    else if (this.identity.switched && options.adoptWorkspace !== false)
      adoptTree(this.workspace, this.identity.uid, this.identity.gid);
    this.dir = mkdtempSync(posix.join(tmpdir(), "acilab-runsc-"));
    try {
      this.rootfs = posix.join(this.dir, "rootfs");
      this.state = posix.join(this.dir, "state");
      for (const d of [this.state, posix.join(this.dir, "bundles"), posix.join(this.dir, "channels")])
        mkdirSync(d);
      makeRootfs(
        this.rootfs,
        hostLayout().root,
        this.readOnly.map((r) => r.dest),
      );
      this.ids = writeIdentity(this.dir, this.inside.uid, this.inside.gid);
    } catch (err) {
      rmSync(this.dir, { recursive: true, force: true });
      throw err;
    }
  }

  async exec(request: ExecRequest): Promise<ExecResult> {
    if (this.closed) throw new Error("sandbox: exec after close(); create a new sandbox");
    if (request.argv.length === 0) throw new Error("sandbox: empty argv; give the program to run");
    const cwd = request.cwd ? resolveInside(this.workspace, request.cwd) : { ok: true as const, rel: "" };
    if (!cwd.ok) throw new Error(`sandbox: working directory refused: ${cwd.error}`);
    const first = await this.attempt(request, cwd.rel);
    if (!("setup" in first)) return first;
    // A boot that died silently never ran the program: start once more, with runsc's logs kept so a
    // second death names its cause. Not with a channel: its harness may be opened only once.
    if (!first.setup.bootDied || request.channel || this.closed) throw new Error(first.setup.message);
    const logs = mkdtempSync(posix.join(this.dir, "logs-"));
    try {
      const second = await this.attempt(request, cwd.rel, logs);
      if (!("setup" in second)) return second;
      const cause = startLogCause(logs);
      throw new Error(cause ? `${second.setup.message} (gVisor's log: ${cause})` : second.setup.message);
    } finally {
      rmSync(logs, { recursive: true, force: true });
    }
  }

  /** One `runsc run` of the request: the program's result, or runsc's own failure to start it. */
  private async attempt(
    request: ExecRequest,
    cwdRel: string,
    logDir?: string,
  ): Promise<ExecResult | { setup: SetupFailure }> {
    const id = `acilab-${process.pid}-${++execs}`;
    const bundle = posix.join(this.dir, "bundles", id);
    const channel = request.channel
      ? new FifoChannel(
          posix.join(this.dir, "channels", id),
          this.identity.switched ? this.inside : undefined,
        )
      : undefined;
    const capture = new OutputCapture(request.outputLimit ?? DEFAULT_OUTPUT_LIMIT);
    let child: ChildProcess | undefined;
    try {
      mkdirSync(bundle);
      const layout = hostLayout();
      const spec = buildRunscSpec({
        rootfs: this.rootfs,
        layout: layout.root,
        etcDir: layout.etc,
        ...this.ids,
        workspace: this.workspace,
        readOnly: this.readOnly,
        ...(channel ? { channelDir: channel.dir } : {}),
        ...this.inside,
        cwd: posix.join(WORKSPACE_MOUNT, cwdRel),
        env: sandboxEnvironment(INSIDE_HOME, { ...this.env, ...request.env }),
        argv: request.argv,
        limits: this.limits,
      });
      writeFileSync(posix.join(bundle, "config.json"), JSON.stringify(spec));
      const flags = [
        ...(this.identity.switched ? [] : ["--rootless"]),
        "--network=none",
        // No host cgroups: in a container host (as here) runsc's cgroup setup fails or leaks
        // /sys/fs/cgroup/*/<id> when a start fails (measured). Memory is bounded by RLIMIT_AS.
        "--ignore-cgroups",
        `--platform=${this.platform}`,
        ...(channel ? ["--host-fifo=open"] : []),
        ...(logDir ? [`--debug-log=${logDir}/`] : []),
        "--root",
        this.state,
      ];
      child = spawn(this.binary, [...flags, "run", "--bundle", bundle, id], {
        cwd: "/",
        env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
        detached: true, // runsc and its gofer in one group; the sandbox process dies with runsc (pdeathsig)
        stdio: ["pipe", "pipe", "pipe"],
      });
      this.running.set(id, child);
      const spawned = child;
      const spawnError = await new Promise<Error | undefined>((r) => {
        spawned.once("spawn", () => r(undefined));
        spawned.once("error", (err) => r(err));
      });
      if (spawnError) throw new Error(`sandbox: could not start runsc: ${spawnError.message}`);
      capture.attach(child, request.stdin);
      if (channel && request.channel) channel.hand(request.channel);

      let fallback: NodeJS.Timeout | undefined;
      const pgid = child.pid;
      const { code, signal, timedOut } = await watchExit(spawned, request.timeoutMs, () => {
        // SIGKILL to the container's init ends every process in it (its pid namespace), and runsc
        // then removes the container itself; killing runsc instead leaves state for a slow delete.
        // The group kill is the fallback for a runsc that does not exit.
        void this.runsc(["kill", id, "KILL"]);
        fallback = setTimeout(() => killGroup(pgid), KILL_GRACE_MS);
      });
      clearTimeout(fallback);
      killGroup(pgid);
      await drain(child.stdout, child.stderr);
      const failure = setupFailure(code, timedOut, capture.stderrText);
      if (failure) return { setup: failure };
      return capture.result({ exitCode: code, signal, timedOut });
    } finally {
      if (child) {
        this.running.delete(id);
        await this.teardown(id);
      }
      channel?.dispose();
      rmSync(bundle, { recursive: true, force: true });
      if (channel) rmSync(channel.dir, { recursive: true, force: true });
    }
  }

  /**
   * A `runsc run` that exits by itself removes its container; one we killed leaves its state (and
   * maybe, for a moment, its sandbox process): `delete --force` kills what is left and removes both.
   */
  private async teardown(id: string): Promise<void> {
    let left: string[];
    try {
      // Exact prefix: "acilab-1-1" must not match the state of a concurrent "acilab-1-10".
      left = readdirSync(this.state).filter((n) => n.startsWith(`${id}_sandbox:`));
    } catch {
      return;
    }
    if (left.length === 0) return;
    await this.runsc(["delete", "--force", id]);
  }

  /** A runsc control command on this sandbox's state; failure (container already gone) is fine. */
  private async runsc(args: string[]): Promise<void> {
    await run(this.binary, ["--root", this.state, ...args], {
      timeout: DELETE_TIMEOUT_MS,
      killSignal: "SIGKILL",
    }).catch(() => {});
  }

  /** gVisor runs with --network=none: no proxy, nothing asked. */
  networkLog(): readonly NetDecision[] {
    return [];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const child of this.running.values()) killGroup(child.pid);
    await Promise.all([...this.running.keys()].map((id) => this.teardown(id)));
    this.running.clear();
    // Anything else in the state directory (a crash between run and teardown) goes too.
    for (const name of safeReaddir(this.state)) {
      const id = /^(.*)_sandbox:/.exec(name)?.[1];
      if (id) await this.teardown(id);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function refuseUserDirectory(dir: string, identity: HostIdentity): void {
  if (!identity.switched) return;
  const st = statSync(dir);
  if (st.uid === identity.uid && st.gid === identity.gid) return;
  throw new Error(
    `sandbox: the runsc backend cannot show ${dir} to the sandbox user (uid ${identity.uid}) as its own: gVisor's file server runs as root, which an idmapped view of the directory cannot map. Use the bwrap backend (the default), run acilab as the directory's owner instead of root, or give the directory to the sandbox user first (chown -R ${identity.uid}:${identity.gid} ${dir})`,
  );
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
