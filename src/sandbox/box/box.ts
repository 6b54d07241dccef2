/**
 * A box: the coding sandbox's boundary for a long-lived program that someone else starts (Playwright
 * starts Chromium and keeps its CDP pipes). `ProgramBox.open` makes the box's cgroup, the seccomp
 * filter and the wrapper script; the caller runs `executable` with the program's own arguments, as
 * often as it likes (each start is a fresh bwrap: fresh /tmp, fresh namespaces); `killAll` ends what is
 * left of one start, `close` removes everything. A box's directory carries its owner's marker: what a
 * SIGKILLed owner left is swept by the next process that opens a box, never a live owner's.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { markOwned, releaseOwned, sweepDeadOwners } from "../../owners/index.js";
import { bwrapBinary } from "../bwrap/binary.js";
import { SandboxCgroup } from "../bwrap/cgroup.js";
import { type HostIdentity, sandboxIdentity } from "../bwrap/owner.js";
import { buildSeccompFilter } from "../bwrap/seccomp.js";
import { hostLayout } from "../host-layout.js";
import { buildBoxArgs } from "./argv.js";
import { wrapperScript } from "./wrapper.js";

/**
 * Memory of a box (cgroup): a browser with a few tabs of an ordinary web app stays under 1 GiB; 2 GiB
 * leaves room for a heavy page, and a page that allocates without end is killed there, not the host.
 */
export const DEFAULT_BOX_MEMORY_BYTES = 2 * 1024 ** 3;
/** Tasks of a box: the pids limit counts threads, and Chromium runs ~150 of them with a few tabs. */
export const DEFAULT_BOX_PIDS = 1024;
/** CPUs' worth of time of a box: two, as for a sandboxed command (bwrap/sandbox.ts, DEFAULT_CPUS). */
export const DEFAULT_BOX_CPUS = 2;

const BOX_PREFIX = "acilab-box-";
let swept: Promise<string[]> | undefined;

/**
 * Remove the box directories of provably dead owners in the temp directory, once per process; later
 * calls return the first sweep's result. `open` starts it in the background if nobody has.
 */
export function sweepBoxLeftovers(): Promise<string[]> {
  swept ??= sweepDeadOwners([BOX_PREFIX]);
  return swept;
}

/** util-linux setpriv drops root to the box's uid after the cgroup join (as the sandbox's wrapper does). */
const SETPRIV = "/usr/bin/setpriv";

/**
 * The argv prefix that runs a program as the sandbox's unprivileged uid without a box (an X server the
 * host's xdotool must reach): setpriv when acilab runs as root, nothing otherwise.
 */
export function unprivilegedArgv(): string[] {
  const identity = sandboxIdentity();
  return identity.switched
    ? [SETPRIV, `--reuid=${identity.uid}`, `--regid=${identity.gid}`, "--clear-groups", "--"]
    : [];
}

export interface ProgramBoxOptions {
  /** The program (absolute path inside, which is its host path: /usr is the host's). */
  program: string;
  /** Variables inside besides PATH, HOME, TMPDIR and LANG. */
  env?: Record<string, string>;
  /** Host paths visible read-only; missing sources are skipped. */
  readOnly?: ReadonlyArray<{ source: string; dest: string }>;
  /** Host directories writable inside (handed to the box's uid). */
  writable?: ReadonlyArray<{ source: string; dest: string }>;
  /** Give the box a way out: a socket directory for a proxy, reached inside at PROXY_URL. */
  proxy?: boolean;
  /** Leave user namespaces on below the box and let the program chroot: it sandboxes itself. */
  nestedSandbox?: boolean;
  /** Caller arguments starting with a key are replaced by its value. */
  replaceArgs?: Record<string, string>;
  memoryBytes?: number;
  pids?: number;
  cpus?: number;
  hostname?: string;
}

export class ProgramBox {
  /** Run this instead of the program; it takes the program's arguments. */
  readonly executable: string;
  /**
   * Host directory whose `proxy.sock` is the box's only way out (owned by the box's uid, 0700); a
   * proxy listens there. Undefined without `proxy`.
   */
  readonly proxyDir: string | undefined;
  readonly identity: HostIdentity;
  /** What this machine could not give the box (no cgroup…): say it where a person reads results. */
  readonly warnings: readonly string[];
  /** The limits the box's cgroup sets, by name ("memory", "pids", "cpu"). */
  readonly limits: readonly string[];
  readonly nestedSandbox: boolean;
  private closed = false;

