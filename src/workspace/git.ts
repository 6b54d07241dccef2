import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Git must not read the user's config or hooks: results would differ between machines. */
const GIT_ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "acilab",
  GIT_AUTHOR_EMAIL: "acilab@localhost",
  GIT_COMMITTER_NAME: "acilab",
  GIT_COMMITTER_EMAIL: "acilab@localhost",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
  LC_ALL: "C",
};

export async function git(
  cwd: string,
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<string> {
  try {
    const pending = run(
      "git",
      [
        "-c",
        "safe.directory=*",
        "-c",
        "core.hooksPath=/dev/null",
        // A repository's own config may name a program for git to run (fsmonitor): never on the host.
        "-c",
        "core.fsmonitor=false",
        "-c",
        "core.quotepath=off",
        ...args,
      ],
      {
        cwd,
        env: { ...GIT_ENV, ...options.env },
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    // Always close stdin: a git command that reads it (apply -, hash-object --stdin) must not wait forever.
    // (git may exit before reading it all: that EPIPE is git's answer, not ours to throw.)
    pending.child.stdin?.on("error", () => {});
    if (options.input === undefined) pending.child.stdin?.end();
    else pending.child.stdin?.end(options.input);
    const { stdout } = await pending;
    return stdout;
  } catch (err) {
    const e = err as { code?: string; stderr?: string; message: string };
    // spawn says ENOENT for a missing working folder as well as for a missing program.
    if (e.code === "ENOENT" && !existsSync(cwd))
      throw new Error(`${cwd}: no such folder (git was asked to run in it)`);
    if (e.code === "ENOENT")
      throw new Error("git is not installed; run `make` (it installs git) or `apt-get install git`");
    throw new Error(`git ${args.join(" ")} failed in ${cwd}: ${(e.stderr ?? e.message).trim()}`);
  }
}

/** Make `dir` a repository whose single commit is the current tree; returns the commit id. */
export async function commitAll(dir: string, message: string): Promise<string> {
  await git(dir, ["init", "-q", "-b", "main"]);
  await git(dir, ["add", "-A"]);
  await git(dir, ["commit", "-q", "--allow-empty", "-m", message]);
  return (await git(dir, ["rev-parse", "HEAD"])).trim();
}

/**
 * Host-side git over a work tree a sandboxed program could have written: git reads `gitDir` (a
 * repository we trust — the snapshot's, often read-only) with `workTree` as its work tree, never the
 * work tree's own .git, whose config can make git run a program of the writer's choosing
 * (core.fsmonitor, filter drivers, core.worktree). Commands that write an index get a scratch copy of
 * gitDir's; with `objects`, new objects go to a scratch store that borrows gitDir's.
 */
export async function withTrustedGit<T>(
  workTree: string,
  gitDir: string,
  fn: (env: Record<string, string>) => Promise<T>,
  options: { objects?: boolean } = {},
): Promise<T> {
  const scratch = mkdtempSync(join(tmpdir(), "acilab-git-"));
  try {
    const env: Record<string, string> = {
      GIT_DIR: gitDir,
      GIT_WORK_TREE: workTree,
      GIT_INDEX_FILE: join(scratch, "index"),
    };
    if (existsSync(join(gitDir, "index"))) copyFileSync(join(gitDir, "index"), join(scratch, "index"));
    if (options.objects) {
      mkdirSync(join(scratch, "objects"));
      env.GIT_OBJECT_DIRECTORY = join(scratch, "objects");
      env.GIT_ALTERNATE_OBJECT_DIRECTORIES = join(gitDir, "objects");
    }
    return await fn(env);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Paths that differ from the index or are untracked (not ignored). With `gitDir`, through
 * `withTrustedGit`: the workspace's own .git is not consulted.
 */
export async function dirtyPaths(dir: string, gitDir?: string): Promise<Set<string>> {
  const args = ["status", "--porcelain=v1", "-z", "--untracked-files=all"];
  let out: string;
  if (gitDir === undefined) out = await git(dir, args);
  else out = await withTrustedGit(dir, gitDir, (env) => git(dir, args, { env }));
  const paths = new Set<string>();
  const entries = out.split("\0");
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] ?? "";
    if (entry.length < 4) continue;
    paths.add(entry.slice(3));
    if (entry[0] === "R" || entry[0] === "C") i++; // renames carry the old path as the next entry
  }
  return paths;
}
