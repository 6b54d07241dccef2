import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { markOwned, sweepDeadOwners } from "../owners/index.js";
import {
  ownDirectory,
  prepareSnapshot,
  removeTree,
  type Snapshot,
  sweepStaleWorkspaces,
} from "./cow/index.js";
import { git } from "./git.js";

/** A base snapshot's directory: the owner marker and the clone (`repo/`), so the clone stays clean. */
export const BASE_PREFIX = "acilab-base-";

export interface AtCommitOptions {
  /**
   * Hand every file to this uid/gid before the snapshot is sealed (the sandbox user, when acilab runs
   * as root): an overlay checkout copies ownership up, so the sandbox can then write any file.
   */
  owner?: { uid: number; gid: number; adopt: (root: string, uid: number, gid: number) => number };
  /** Parent of the clone and the snapshot's scratch (default: the system temp directory). */
  scratchDir?: string;
}

/**
 * A fresh repository holding `commit` of `repoPath` (a directory or a `.bundle`) and its history up
 * to it — nothing later, no remote, no tags — on branch main, ready to snapshot.
 */
export async function cloneAtCommit(repoPath: string, commit: string, into: string): Promise<void> {
  await git(into, ["init", "-q", "-b", "main"]);
  try {
    // A large repository's history (sympy's is 300 MB) would be copied for every base commit: such
    // a clone holds the commit alone (depth 1), which is all grading and a run's diff need.
    const shallow = packBytes(repoPath) > SHALLOW_ABOVE_BYTES ? ["--depth=1"] : [];
    await git(into, ["fetch", "-q", "--no-tags", ...shallow, repoPath, commit]);
  } catch (err) {
    const said = (err as Error).message;
    // A snapshot that leaves out some objects (its largest files) has the commit but cannot give it.
    if (/corruption|invalid index-pack|missing (blob|tree)|did not send all necessary objects/.test(said))
      throw new Error(
        `repository ${repoPath} cannot give commit ${commit}: objects it needs are missing from it (a partial snapshot?) — git said: ${said.split("\n").at(-1)}`,
      );
    throw new Error(
      `commit ${commit} is not in ${repoPath} (${said.split("\n").at(-1)}); check the instance's base_commit and repo_path`,
    );
  }
  await git(into, ["checkout", "-q", "-B", "main", commit]);
  // FETCH_HEAD names the host path the repository came from: not the agent's business.
  rmSync(join(into, ".git", "FETCH_HEAD"), { force: true });
  await settle(into);
}

/** Repositories whose packed objects exceed this are cloned at depth 1. */
export const SHALLOW_ABOVE_BYTES = 200 * 1024 * 1024;

/** The bytes of a repository's pack files (a work tree's .git or a bare one); 0 for a bundle or none. */
export function packBytes(repoPath: string): number {
  for (const objects of [join(repoPath, ".git", "objects"), join(repoPath, "objects")]) {
    const packs = join(objects, "pack");
    if (!existsSync(packs)) continue;
    let bytes = 0;
    for (const name of readdirSync(packs))
      if (name.endsWith(".pack")) bytes += statSync(join(packs, name)).size;
    return bytes;
  }
  return 0;
}

/**
 * git re-hashes index entries whose files are as new as the index ("racy git") on every status —
 * in every checkout, copying them up. Back-date the files, then refresh: every entry is clean.
 */
async function settle(dir: string): Promise<void> {
  const past = new Date(Date.now() - 10_000);
  const files = (await git(dir, ["ls-files", "-z"])).split("\0").filter((f) => f !== "");
  for (const f of files) {
    try {
      utimesSync(join(dir, f), past, past);
    } catch {
      // a symlink to nowhere or a submodule path: git stats it the same way either way
    }
  }
  await git(dir, ["update-index", "-q", "--refresh"]);
}

const snapshots = new Map<string, Promise<Snapshot>>();

/**
 * A read-only snapshot of `repoPath` at `commit`, made once per process and shared: every rollout
 * or grading of the same instance takes a copy-on-write checkout of it in milliseconds.
 */
export function snapshotAtCommit(
  repoPath: string,
  commit: string,
  options: AtCommitOptions = {},
): Promise<Snapshot> {
  const key = `${repoPath}\0${commit}\0${options.owner?.uid ?? ""}`;
  let made = snapshots.get(key);
  if (!made) {
    made = (async () => {
      const parent = options.scratchDir ?? tmpdir();
      // What killed processes left: their checkouts' homes (unmounting the clones), then the bases.
      await sweepStaleWorkspaces(parent);
      await sweepDeadOwners([BASE_PREFIX], parent, { remove: removeTree });
      // The marker sits beside the clone, not in it: git status of the clone must stay clean. The
      // workspace's exit handler removes the directory once the clone's read-only mount is gone.
      const base = mkdtempSync(join(parent, BASE_PREFIX));
      ownDirectory(base);
      markOwned(base, { removeAtExit: false });
      const dir = join(base, "repo");
      try {
        mkdirSync(dir);
        await cloneAtCommit(repoPath, commit, dir);
        if (options.owner) {
          options.owner.adopt(dir, options.owner.uid, options.owner.gid);
          // mkdtemp made the base 0700; the sandbox user must reach the checkouts below the snapshot.
          chmodSync(base, 0o711);
          chmodSync(dir, 0o755);
        }
        const snapshot = await prepareSnapshot(dir, {
          prepared: true,
          ownsSource: true, // the clone goes with the snapshot, and with the sweep if we are killed
          scratchDir: parent,
          traversable: options.owner !== undefined,
        });
        return withBase(snapshot, base);
      } catch (err) {
        await removeTree(base);
        throw err;
      }
    })();
    made.catch(() => snapshots.delete(key));
    snapshots.set(key, made);
  }
  return made;
}

/** The snapshot, whose dispose also removes the base directory around its clone. */
function withBase(snapshot: Snapshot, base: string): Snapshot {
  return {
    get dir() {
      return snapshot.dir;
    },
    base: snapshot.base,
    protection: snapshot.protection,
    warning: snapshot.warning,
    get checkouts() {
      return snapshot.checkouts;
    },
    checkout: (options) => snapshot.checkout(options),
    dispose: async () => {
      await snapshot.dispose();
      await removeTree(base);
    },
  };
}

/** Dispose every shared snapshot (their checkouts first); a later call makes new ones. */
export async function releaseSnapshots(): Promise<void> {
  const all = [...snapshots.values()];
  snapshots.clear();
  await Promise.all(
    all.map(async (p) => {
      try {
        await (await p).dispose(); // the clone too (ownsSource)
      } catch {
        // a snapshot that failed to build has nothing to release
      }
    }),
  );
}
