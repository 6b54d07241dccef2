/**
 * SWE-bench's per-repository recipes — how each repository and version is installed and tested — kept
 * as one readable YAML file per repository in recipes/ (facts carried over from SWE-bench's harness,
 * v4.1.0: harness/constants and test_spec). A published row names only (repo, version); its recipe
 * gives the interpreter, the packages, the install line, the test command and the log parser.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { LOG_PARSER_NAMES } from "../parsers/index.js";

const VersionRecipe = z
  .object({
    versions: z.array(z.string()).min(1),
    /** The interpreter's version ("3.9"): found by version on this machine (pyenv, uv, conda, PATH). */
    python: z.string().regex(/^\d+\.\d+$/, 'a Python version such as "3.9"'),
    /** Requirements SWE-bench's image installs with conda before anything else (names pip knows too). */
    packages: z.array(z.string()).optional(),
    /** `files`: the repository's requirements file at the environment commit; `environment`: its conda environment.yml. */
    requirements: z.enum(["files", "environment"]).optional(),
    /** Requirements installed with pip after those (SWE-bench's pip_packages): mostly exact pins. */
    pip: z.array(z.string()).optional(),
    /** Shell lines run in the repository before the install line (SWE-bench's pre_install, less the system's part). */
    pre_install: z.array(z.string()).optional(),
    /** What SWE-bench's image does to the system (apt packages, locales): acilab does not; listed for people. */
    system_setup: z.array(z.string()).optional(),
    install: z.string().optional(),
    /** The test command before the test directives, as argv. */
    test: z.array(z.string()).min(1),
    /** Variables the test command runs with (SWE-bench's eval_commands exports and command prefixes). */
    test_env: z.record(z.string(), z.string()).optional(),
    /** Requirements no test imports (lint tooling): left out, and said so, when the indexes lack them. */
    not_for_tests: z.array(z.string()).optional(),
    /**
     * Requirements only some test files import, with those files: for a row whose test directives
     * name none of them, the requirement is left out, and said so, when the indexes lack it.
     */
    needed_only_by: z.record(z.string(), z.array(z.string())).optional(),
  })
  .strict();

const RepoRecipe = z
  .object({
    repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
    log_parser: z.enum(LOG_PARSER_NAMES),
    /** How test files become test directives: `files` as they are, `django-modules` as dotted modules. */
    directives: z.enum(["files", "django-modules"]),
    /** Where `requirements: files` looks, in order (the first that exists at the commit). */
    requirement_files: z.array(z.string()).optional(),
    environment_files: z.array(z.string()).optional(),
    environments: z.array(VersionRecipe).min(1),
  })
  .strict();

export type VersionRecipeSpec = z.infer<typeof VersionRecipe>;
export type RepoRecipeSpec = z.infer<typeof RepoRecipe>;

/** One (repo, version)'s recipe: the repository's fields and the version's. */
export interface Recipe extends Omit<RepoRecipeSpec, "environments">, Omit<VersionRecipeSpec, "versions"> {
  version: string;
}

export const RECIPES_DIR = join(dirname(fileURLToPath(import.meta.url)), "recipes");

/** A folder of recipes of one's own, same format, that add repositories or replace acilab's. */
export const RECIPES_ENV = "ACILAB_RECIPES";

const loaded = new Map<string, Map<string, RepoRecipeSpec>>();

/**
 * Every recipe: acilab's, and those of $ACILAB_RECIPES (one's own, which win for the same
 * repository). A broken file throws, naming the file and the field.
 */
export function recipes(env: NodeJS.ProcessEnv = process.env): Map<string, RepoRecipeSpec> {
  const own = env[RECIPES_ENV];
  return new Map([...recipesIn(RECIPES_DIR), ...(own ? recipesIn(own) : [])]);
}

/** The recipe files of one folder, read once per process. */
export function recipesIn(dir: string): Map<string, RepoRecipeSpec> {
  const cached = loaded.get(dir);
  if (cached) return cached;
  const out = new Map<string, RepoRecipeSpec>();
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith(".yaml"))
    .sort()) {
    const parsed = RepoRecipe.safeParse(parseYaml(readFileSync(join(dir, name), "utf8")));
    if (!parsed.success) throw new Error(`recipe ${join(dir, name)}: ${z.prettifyError(parsed.error)}`);
    out.set(parsed.data.repo, parsed.data);
  }
  loaded.set(dir, out);
  return out;
}

/** The recipe for (repo, version), or a sentence saying which part is unknown and what is known. */
export function recipeFor(
  repo: string,
  version: string,
  all: Map<string, RepoRecipeSpec> = recipes(),
): { recipe: Recipe } | { problem: string } {
  const repoRecipe = all.get(repo);
  if (!repoRecipe)
    return {
      problem: `no recipe for the repository ${repo}: acilab has SWE-bench's recipes for ${[...all.keys()].join(", ")}; give the row "test_command", "log_parser" and "acilab_env" instead`,
    };
  const env = repoRecipe.environments.find((e) => e.versions.includes(version));
  if (!env) {
    const known = repoRecipe.environments.flatMap((e) => e.versions);
    return {
      problem: `no recipe for ${repo} version "${version}": SWE-bench's harness knows ${known.join(", ")}`,
    };
  }
  const { environments: _, ...repoFields } = repoRecipe;
  const { versions: __, ...versionFields } = env;
  return { recipe: { ...repoFields, ...versionFields, version } };
}
