/**
 * A SWE-bench row as published (its twelve fields) made runnable here: what the row lacks —
 * `test_command`, `log_parser`, `acilab_env`, `repo_path` — comes from the recipe for its (repo,
 * version) and from the facts the caller found (where the repository is, its requirements file at the
 * environment commit). Fields the row already has win. Pure: the caller does the reading.
 */
import { parse as parseYaml } from "yaml";
import { testDirectives } from "./directives.js";
import type { Recipe } from "./recipes.js";
import type { PythonEnvironmentSpec } from "./types.js";

/** What the caller found for a row. */
export interface RowFacts {
  /** The repository's folder in the store, or the row's own repo_path. */
  repoPath: string;
  /** `requirements: files` — the text of the first requirement file at the environment commit, included files inlined. */
  requirements?: string;
  /** `requirements: environment` — the environment.yml's text at the environment commit. */
  environmentYml?: string;
}

/** The fields a row needs and a recipe gives. */
export const RECIPE_FIELDS = ["test_command", "log_parser", "acilab_env", "repo_path"] as const;

/**
 * True for a row as SWE-bench publishes it (no test command or log parser of its own): its recipe
 * fills what it lacks. acilab's own rows (`tasks mirror`, `tasks export`) carry both and are taken as
 * they are, an environment only if they name one.
 */
export function needsRecipe(row: Record<string, unknown>): boolean {
  return row.test_command === undefined || row.log_parser === undefined;
}

/** The row with what it lacks filled from the recipe and the facts; its own fields are kept. */
export function completeRow(
  row: Record<string, unknown>,
  recipe: Recipe,
  facts: RowFacts,
): Record<string, unknown> {
  const testPatch = typeof row.test_patch === "string" ? row.test_patch : "";
  const env = Object.entries(recipe.test_env ?? {}).map(([k, v]) => `${k}=${v}`);
  const command = [
    ...(env.length > 0 ? ["env", ...env] : []),
    ...recipe.test,
    ...testDirectives(testPatch, recipe.directives),
  ];
  return {
    ...row,
    test_command: row.test_command ?? command,
    log_parser: row.log_parser ?? recipe.log_parser,
    acilab_env: row.acilab_env ?? recipeEnvironment(recipe, facts, testDirectives(testPatch, "files")),
    repo_path: row.repo_path ?? facts.repoPath,
  };
}

/**
 * The environment a recipe describes: an interpreter by version, requirement groups, the install.
 * `testFiles` are the row's test files: a requirement only other test files import is optional.
 */
export function recipeEnvironment(
  recipe: Recipe,
  facts: RowFacts,
  testFiles: readonly string[] = [],
): PythonEnvironmentSpec {
  const groups: string[][] = [];
  if (recipe.packages && recipe.packages.length > 0) groups.push(recipe.packages);
  if (recipe.requirements === "files" && facts.requirements !== undefined)
    groups.push(requirementLines(facts.requirements));
  if (recipe.requirements === "environment" && facts.environmentYml !== undefined)
    groups.push(environmentYmlRequirements(facts.environmentYml));
  if (recipe.pip && recipe.pip.length > 0) groups.push(recipe.pip);
  return {
    python: `python${recipe.python}`,
    packages: groups.filter((g) => g.length > 0),
    install: [...(recipe.pre_install ?? []), ...(recipe.install ? [recipe.install] : [])],
    ...optionalOf(recipe, testFiles),
    recipe: `${recipe.repo} ${recipe.version}`,
  };
}

/** The requirements a row's tests do without: `not_for_tests`, and `needed_only_by` others' files. */
function optionalOf(recipe: Recipe, testFiles: readonly string[]): { optional?: string[] } {
  const others = Object.entries(recipe.needed_only_by ?? {})
    .filter(([, files]) => !files.some((f) => testFiles.includes(f)))
    .map(([name]) => name);
  const optional = [...(recipe.not_for_tests ?? []), ...others];
  return optional.length > 0 ? { optional } : {};
}

/** Requirements SWE-bench swaps out: yanked from PyPI. */
const REPLACED: Array<[string, string]> = [["types-pkg_resources", "types-setuptools"]];

/**
 * A requirements file's requirements, one specifier each: comments, `-e .` and `.[test]` lines left
 * out as SWE-bench does, and option lines (`--index-url`, `-c`) too — the machine's indexes are the
 * sources here. (`-r other.txt` is inlined by the caller, who reads files.)
 */
export function requirementLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\s+#.*$/, "").trim();
    if (line === "" || line.startsWith("#") || line.startsWith("-") || line.startsWith(".")) continue;
    const replaced = REPLACED.find(([name]) => new RegExp(`^${name}(?:[<>=!~].*)?$`).test(line));
    out.push(replaced ? replaced[1] : line);
  }
  return out;
}

/** The names of requirements files a requirements file includes (`-r other.txt`), relative to it. */
export function includedFiles(text: string): string[] {
  return text
    .split("\n")
    .map((l) => /^\s*-r\s*(\S+)/.exec(l)?.[1])
    .filter((f): f is string => f !== undefined);
}

/**
 * A conda environment.yml's dependencies as pip specifiers: its `pip:` list as written, conda
 * entries translated (`name=1.2` is conda's 1.2.*, `name>=1.2` as it is); python and pip themselves
 * are the interpreter and the venv's.
 */
export function environmentYmlRequirements(text: string): string[] {
  const doc = parseYaml(text) as { dependencies?: unknown[] } | null;
  const out: string[] = [];
  for (const dep of doc?.dependencies ?? []) {
    if (typeof dep === "string") {
      const m = /^([A-Za-z0-9_.-]+)\s*(.*)$/.exec(dep.trim());
      if (!m) continue;
      const [, name, spec] = m as unknown as [string, string, string];
      if (name === "python" || name === "pip") continue;
      if (spec === "") out.push(name);
      else if (/^=[^=]/.test(spec)) out.push(`${name}==${spec.slice(1)}${spec.includes("*") ? "" : ".*"}`);
      else out.push(`${name}${spec.replace(/\s+/g, "")}`);
    } else if (dep && typeof dep === "object" && Array.isArray((dep as { pip?: unknown }).pip))
      for (const p of (dep as { pip: unknown[] }).pip) if (typeof p === "string") out.push(p.trim());
  }
  return out;
}
