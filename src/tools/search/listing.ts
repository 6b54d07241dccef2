import { readdirSync } from "node:fs";
import { MAX_EXCLUDE_ARG_BYTES } from "./index-limits.js";
import { RG_BASE_ARGS, runRg } from "./rg.js";

/** Refreshes remembered for `changedSince`; a reader further behind starts over. */
const MAX_CHANGE_LOG = 32;

/** Beyond this many changed subtrees, checking the whole listing against the store is simpler. */
const MAX_UNVERIFIED_TREES = 64;

/** How to run rg for a listing: the tool's binary and time limit, in the workspace root. */
export interface ListingRunner {
  rgPath: string;
  root: string;
  timeoutMs: number;
}

const parentOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf("/")));
const join = (dir: string, name: string): string => (dir === "" ? name : `${dir}/${name}`);
/** `path` is `dir` or below it ("" is the root, above everything). */
const within = (path: string, dir: string): boolean =>
  dir === "" || path === dir || path.startsWith(`${dir}/`);

/**
 * rg's override globs use gitignore syntax, so a directory name is escaped character by character
 * (spaces too: gitignore trims trailing ones). A name with a line break cannot be written at all.
 */
function excludeGlob(dir: string): string | undefined {
  if (/[\r\n]/.test(dir)) return undefined;
  return `!/${dir.replace(/[\\*?[\]{}! ]/g, "\\$&")}/`;
}

/**
 * The output of one `rg --files` command (base flags, the tool's file-selection flags, one start path),
 * kept per directory and brought up to date from the watcher's change reports. A refresh re-runs the
 * same command from the same start, with `--glob !/dir/` excluding every subtree that did not change:
 * rg applies the same ignore files in the same order as in the full walk, so the walked part is exactly
 * what a full run would print there, and the excluded part is unchanged by construction.
 */
export class Listing {
  private byDir = new Map<string, string[]>();
  private changedDirs = new Set<string>();
  private changedTrees = new Set<string>();
  private full = false;
  private flat: string[] | undefined;
  private members: Set<string> | undefined;
  /** Listed files (and directories: everything below) that may be missing from the content store. */
  private unverifiedFiles = new Set<string>();
  private unverifiedTrees = new Set<string>();
  private unverifiedAll = true;
  /** Bumped whenever the listed paths change; `log` says in which directories. */
  version = 0;
  private log: Array<{ version: number; dirs: readonly string[] | "all" }> = [];

  /** `start`: workspace-relative ("" for the root); `startArg`: how rg is given it (`.` or `./rel`). */
  constructor(
    readonly flags: readonly string[],
    readonly start: string,
    readonly startArg: string,
  ) {}

  /** A fresh listing, or undefined when rg reported anything but a clean list (then it is not cached). */
  static async build(runner: ListingRunner, flags: readonly string[], start: string, startArg: string) {
    const listing = new Listing(flags, start, startArg);
    const paths = await listFiles(runner, flags, [], startArg);
    if (paths === undefined) return undefined;
    listing.add(paths);
    return listing;
  }

  /** Record an entry change (`dir`/`name` created, deleted, renamed) for the next refresh. */
  noteEntry(dir: string, name: string): void {
    const child = join(dir, name);
    if (within(this.start, child)) this.full = true;
    else if (within(dir, this.start)) {
      this.changedDirs.add(dir);
      this.changedTrees.add(child);
    }
  }

  /** Record that the ignore rules of `dir` ("" for the root and above) may have changed. */
  noteIgnore(dir: string): void {
    if (within(this.start, dir)) this.full = true;
    else if (within(dir, this.start)) {
      this.changedDirs.add(dir);
      this.changedTrees.add(dir);
    }
  }

  /** Bring the listing up to date; false when rg did not give a clean list (drop the listing). */
  async refresh(runner: ListingRunner): Promise<boolean> {
    if (!this.full && this.changedDirs.size === 0) return true;
    const excluded = this.full ? [] : this.exclusions(runner.root);
    const globs = excluded?.map(excludeGlob);
    const bytes = globs?.reduce((n, g) => n + (g?.length ?? Number.POSITIVE_INFINITY) + 8, 0) ?? 0;
    const partial =
      excluded !== undefined && globs !== undefined && !this.full && bytes <= MAX_EXCLUDE_ARG_BYTES;
    const paths = await listFiles(runner, this.flags, partial ? (globs as string[]) : [], this.startArg);
    this.full = false;
    this.changedDirs.clear();
    this.changedTrees.clear();
    if (paths === undefined) return false;
    const covered: string[] = [];
    if (partial) {
      const skip = new Set(excluded);
      for (const [dir, files] of [...this.byDir]) {
        if (this.isExcluded(dir, skip)) continue;
        this.byDir.delete(dir);
        covered.push(dir);
        for (const file of files) this.members?.delete(file);
      }
    } else {
      this.byDir.clear();
      this.members = undefined;
      this.unverifiedAll = true;
    }
    this.add(paths);
    this.version += 1;
    this.log.push({ version: this.version, dirs: partial ? [...covered, ...paths.map(parentOf)] : "all" });
    if (this.log.length > MAX_CHANGE_LOG) this.log.shift();
    for (const path of paths) this.unverifiedFiles.add(path);
    return true;
  }