  private constructor(
    private readonly dir: string,
    private readonly cgroup: SandboxCgroup | undefined,
    fields: Pick<
      ProgramBox,
      "executable" | "proxyDir" | "identity" | "warnings" | "limits" | "nestedSandbox"
    >,
  ) {
    this.executable = fields.executable;
    this.proxyDir = fields.proxyDir;
    this.identity = fields.identity;
    this.warnings = fields.warnings;
    this.limits = fields.limits;
    this.nestedSandbox = fields.nestedSandbox;
  }

  static open(options: ProgramBoxOptions): ProgramBox {
    if (process.platform !== "linux") throw new Error("box: bwrap boxes need Linux namespaces");
    const identity = sandboxIdentity();
    const layout = hostLayout();
    // In the background: a leftover never delays a box, and a live owner's box is never touched.
    void sweepBoxLeftovers();
    const dir = markOwned(mkdtempSync(join(tmpdir(), BOX_PREFIX)));
    let cgroup: SandboxCgroup | undefined;
    try {
      const made = SandboxCgroup.create({
        memoryBytes: options.memoryBytes ?? DEFAULT_BOX_MEMORY_BYTES,
        pids: options.pids ?? DEFAULT_BOX_PIDS,
        cpus: options.cpus ?? DEFAULT_BOX_CPUS,
      });
      cgroup = made.cgroup;
      const proxyDir = options.proxy ? ownedDir(join(dir, "net"), identity) : undefined;
      const writable = options.writable ?? [];
      for (const w of writable) if (identity.switched) chownSync(w.source, identity.uid, identity.gid);
      const nestedSandbox = options.nestedSandbox === true;
      const bwrap = [
        bwrapBinary(),
        ...buildBoxArgs({
          layout: layout.root,
          etcDir: layout.etc,
          readOnly: options.readOnly ?? [],
          writable,
          env: options.env ?? {},
          ...(proxyDir !== undefined ? { proxyDir } : {}),
          nestedSandbox,
          argv: [options.program],
          ...(options.hostname !== undefined ? { hostname: options.hostname } : {}),
        }),
      ];
      const seccompFile = join(dir, "seccomp.bpf");
      writeFileSync(seccompFile, buildSeccompFilter({ loopbackInet: true, nestedSandbox }), { mode: 0o600 });
      const executable = join(dir, "start");
      const drop = unprivilegedArgv();
      const script = wrapperScript({
        seccompFile,
        join: cgroup?.joinFiles ?? [],
        drop,
        bwrap,
        replaceArgs: options.replaceArgs ?? {},
      });
      writeFileSync(executable, script, { mode: 0o700 });
      const enforced = cgroup?.plan.enforced ?? {};
      return new ProgramBox(dir, cgroup, {
        executable,
        proxyDir,
        identity,
        warnings: made.warnings,
        limits: (["memory", "pids", "cpu"] as const).filter((l) => enforced[l] !== undefined),
        nestedSandbox,
      });
    } catch (err) {
      void cgroup?.destroy();
      releaseOwned(dir);
      throw err;
    }
  }

  /** Kill everything still running in the box (what a start left behind); true when it is empty. */
  async killAll(): Promise<boolean> {
    return (await this.cgroup?.killAll()) ?? true;
  }

  /** Pids in the box's cgroup, as the host sees them. */
  pids(): number[] {
    return this.cgroup?.pids() ?? [];
  }

  /** Processes the box's memory limit has killed so far (0 without a cgroup). */
  oomKills(): number {
    return this.cgroup?.oomKills() ?? 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.cgroup?.destroy();
    releaseOwned(this.dir);
  }
}

/** A directory only the box's uid may use (the proxy's socket goes in it). */
function ownedDir(path: string, identity: HostIdentity): string {
  mkdirSync(path, { mode: 0o700 });
  if (identity.switched) {
    chownSync(path, identity.uid, identity.gid);
    // bwrap runs as the box's uid and binds this path itself: it must be able to reach it.
    chmodSync(join(path, ".."), 0o711);
  }
  return path;
}
