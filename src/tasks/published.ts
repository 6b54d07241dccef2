/**
 * Instances files as anyone writes them — SWE-bench, Lite, Verified and full rows unmodified, or
 * acilab's own — loaded row by row: a row that cannot run here (its repository is missing, no recipe
 * knows its (repo, version), it is malformed) is set aside with the reason, and the others load.
 */
import { execFileSync } from "node:child_process";
import { posix } from "node:path";
import picomatch from "picomatch";
import {
  completeRow,
  InputFileError,
  type Instance,
  idOf,
  includedFiles,
  needsRecipe,
  parseInstanceRow,
  type Recipe,
  type RowFacts,
  readRows,
  recipeFor,
} from "../swebench/index.js";
import { findRepository } from "./repo-store.js";

/** A row that cannot run here: graded as `environment_unavailable` with the reason. */
export interface UnavailableRow {
  instance_id: string;
  /** The row's `repo`, when it has one. */
  repo?: string;
  /** Where in the file ("line 12"). */
  where: string;
  /** What is missing or wrong, and what to do. */
  reason: string;
}

export interface LoadedInstances {
  instances: Instance[];
  unavailable: UnavailableRow[];
  /** Rows without a usable instance_id, and duplicates: nothing can be reported under their id. */
  problems: string[];
  /** Rows the filter left out. */
  filteredOut: number;
}

export interface LoadOptions {
  /** The repository store (--repos / $ACILAB_REPOS). */
  repos?: string | undefined;
  /** A glob on instance ids (`sympy__*`); rows that do not match are not loaded. */
  filter?: string | undefined;
  /** Only the rows whose id this accepts (an experiment's `ids`). */
  only?: (id: string) => boolean;
}

/**
 * Load an instances file (.jsonl or .json) row by row. Published rows get what they lack from their
 * recipe and the store; acilab's own rows are taken as they are (a relative repo_path against the
 * file's folder; a missing one from the store). Throws InputFileError only when the file itself
 * cannot be read or no row at all matches.
 */
export function loadInstanceRows(file: string, options: LoadOptions = {}): LoadedInstances {
  const { rows, problems } = readRows(file, { dict: false });
  const glob = options.filter ? picomatch(options.filter, { dot: true }) : () => true;
  const matches = (id: string) => glob(id) && (options.only?.(id) ?? true);
  const out: LoadedInstances = { instances: [], unavailable: [], problems, filteredOut: 0 };
  const seen = new Map<string, string>();
  for (const row of rows) {
    const id = idOf(row.value);
    if (id !== undefined && !matches(id)) {
      out.filteredOut++;
      continue;
    }
    const label = `${row.where}${id ? ` (${id})` : ""}`;
    if (id === undefined || id === "") {
      problems.push(`${label}: "instance_id" is missing or not a string; the row is left out`);
      continue;
    }
    const first = seen.get(id);
    if (first !== undefined) {
      problems.push(`${row.where}: instance "${id}" is a duplicate of ${first}; the first is kept`);
      continue;
    }
    seen.set(id, row.where);
    const result = loadRow(row.value, file, label, options.repos);
    if ("instance" in result) out.instances.push(result.instance);
    else {
      const repo = (row.value as { repo?: unknown }).repo;
      out.unavailable.push({
        instance_id: id,
        where: row.where,
        reason: result.reason,
        ...(typeof repo === "string" ? { repo } : {}),
      });
    }
  }
  // (Rows picked by id may all be absent: the caller names which.)
  if (out.instances.length === 0 && out.unavailable.length === 0 && !options.only)
    throw new InputFileError(file, [
      ...problems,
      options.filter ? `no instance id matches --filter "${options.filter}"` : "no instances in the file",
    ]);
  return out;
}

function loadRow(
  value: unknown,
  file: string,
  label: string,
  repos: string | undefined,
): { instance: Instance } | { reason: string } {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { reason: "the row is not an object with SWE-bench's instance fields" };
  const row = value as Record<string, unknown>;
  const repo = typeof row.repo === "string" ? row.repo : undefined;
  let repoPath = typeof row.repo_path === "string" ? row.repo_path : undefined;
  if (repoPath === undefined) {
    if (repo === undefined) return { reason: `"repo" is missing: the row cannot name its repository` };
    try {
      repoPath = findRepository(repo, repos);
    } catch (err) {
      return { reason: (err as Error).message };
    }
  }
  let completed: Record<string, unknown> = { ...row, repo_path: repoPath };
  if (needsRecipe(row)) {
    const found = recipeFor(
      repo ?? "",
      typeof row.version === "string" ? row.version : String(row.version ?? ""),
    );
    if ("problem" in found) return { reason: found.problem };
    const commit = String(row.environment_setup_commit ?? row.base_commit ?? "");
    const facts = rowFacts(found.recipe, repoPath, commit);
    if ("reason" in facts) return facts;
    completed = completeRow(completed, found.recipe, facts);
  }
  const parsed = parseInstanceRow(completed, file, label);
  if ("problem" in parsed) return { reason: `malformed row: ${parsed.problem}` };
  return parsed;
}

/** The requirements file or environment.yml a recipe reads, at the environment commit. */
function rowFacts(recipe: Recipe, repoPath: string, commit: string): RowFacts | { reason: string } {
  const facts: RowFacts = { repoPath };
  if (recipe.requirements === undefined) return facts;
  const paths = recipe.requirements === "files" ? recipe.requirement_files : recipe.environment_files;
  for (const path of paths ?? []) {
    const text = readAt(repoPath, commit, path);
    if (text === undefined) continue;
    if (recipe.requirements === "environment") return { ...facts, environmentYml: text };
    // `-r other.txt` lines: the other file's requirements first, as SWE-bench orders them.
    const included: string[] = [];
    for (const name of includedFiles(text)) {
      const other = readAt(repoPath, commit, posix.join(posix.dirname(path), name));
      if (other !== undefined) included.push(other);
    }
    return { ...facts, requirements: [...included, text].join("\n") };
  }
  return {
    reason: `${recipe.repo} ${recipe.version}'s recipe installs the requirements in ${(paths ?? []).join(" or ")}, and none is at commit ${commit}`,
  };
}

/** A file's text at a commit, read as a blob (nothing of the repository's config runs), or undefined. */
function readAt(repoPath: string, commit: string, path: string): string | undefined {
  try {
    return execFileSync(
      "git",
      ["-c", "safe.directory=*", "-c", "core.fsmonitor=false", "cat-file", "blob", `${commit}:${path}`],
      { cwd: repoPath, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 * 1024 * 1024 },
    );
  } catch {
    return undefined;
  }
}
