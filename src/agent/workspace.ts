/**
 * The agent's view of the user's repository: a copy-on-write checkout of a snapshot of the working
 * tree as it is now (uncommitted and untracked files included), with commands in the sandbox. The
 * real tree is only ever read here; the one function that writes it is `applyToTree` (apply.ts).
 */
import { execFile } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  adoptTree,
  type BackendChoice,
  defaultBackend,
  openSandbox,
  type Sandbox,
  sandboxIdentity,
} from "../sandbox/index.js";
import { releaseSearchIndex } from "../tools/index.js";
import { type Checkout, commitAll, git, prepareSnapshot, type Snapshot } from "../workspace/index.js";

const run = promisify(execFile);

/** `--repo` is wrong in a way the user must fix: said before anything is copied. */
export class RepoError extends Error {
  override name = "RepoError";
}

export interface AgentWorkspace {
  /** The user's real tree (absolute, symlink-free). Read only, until an apply. */
  readonly repo: string;
  /** The checkout the agent works in. */
  readonly root: string;
  /** The snapshot's repository: host-side git reads it, never the checkout's own .git. */
  readonly gitDir: string;
  /** The snapshot's directory: the working tree as it was when the session started (the base). */
  readonly baseDir: string;
  readonly checkout: Checkout;
  readonly sandbox: Sandbox;
  /** Set when commands run with weaker isolation than bwrap, and why. */
  readonly sandboxWarning: string | undefined;
  dispose(): Promise<void>;
}

/** The repository a session works on: a writable directory, as its real path. */
export function checkRepo(dir: string): string {
  if (!existsSync(dir))
    throw new RepoError(`--repo ${dir} does not exist; give the directory of your repository`);
  const real = realpathSync(dir);
  if (!statSync(real).isDirectory())
    throw new RepoError(`--repo ${dir} is not a directory; give the directory of your repository`);
  try {
    accessSync(real, constants.W_OK);
  } catch {
    throw new RepoError(
      `--repo ${dir} is not writable by you, so its changes could never be applied; fix its permissions or work on a copy`,
    );
  }
  return real;
}

export interface WorkspaceOptions {
  backend?: BackendChoice;
  /** Parent of the snapshot and its checkouts (default: the system's temporary directory). */
  scratchDir?: string;
}

/**
 * Snapshot `repo` (a copy that keeps modes and times, with the uncommitted state committed in the
 * copy so diffs have a base), check it out copy-on-write and open the sandbox over the checkout.
 */
export async function openAgentWorkspace(
  repo: string,
  options: WorkspaceOptions = {},
): Promise<AgentWorkspace> {
  const real = checkRepo(repo);
  const parent = options.scratchDir ?? tmpdir();
  const dir = mkdtempSync(join(parent, "acilab-base-"));
  let snapshot: Snapshot | undefined;
  try {
    await copyTree(real, dir);
    await commitUncommitted(dir);
    const id = sandboxIdentity();
    if (id.switched) adoptTree(dir, id.uid, id.gid);
    snapshot = await prepareSnapshot(dir, {
      prepared: true,
      ownsSource: true,
      scratchDir: parent,
      traversable: id.switched,
    });
    const checkout = await snapshot.checkout();
    const opened = await openSandbox({
      workspace: checkout.root,
      env: {},
      backend: options.backend ?? defaultBackend(),
      adoptWorkspace: false,
      network: "none",
    });
    const made = snapshot;
    return {
      repo: real,
      root: checkout.root,
      gitDir: join(made.dir, ".git"),
      baseDir: made.dir,
      checkout,
      sandbox: opened.sandbox,
      sandboxWarning: opened.warning,
      dispose: async () => {
        await opened.sandbox.close();
        // The search tools' index watches the checkout (an inotify instance each, 128 per user).
        releaseSearchIndex(checkout.root);
        await made.dispose();
      },
    };
  } catch (err) {
    if (snapshot) await snapshot.dispose().catch(() => undefined);
    else rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** cp -a keeps modes, times and links, and reflinks where the filesystem can (near-free on btrfs/xfs). */
async function copyTree(from: string, to: string): Promise<void> {
  try {
    await run("cp", ["-a", "--reflink=auto", `${from}/.`, to], { maxBuffer: 1 << 20 });
  } catch (err) {
    const why = ((err as { stderr?: string }).stderr ?? String(err)).trim().split("\n")[0];
    throw new RepoError(
      `could not copy ${from} for the session (${why}); check that you can read every file in it`,
    );
  }
}

/**
 * The base is the tree as the user left it: in a repository, uncommitted and untracked files are
 * committed in the copy (the user's own repository is untouched); a plain directory becomes one.
 */
async function commitUncommitted(dir: string): Promise<void> {
  if (!existsSync(join(dir, ".git"))) {
    await commitAll(dir, "acilab agent: the directory as it was");
    return;
  }
  const status = await git(dir, ["status", "--porcelain", "-z", "--untracked-files=all"]).catch(() => "");
  const hasHead = await git(dir, ["rev-parse", "-q", "--verify", "HEAD"]).then(
    () => true,
    () => false,
  );
  if (status === "" && hasHead) return;
  await git(dir, ["add", "-A"]);
  // The user's own config may ask for signed commits: this one never leaves the copy.
  await git(dir, [
    "-c",
    "commit.gpgsign=false",
    "commit",
    "-q",
    "--allow-empty",
    "-m",
    "acilab agent: your uncommitted changes",
  ]);
}
