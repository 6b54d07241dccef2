import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { LOG_PARSERS, type LogParserName } from "../parsers/index.js";
import { git } from "../workspace/index.js";

const LibraryJson = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "lower-case letters, digits, '.', '_' or '-'"),
  language: z.enum(["python", "typescript", "javascript"]),
  description: z.string(),
  test_command: z.array(z.string()).min(1),
  log_parser: z.string().refine((n) => n in LOG_PARSERS, {
    message: `unknown log parser; use one of ${Object.keys(LOG_PARSERS).join(", ")}`,
  }),
});

/** A small library written for the built-in suite, kept as its history: one patch per commit. */
export interface Library {
  name: string;
  language: "python" | "typescript" | "javascript";
  description: string;
  /** The default test command of the library's tasks (placeholders unresolved). */
  testCommand: string[];
  logParser: LogParserName;
  dir: string;
  /** `history/NNNN-*.patch`, in order. */
  patches: string[];
}

/** The libraries' home in the checkout: tasks/libs/<name>/. */
export function loadLibrary(libsDir: string, name: string): Library {
  const dir = join(libsDir, name);
  const file = join(dir, "library.json");
  if (!existsSync(file))
    throw new Error(
      `library "${name}" not found: no ${file}. Libraries: ${listLibraries(libsDir).join(", ")}`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}); fix the file`);
  }
  const parsed = LibraryJson.safeParse(raw);
  if (!parsed.success) throw new Error(`${file} is not a valid library:\n${z.prettifyError(parsed.error)}`);
  const historyDir = join(dir, "history");
  const patches = existsSync(historyDir)
    ? readdirSync(historyDir)
        .filter((f) => /^\d{4}-.*\.patch$/.test(f))
        .sort()
        .map((f) => join(historyDir, f))
    : [];
  if (patches.length === 0)
    throw new Error(`library "${name}" has no history: add git format-patch files to ${historyDir}`);
  const l = parsed.data;
  return {
    name: l.name,
    language: l.language,
    description: l.description,
    testCommand: l.test_command,
    logParser: l.log_parser as LogParserName,
    dir,
    patches,
  };
}

export function listLibraries(libsDir: string): string[] {
  if (!existsSync(libsDir)) return [];
  return readdirSync(libsDir)
    .filter((n) => existsSync(join(libsDir, n, "library.json")))
    .sort();
}

/** Where built library repositories are cached: $ACILAB_CACHE, else ~/.cache/acilab. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.ACILAB_CACHE ?? join(env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "acilab");
}

/** The tag naming the commit made from patch NNNN: a task's `base` resolves through it. */
export function baseTag(number: string): string {
  return `base-${number}`;
}

/** The history's last patch number ("0012"): a task without `base` starts there. */
export function lastPatchNumber(library: Library): string {
  const last = library.patches.at(-1) ?? "";
  return last.slice(last.lastIndexOf("/") + 1, last.lastIndexOf("/") + 5);
}

/**
 * The library as a real git repository, rebuilt from its patches with `git am` and cached under a
 * hash of them: the same patches give the same commit ids on every machine (dates come from the
 * patches, the committer is fixed). Each commit is tagged `base-NNNN` after its patch number.
 */
export async function buildLibraryRepo(library: Library, cache = cacheDir()): Promise<string> {
  const hash = createHash("sha256");
  for (const p of library.patches) hash.update(p.slice(p.lastIndexOf("/"))).update(readFileSync(p));
  const target = join(cache, "libs", `${library.name}-${hash.digest("hex").slice(0, 12)}`);
  if (existsSync(join(target, ".git"))) return target;
  mkdirSync(join(cache, "libs"), { recursive: true });
  const work = `${target}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(work);
  try {
    await git(work, ["init", "-q", "-b", "main"]);
    for (const patch of library.patches) {
      try {
        // git am takes author and date from the patch; the committer date follows it.
        await git(work, ["am", "-q", "--committer-date-is-author-date", "--keep-cr", patch]);
      } catch (err) {
        throw new Error(
          `library "${library.name}": ${patch} does not apply on the commits before it (${(err as Error).message.split("\n")[0]}); regenerate the history with git format-patch`,
        );
      }
      const name = patch.slice(patch.lastIndexOf("/") + 1, patch.lastIndexOf("/") + 5);
      await git(work, ["tag", baseTag(name)]);
    }
    try {
      renameSync(work, target);
    } catch {
      // Another process built the same library first: theirs is identical.
      rmSync(work, { recursive: true, force: true });
    }
    return target;
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
}

/** The commit id of `base-NNNN` in a built library repository. */
export async function resolveBase(repo: string, library: Library, base: string): Promise<string> {
  try {
    return (await git(repo, ["rev-parse", "--verify", `refs/tags/${baseTag(base)}^{commit}`])).trim();
  } catch {
    throw new Error(
      `library "${library.name}" has no patch numbered ${base} (its history runs 0001–${lastPatchNumber(library)}); fix the task's "base"`,
    );
  }
}