  /** Directories whose listed paths changed after `version`, or "all" when that is not known. */
  changedSince(version: number): readonly string[] | "all" {
    const first = this.log.findIndex((entry) => entry.version === version + 1);
    if (first === -1) return version === this.version ? [] : "all";
    const dirs: string[] = [];
    for (const entry of this.log.slice(first)) {
      if (entry.dirs === "all") return "all";
      dirs.push(...entry.dirs);
    }
    return [...new Set(dirs)];
  }

  /** Note that the content store dropped `path` (a file, or a directory and everything below). */
  markUnverified(path: string, tree: boolean): void {
    (tree ? this.unverifiedTrees : this.unverifiedFiles).add(path);
  }

  /** Listed files that may be missing from the content store since the previous call. */
  takeUnverified(): readonly string[] {
    const all = this.unverifiedAll || this.unverifiedTrees.size > MAX_UNVERIFIED_TREES;
    const out = all ? this.paths() : [...this.unverifiedFiles].filter((p) => this.has(p));
    if (!all && this.unverifiedTrees.size > 0) {
      for (const [dir, files] of this.byDir) {
        if ([...this.unverifiedTrees].some((t) => within(dir, t))) (out as string[]).push(...files);
      }
    }
    this.unverifiedAll = false;
    this.unverifiedFiles.clear();
    this.unverifiedTrees.clear();
    return out;
  }

  /** Put back what `takeUnverified` returned when it could not all be checked. */
  restoreUnverified(paths: readonly string[]): void {
    for (const path of paths) this.unverifiedFiles.add(path);
  }

  /** Every listed path (workspace-relative), in no particular order. */
  paths(): readonly string[] {
    this.flat ??= [...this.byDir.values()].flat();
    return this.flat;
  }

  has(path: string): boolean {
    this.members ??= new Set(this.paths());
    return this.members.has(path);
  }

  private add(paths: string[]): void {
    for (const path of paths) {
      const dir = parentOf(path);
      const list = this.byDir.get(dir);
      if (list === undefined) this.byDir.set(dir, [path]);
      else list.push(path);
    }
    this.flat = undefined;
    // Kept in step rather than rebuilt: a refresh touches a few directories of a large listing.
    for (const path of paths) this.members?.add(path);
  }

  private isExcluded(dir: string, excluded: Set<string>): boolean {
    for (let d = dir; within(d, this.start) && d !== this.start; d = parentOf(d)) {
      if (excluded.has(d)) return true;
      if (d === "") break;
    }
    return false;
  }

  /**
   * Subtrees the refresh may skip: below every directory on the way from the start to a changed one,
   * each child directory (as on disk now) that is neither on such a way nor itself changed.
   */
  private exclusions(root: string): string[] {
    const onWay = new Set<string>();
    for (const dir of this.changedDirs) {
      for (let d = dir; within(d, this.start); d = parentOf(d)) {
        onWay.add(d);
        if (d === this.start || d === "") break;
      }
    }
    const inChangedTree = (d: string) => [...this.changedTrees].some((t) => within(d, t));
    const excluded: string[] = [];
    for (const dir of onWay) {
      if (inChangedTree(dir)) continue;
      let entries: import("node:fs").Dirent[];
      try {
        entries = readdirSync(dir === "" ? root : `${root}/${dir}`, { withFileTypes: true });
      } catch {
        continue; // Gone (rg finds nothing there either) or unreadable (rg reports it, dropping the listing).
      }
      for (const entry of entries) {
        const child = join(dir, entry.name);
        if (entry.isDirectory() && entry.name !== ".git" && !onWay.has(child) && !inChangedTree(child)) {
          excluded.push(child);
        }
      }
    }
    return excluded;
  }
}

/** `rg --files` with extra exclusion globs; the paths, or undefined unless rg printed a clean list. */
async function listFiles(
  runner: ListingRunner,
  flags: readonly string[],
  excludeGlobs: string[],
  startArg: string,
): Promise<string[] | undefined> {
  const paths: string[] = [];
  const outcome = await runRg({
    rgPath: runner.rgPath,
    cwd: runner.root,
    args: [
      ...RG_BASE_ARGS,
      ...flags,
      "--files",
      "--null",
      ...excludeGlobs.flatMap((g) => ["--glob", g]),
      "--",
      startArg,
    ],
    shape: "path",
    timeoutMs: runner.timeoutMs,
    onRecord: (path) => paths.push(path) > 0,
  });
  const clean = outcome.kind === "exited" && outcome.code !== 2 && outcome.stderr === "";
  return clean && outcome.notes.length === 0 ? paths : undefined;
}
