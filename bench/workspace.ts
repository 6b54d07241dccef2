/**
 * How fast a rollout gets a fresh workspace: overlay checkout, reset and dispose (an ext4 image or a
 * tmpfs under the layers, mounts made by the workspace helper and by the util-linux binaries) against
 * an uncapped upper layer in a plain host directory (what checkouts were before they had a size cap)
 * and the usual ways of getting a private copy of a repository — `cp -a`, `git worktree add`, `git
 * clone --shared` — on the same generated git repository, in the same run. A fork+exec of /bin/true
 * is measured too: with the binaries each mount or unmount is one such process start (the syscall
 * itself is ~0.1 ms). Last, deleting a copy of the repository: the helper's openat walk, GNU rm, Node.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { type Checkout, commitAll, git, prepareSnapshot, type Snapshot } from "../src/workspace/index.js";
import {
  currentMounter,
  deleteTree,
  gitDiffAgainstBase,
  MOUNT_ENV,
  type Mounter,
  mountOverlay,
  type OverlayLayers,
  type UpperStorage,
  unmount,
  useMounter,
} from "../src/workspace/testing.js";
import { quantile } from "./stats.js";

const run = promisify(execFile);

export interface WorkspaceBenchRow {
  name: string;
  n: number;
  medianMs: number;
  p95Ms: number;
}

export interface WorkspaceBenchOptions {
  /** Files in the generated repository (default 2,000). */
  files?: number;
  /** Timed runs of the fast operations (mounts, /bin/true). */
  n?: number;
  /** Timed runs of the full copies, which take about a second each on a slow disk. */
  slowN?: number;
  /** Where the repository, snapshot and copies go; its filesystem is what is measured. */
  scratchDir?: string;
}

/** Files per directory in the generated repository: a typical source tree's fan-out. */
const FILES_PER_DIR = 50;
/** Files a rollout edits before diff is timed. */
const EDITED_FILES = 10;

