/**
 * The local store of repositories that published SWE-bench rows name by `owner/name`: a folder
 * (`--repos DIR`, or $ACILAB_REPOS) holding each as `OWNER+NAME`, `OWNER__NAME` or `OWNER/NAME` — a
 * work tree, a bare repository, or a folder holding either at `repo/` (the layout of the repository
 * snapshots DEVELOPERS.md describes). A repository not in the store is cloned once into acilab's
 * cache where the network allows; offline the error names the folder to provide.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { cacheDir } from "./library.js";

/** The variable naming the store when no --repos is given. */
export const REPOS_ENV = "ACILAB_REPOS";

/** The store a command uses: its --repos, else $ACILAB_REPOS, else none. */
export function reposDir(given?: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = given ?? env[REPOS_ENV];
  return dir === undefined || dir === "" ? undefined : dir;
}

/** The folder names a repository may have in the store, in the order they are tried. */
export function storeNames(repo: string): string[] {
  const [owner, name] = repo.split("/") as [string, string];
  return [`${owner}+${name}`, `${owner}__${name}`, join(owner, name)];
}

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();

/** A git repository at `dir` (work tree or bare), or one at `dir/repo`: its path, else undefined. */
export function gitRepositoryAt(dir: string): string | undefined {
  for (const candidate of [dir, join(dir, "repo")]) {
    if (!isDir(candidate)) continue;
    if (existsSync(join(candidate, ".git"))) return candidate;
    if (existsSync(join(candidate, "HEAD")) && isDir(join(candidate, "objects"))) return candidate;
  }
  return undefined;
}

/** Clones tried in this process, so a store of 77 rows of one missing repository tries once. */
const clones = new Map<string, { path: string } | { error: string }>();

/** How long a clone may take; its failure is reported, not waited on forever. */
const CLONE_TIMEOUT_MS = 1_800_000;

/**
 * Where `repo` (owner/name) is: in the store, else in acilab's cache (cloned now when the network
 * allows). Throws an Error naming the folder to provide when it cannot be had.
 */
export function findRepository(repo: string, store: string | undefined): string {
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo) || repo.split("/").some((p) => p === "." || p === ".."))
    throw new Error(`"repo" is "${repo}", which is not owner/name`);
  if (store !== undefined)
    for (const name of storeNames(repo)) {
      const found = gitRepositoryAt(join(store, name));
      if (found) return found;
    }
  const cached = join(cacheDir(), "repos", storeNames(repo)[0] as string);
  if (gitRepositoryAt(cached)) return cached;
  let cloned = clones.get(repo);
  if (!cloned) {
    try {
      cloned = { path: clone(repo, cached) };
    } catch (err) {
      cloned = { error: (err as Error).message };
    }
    clones.set(repo, cloned);
  }
  if ("path" in cloned) return cloned.path;
  {
    const where =
      store === undefined
        ? "no repository store is set (give --repos DIR or set ACILAB_REPOS)"
        : `it is not in ${store}`;
    throw new Error(
      `repository ${repo} is missing: ${where}, and cloning it failed (${cloned.error}). Put a clone — a work tree, a bare repository, or a folder holding one at repo/ — at ${join(store ?? "DIR", storeNames(repo)[0] as string)}`,
    );
  }
}

/** Set to 1, no repository is cloned (tests, and machines whose network must not be tried). */
export const NO_CLONE_ENV = "ACILAB_NO_CLONE";

/** A bare clone into the cache, renamed into place whole (the commands that load rows wait for it). */
function clone(repo: string, into: string): string {
  if (process.env[NO_CLONE_ENV] === "1") throw new Error(`cloning is turned off by ${NO_CLONE_ENV}=1`);
  mkdirSync(join(cacheDir(), "repos"), { recursive: true });
  const tmp = `${into}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    execFileSync("git", ["clone", "--bare", "--quiet", `https://github.com/${repo}.git`, tmp], {
      timeout: CLONE_TIMEOUT_MS,
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
      stdio: ["ignore", "ignore", "pipe"],
    });
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    const e = err as { stderr?: Buffer; message: string };
    throw new Error((e.stderr?.toString() || e.message).trim().split("\n").at(-1) ?? "git clone failed");
  }
  renameSync(tmp, into);
  return into;
}
