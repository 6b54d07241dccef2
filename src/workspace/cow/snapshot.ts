import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { appendFile, chmod, mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { commitAll, git } from "../git.js";
import { isWithin } from "../paths.js";
import { checkWorkspaceBytes, DEFAULT_WORKSPACE_BYTES, workspaceBytesFromEnv } from "./capacity.js";
import { CopyCheckout, copyTree } from "./copy.js";
import { type HeldLock, takeLock } from "./locks.js";
import {
  bindReadOnly,
  EXTERNAL_DIRS_FILE,
  EXTERNAL_MOUNTS_FILE,
  HOME_PREFIX,
  MountError,
  OWNER_LOCK_FILE,
  ownDirectory,
  removeTree,
  unmount,
} from "./mounts.js";
import { OverlayCheckout } from "./overlay.js";
import { sweepStaleWorkspaces } from "./sweep.js";
import type { Checkout, CheckoutContext, CheckoutOptions, Snapshot, SnapshotOptions } from "./types.js";

/**
 * Prepare `sourceDir` once as the read-only lower layer that every rollout's checkout starts from:
 * a copy committed with git (so `.git` is in the lower layer and diffs have a base), or, with
 * `prepared`, an existing clean repository used in place. The lower directory is then bind-mounted
 * read-only onto itself, so not even root can change it while checkouts use it.
 */
export async function prepareSnapshot(sourceDir: string, options: SnapshotOptions = {}): Promise<Snapshot> {
  const scratch = realpathSync(options.scratchDir ?? tmpdir());
  await sweepStaleWorkspaces(scratch);
  const home = await mkdtemp(join(scratch, `${HOME_PREFIX}${process.pid}-`));
  ownDirectory(home);
  let owner: HeldLock | undefined;
  try {
    // Held for as long as this process lives: the sweep of any process, in any pid namespace, that
    // can take it knows we are gone (sweep.ts). Without the helper there is no lock; the sweep then
    // goes by pid and age.
    const lock = await takeLock(join(home, OWNER_LOCK_FILE), true);
    if (lock.state === "held") owner = lock.lock;
    if (options.traversable) await chmod(home, 0o711);
    const { lower, base } = options.prepared
      ? await usePrepared(sourceDir)
      : await copyAndCommit(sourceDir, options.into ?? join(home, "lower"), options.message);
    const ownsLower = options.prepared === true && options.ownsSource === true;
    if (ownsLower) await appendFile(join(home, EXTERNAL_DIRS_FILE), `${lower}\n`);
    let protection: Snapshot["protection"] = "read-only bind mount";
    let warning: string | undefined;
    try {
      if (!isWithin(home, lower)) await appendFile(join(home, EXTERNAL_MOUNTS_FILE), `${lower}\n`);
      await bindReadOnly(lower);
    } catch (err) {
      if (!(err instanceof MountError)) throw err;
      protection = "none";
      warning =
        `snapshot ${lower} is not write-protected: ${err.message}. Overlay checkouts never write to ` +
        "it, but nothing stops another process from doing so";
    }
    return new CowSnapshot(home, owner, lower, base, protection, warning, {
      ...options,
      ownsSource: ownsLower,
    });
  } catch (err) {
    await removeTree(home);
    await owner?.release();
    throw err;
  }
}

function notUsable(dir: string, why: string, fix: string): Error {
  return new Error(`cannot snapshot ${dir}: ${why} — ${fix}`);
}

async function headIfClean(dir: string): Promise<string | undefined> {
  try {
    const head = (await git(dir, ["rev-parse", "--verify", "HEAD"])).trim();
    const status = await git(dir, ["status", "--porcelain", "--untracked-files=all"]);
    return status === "" ? head : undefined;
  } catch {
    return undefined;
  }
}

/** The lower layer must hold the repository itself: a `.git` file points elsewhere, and git would write there. */
function assertOwnGitDir(dir: string, fix: string): void {
  const gitPath = join(dir, ".git");
  if (existsSync(gitPath) && !lstatSync(gitPath).isDirectory())
    throw notUsable(
      dir,
      ".git is a file (a worktree or submodule), so git would write outside the snapshot",
      fix,
    );
}

async function usePrepared(sourceDir: string): Promise<{ lower: string; base: string }> {
  const lower = realpathSync(sourceDir);
  const fix = "omit `prepared` to copy and commit it instead";
  if (!existsSync(join(lower, ".git"))) throw notUsable(lower, "it is not a git repository", fix);
  assertOwnGitDir(lower, fix);
  const base = await headIfClean(lower);
  if (base === undefined)
    throw notUsable(
      lower,
      "it has no commit, or uncommitted or untracked files",
      `commit them first, or ${fix}`,
    );
  return { lower, base };
}

async function copyAndCommit(
  sourceDir: string,
  into: string,
  message = "acilab snapshot: base",
): Promise<{ lower: string; base: string }> {
  const target = resolve(into);
  if (existsSync(target) && readdirSync(target).length > 0)
    throw notUsable(sourceDir, `${target} is not empty`, "give `into` a new or empty directory");
  await mkdir(target, { recursive: true });
  const lower = realpathSync(target);
  await copyTree(realpathSync(sourceDir), lower);
  assertOwnGitDir(lower, "clone the repository (git clone) and snapshot the clone");
  const base = (await headIfClean(lower)) ?? (await commitAll(lower, message));
  await settleIndex(lower);
  return { lower, base };
}

/**
 * git trusts an index entry's cached stat data only when the file is older than the index ("racy
 * git"); entries written in the same second as the index are re-hashed by every later `git status`
 * or `git add` — in every checkout — and git then "freshens" their objects, which copies them up. A
 * copy committed at once is all racy, so wait for the next second and refresh: the index is rewritten
 * with every entry clean. Costs under a second, once per snapshot.
 */
async function settleIndex(dir: string): Promise<void> {
  const written = statSync(join(dir, ".git", "index")).mtimeMs;
  const nextSecond = (Math.floor(written / 1000) + 1) * 1000;
  if (Date.now() >= nextSecond) return;
  await sleep(nextSecond - Date.now() + 5);
  await git(dir, ["update-index", "-q", "--refresh"]);
}

class CowSnapshot implements Snapshot {
  private counter = 0;
  private readonly live = new Set<Checkout>();
  /** Why overlay mounts fail here, once one has: later checkouts go straight to copies. */
  private overlayProblem: string | undefined;
  private disposing: Promise<void> | undefined;
  private readonly mode: "auto" | "copy";
  private readonly defaults: CheckoutOptions;
  private readonly ownsLower: boolean;

  constructor(
    private readonly home: string,
    private readonly owner: HeldLock | undefined,
    readonly dir: string,
    readonly base: string,
    readonly protection: Snapshot["protection"],
    readonly warning: string | undefined,
    options: SnapshotOptions,
  ) {
    this.mode = options.mode ?? "auto";
    this.defaults = options.checkout ?? {};
    this.ownsLower = options.ownsSource === true;
  }

  get checkouts(): readonly Checkout[] {
    return [...this.live];
  }

  async checkout(options: CheckoutOptions = {}): Promise<Checkout> {
    if (this.disposing) throw new Error(`snapshot ${this.dir} is disposed; prepare a new one`);
    const id = `c${++this.counter}`;
    const dir = join(this.home, id);
    const index = join(this.dir, ".git", "index");
    const ctx: CheckoutContext = {
      id,
      dir,
      lower: this.dir,
      base: this.base,
      baseIndex: existsSync(index) ? index : undefined,
      onDispose: (c) => this.live.delete(c),
    };
    await mkdir(dir);
    let checkout: Checkout | undefined;
    if (this.mode === "auto" && this.overlayProblem === undefined) {
      const upper = options.upper ?? this.defaults.upper ?? "disk";
      const bytes = capOf(options.maxBytes ?? this.defaults.maxBytes);
      try {
        checkout = await OverlayCheckout.create(ctx, upper, bytes);
      } catch (err) {
        if (!(err instanceof MountError)) throw err;
        this.overlayProblem ??= err.message;
        await mkdir(dir); // create() removed it
      }
    }
    checkout ??= await CopyCheckout.create(ctx, this.copyWarning());
    this.live.add(checkout);
    return checkout;
  }

  private copyWarning(): string {
    const cost =
      "it is a full copy of the snapshot, so checkout and reset cost a copy of the repository (seconds " +
      "for a large one) instead of milliseconds, and diff reads the whole tree";
    if (this.mode === "copy") return `copy checkout requested (mode "copy"): ${cost}`;
    return (
      `overlayfs is unavailable here (${this.overlayProblem}); ${cost}. To get overlay checkouts, run as ` +
      "root on a kernel with overlayfs (modprobe overlay), and keep the snapshot out of overlays nested " +
      "two deep (overlayfs stacks two deep at most; a container's root filesystem is usually one)"
    );
  }

  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      await Promise.all([...this.live].map((c) => c.dispose()));
      if (this.protection === "read-only bind mount") await unmount(this.dir, { lazy: true });
      if (this.ownsLower) await removeTree(this.dir);
      await removeTree(this.home);
      await this.owner?.release();
    })();
    return this.disposing;
  }
}

/** A checkout's size cap: the one asked for, else ACILAB_WORKSPACE_BYTES, else the default. */
function capOf(asked: number | undefined): number {
  if (asked !== undefined) return checkWorkspaceBytes(asked, "maxBytes");
  return workspaceBytesFromEnv() ?? DEFAULT_WORKSPACE_BYTES;
}