function row(name: string, samples: readonly number[]): WorkspaceBenchRow {
  const sorted = [...samples].sort((a, b) => a - b);
  return { name, n: sorted.length, medianMs: quantile(sorted, 0.5), p95Ms: quantile(sorted, 0.95) };
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const filePath = (i: number) => join(`pkg${Math.floor(i / FILES_PER_DIR)}`, `mod${i}.ts`);

/** A git repository of `files` small source files in directories of FILES_PER_DIR. */
async function generateRepo(dir: string, files: number): Promise<void> {
  for (let i = 0; i < files; i++) {
    if (i % FILES_PER_DIR === 0) mkdirSync(join(dir, `pkg${i / FILES_PER_DIR}`), { recursive: true });
    const body = Array.from({ length: 30 }, (_, l) => `export const v${l} = ${i * 31 + l}; // line ${l}`);
    writeFileSync(join(dir, filePath(i)), `${body.join("\n")}\n`);
  }
  await commitAll(dir, "bench: base");
}

export async function benchWorkspaces(options: WorkspaceBenchOptions = {}): Promise<WorkspaceBenchRow[]> {
  const files = options.files ?? 2000;
  const n = options.n ?? 30;
  const slowN = options.slowN ?? 5;
  const scratch = realpathSync(mkdtempSync(join(options.scratchDir ?? tmpdir(), "acilab-cowbench-")));
  const rows: WorkspaceBenchRow[] = [];
  let snapshot: Snapshot | undefined;
  try {
    const repo = join(scratch, "repo");
    await generateRepo(repo, files);

    const floor: number[] = [];
    for (let i = 0; i < n; i++) floor.push(await time(() => run("/bin/true")));
    rows.push(row("fork+exec /bin/true (one mount call's floor)", floor));

    const prepare = await time(async () => {
      snapshot = await prepareSnapshot(repo, { scratchDir: scratch });
    });
    if (!snapshot) throw new Error("prepareSnapshot did not return");
    const from: Snapshot = snapshot;
    rows.push(row(`snapshot prepare, ${files} files (once per task)`, [prepare]));

    const combos: Array<[Mounter["name"], UpperStorage]> = [
      ["helper", "disk"],
      ["helper", "tmpfs"],
      ["binary", "disk"],
      ["binary", "tmpfs"],
    ];
    for (const [mounter, upper] of combos) {
      useMounter(mounter);
      const [checkout, reset, dispose, diff, gitDiff]: number[][] = [[], [], [], [], []];
      let label = "";
      for (let i = 0; i < n; i++) {
        let c: Checkout | undefined;
        checkout?.push(await time(async () => (c = await from.checkout({ upper }))));
        if (!c) throw new Error("checkout did not return");
        const co: Checkout = c;
        label =
          co.kind === "overlay"
            ? `overlay (${co.storage} upper, ${currentMounter()} mounts)`
            : "copy fallback";
        const stride = Math.max(1, Math.floor(files / EDITED_FILES));
        for (let f = 0; f < Math.min(EDITED_FILES, files); f++)
          writeFileSync(join(co.root, filePath(f * stride)), `edit ${i}\n`);
        if (mounter === "helper") {
          diff?.push(await time(() => co.diff()));
          gitDiff?.push(await time(() => co.gitDiff()));
        }
        reset?.push(await time(() => co.reset()));
        dispose?.push(await time(() => co.dispose()));
      }
      rows.push(row(`${label}: checkout`, checkout ?? []));
      rows.push(row(`${label}: reset`, reset ?? []));
      rows.push(row(`${label}: dispose`, dispose ?? []));
      if (mounter === "helper") {
        rows.push(row(`${label}: diff, ${EDITED_FILES} files edited`, diff ?? []));
        rows.push(row(`${label}: gitDiff, ${EDITED_FILES} files edited`, gitDiff ?? []));
      }
    }
    useMounter("helper");
    rows.push(...(await benchPlainUpper(from, join(scratch, "plain"), n, files)));
    await from.dispose();

    const copies = join(scratch, "copies");
    mkdirSync(copies);
    const [cp, worktree, clone]: number[][] = [[], [], []];
    for (let i = 0; i < slowN; i++) {
      const dest = (kind: string) => join(copies, `${kind}-${i}`);
      cp?.push(await time(() => run("cp", ["-a", repo, dest("cp")])));
      worktree?.push(
        await time(() => git(repo, ["worktree", "add", "-q", "--detach", dest("worktree"), "HEAD"])),
      );
      clone?.push(await time(() => git(scratch, ["clone", "-q", "--shared", repo, dest("clone")])));
      await git(repo, ["worktree", "remove", "--force", dest("worktree")]);
      rmSync(dest("cp"), { recursive: true, force: true });
      rmSync(dest("clone"), { recursive: true, force: true });
    }
    rows.push(row("cp -a", cp ?? []));
    rows.push(row("git worktree add", worktree ?? []));
    rows.push(row("git clone --shared", clone ?? []));

    const [viaHelper, viaRm, viaNode]: number[][] = [[], [], []];
    for (let i = 0; i < slowN; i++) {
      const copy = (kind: string) => join(copies, `${kind}-${i}`);
      for (const kind of ["helper", "rm", "node"]) await run("cp", ["-a", repo, copy(kind)]);
      viaHelper?.push(await time(() => deleteTree(copy("helper"))));
      viaRm?.push(
        await time(() => run("rm", ["-rf", "--one-file-system", "--", copy("rm")], { env: MOUNT_ENV })),
      );
      viaNode?.push(await time(() => rm(copy("node"), { recursive: true, force: true })));
    }
    rows.push(row(`delete a copy, ${files} files: workspace helper (openat walk)`, viaHelper ?? []));
    rows.push(row(`delete a copy, ${files} files: rm -rf --one-file-system`, viaRm ?? []));
    rows.push(row(`delete a copy, ${files} files: Node fs.rm (by path; fails past PATH_MAX)`, viaNode ?? []));
    return rows;
  } finally {
    await snapshot?.dispose();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Checkouts as they were before size caps: upper and work directories in a plain directory on the
 * host disk, deleted with Node's rm. The same mounts (helper) and the same work between checkout and
 * reset (edits, then a git diff, which stats every file through the overlay), so the difference is
 * the cap's cost.
 */
async function benchPlainUpper(
  snapshot: Snapshot,
  dir: string,
  n: number,
  files: number,
): Promise<WorkspaceBenchRow[]> {
  const lower = snapshot.dir;
  const base = { objects: join(lower, ".git", "objects"), index: join(lower, ".git", "index") };
  await mkdir(dir);
  const [checkout, reset, dispose]: number[][] = [[], [], []];
  const layersOf = (c: string, g: number): OverlayLayers => ({
    lower,
    upper: join(c, "layers", `upper-${g}`),
    work: join(c, "layers", `work-${g}`),
  });
  const fresh = async (c: string, g: number) => {
    const layers = layersOf(c, g);
    await Promise.all([mkdir(layers.upper, { recursive: true }), mkdir(layers.work, { recursive: true })]);
    await mountOverlay(layers, join(c, "root"));
  };
  for (let i = 0; i < n; i++) {
    const c = join(dir, `c${i}`);
    checkout?.push(
      await time(async () => {
        await mkdir(join(c, "root"), { recursive: true });
        await fresh(c, 1);
      }),
    );
    const stride = Math.max(1, Math.floor(files / EDITED_FILES));
    for (let f = 0; f < Math.min(EDITED_FILES, files); f++)
      writeFileSync(join(c, "root", filePath(f * stride)), `edit ${i}\n`);
    await gitDiffAgainstBase(join(c, "root"), snapshot.base, base);
    reset?.push(
      await time(async () => {
        await unmount(join(c, "root"), { lazy: false });
        await fresh(c, 2);
        void rm(join(c, "layers", "upper-1"), { recursive: true, force: true });
      }),
    );
    dispose?.push(
      await time(async () => {
        await unmount(join(c, "root"), { lazy: true });
        await rm(c, { recursive: true, force: true });
      }),
    );
  }
  const label = "plain host directory upper, no cap (before)";
  return [
    row(`${label}: checkout`, checkout ?? []),
    row(`${label}: reset`, reset ?? []),
    row(`${label}: dispose`, dispose ?? []),
  ];
}
