/** `acilab env build|list|prune`: the environment layers repositories' tests run in (src/envlayers). */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  autoEnvironment,
  BUILD_LOG,
  EnvBuildError,
  ensureLayer,
  envStoreDir,
  layerDamage,
  listLayers,
  removeLayer,
  staleBuilds,
} from "../envlayers/index.js";
import { type EnvironmentSpec, parseEnvironmentSpec } from "../swebench/index.js";
import { loadInstanceRows, reposDir } from "../tasks/index.js";
import { git } from "../workspace/index.js";
import { numberOption, sandboxOption, UsageError } from "./args.js";
import { table } from "./format.js";
import { optionLines, parseOptions } from "./options.js";
import { FILTER, REPOS, SANDBOX } from "./shared-options.js";

type Out = (text: string) => void;

export const ENV_BUILD_OPTIONS = {
  repo: { type: "string", value: "PATH", help: "the git repository (folder or bundle) to build for" },
  commit: { type: "string", value: "REV", help: "the commit to build at", default: "HEAD" },
  python: {
    type: "string",
    value: "PY",
    help: "a Python environment's interpreter: a path, or a name on PATH (python3.9 from pyenv, a uv or conda python; default python3)",
  },
  node: {
    type: "string",
    value: "NODE",
    help: "a Node environment's node: a path, or a name on PATH (an nvm or volta node; default node)",
  },
  install: {
    type: "string",
    multiple: true,
    value: "LINE",
    help: "an install line, run at the repository root in the venv or for node_modules (repeatable); none: detected (auto)",
  },
  "system-site-packages": { type: "boolean", help: "the venv also sees the interpreter's own packages" },
  instances: {
    type: "string",
    value: "FILE",
    help: "build every environment this instances file names (acilab_env), instead of --repo",
  },
  force: { type: "boolean", help: "build again even when a whole layer exists" },
  sandbox: SANDBOX,
  repos: REPOS,
  filter: FILTER,
} as const;

export const ENV_LIST_OPTIONS = {
  json: { type: "boolean", help: "one JSON object per layer, its manifest" },
} as const;

export const ENV_PRUNE_OPTIONS = {
  all: { type: "boolean", help: "remove every layer" },
  "older-than": { type: "string", value: "DAYS", help: "remove layers built more than DAYS days ago" },
  failed: { type: "boolean", help: "remove failed and damaged layers (always done with --all)" },
} as const;

export const ENV_HELP = `acilab env — environments: an interpreter and a repository's dependencies, built once

Usage: acilab env build --repo PATH [--commit REV] [--python PY | --node NODE] [--install LINE]… [--force]
       acilab env build --instances FILE [--repos DIR] [--filter GLOB]
       acilab env list [--json]
       acilab env prune [KEY…] [--failed] [--older-than DAYS] [--all]

An environment is what a repository needs before its tests run: for Python, a venv made from the
interpreter you name with the dependencies its install lines add; for JavaScript and TypeScript, the
node_modules its lock file names (npm ci). It is built in the sandbox with the network open only to
the package indexes and registries this machine's pip and npm configurations name, kept as a
read-only layer named by a hash of (commit, interpreter, install lines, package sources), and
mounted at /env in every sandbox of the instances that name it (their "acilab_env" field): runs,
grading, validation, mirroring. A venv is first on PATH; a node_modules is linked into each checkout
with its .bin on PATH. Files the install generates in the repository (a _version.py) are kept in
the layer and put back in every checkout. Layers live in ${"$"}ACILAB_ENV_DIR (default: /var/cache/acilab/envs as root,
else ~/.cache/acilab/envs), each with manifest.json and ${BUILD_LOG}.

Run "acilab env <subcommand> --help" for its options.`;

export const ENV_BUILD_HELP = `acilab env build — build (or find) an environment layer

Usage: acilab env build --repo PATH [--commit REV] [--python PY | --node NODE] [--install LINE]… [--force]
       acilab env build --instances FILE [--repos DIR] [--filter GLOB]

Options:
${optionLines(ENV_BUILD_OPTIONS)}

Without --install the environment is detected (auto) from the repository's files at the commit, each
decision printed; the "acilab_env" to put in instances is printed last. A failed line is named with
the end of its output; the whole log is the layer's ${BUILD_LOG}.`;

export const ENV_LIST_HELP = `acilab env list — the environment layers of this machine

Usage: acilab env list [--json]

Options:
${optionLines(ENV_LIST_OPTIONS)}`;

export const ENV_PRUNE_HELP = `acilab env prune — remove environment layers

Usage: acilab env prune [KEY…] [--failed] [--older-than DAYS] [--all]

Options:
${optionLines(ENV_PRUNE_OPTIONS)}

Unfinished builds of processes that died are removed too. A removed layer is built again on its
next use.`;

export async function envCommand(argv: string[], out: Out, err: Out): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "build") return build(rest, out, err);
  if (sub === "list") return list(rest, out);
  if (sub === "prune") return prune(rest, out);
  if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") {
    out(ENV_HELP);
    return 0;
  }
  throw new UsageError(`unknown subcommand "${sub}": use build, list or prune`, "env");
}

async function build(argv: string[], out: Out, err: Out): Promise<number> {
  const command = "env build";
  const { values } = parseOptions(command, argv, ENV_BUILD_OPTIONS);
  if (values.help) {
    out(ENV_BUILD_HELP);
    return 0;
  }
  const backend = sandboxOption(values.sandbox, command);
  const jobs: Array<{ repoPath: string; commit: string; spec: EnvironmentSpec; label: string }> = [];
  if (values.instances !== undefined) {
    if (values.repo !== undefined) throw new UsageError("give --repo or --instances, not both", command);
    const seen = new Set<string>();
    // Published SWE-bench rows too: their environments come from the recipes (docs/swebench.md).
    const rows = loadInstanceRows(values.instances, { repos: reposDir(values.repos), filter: values.filter });
    for (const u of rows.unavailable) err(`unavailable: ${u.instance_id}: ${u.reason}`);
    for (const i of rows.instances) {
      if (!i.acilab_env) continue;
      const commit = i.environment_setup_commit || i.base_commit;
      const id = JSON.stringify([i.repo_path, commit, i.acilab_env]);
      if (seen.has(id)) continue;
      seen.add(id);
      jobs.push({ repoPath: i.repo_path, commit, spec: i.acilab_env, label: i.instance_id });
    }
    if (jobs.length === 0) {
      out(`no instance of ${values.instances} names an environment (acilab_env): nothing to build`);
      return 0;
    }
  } else {
    if (values.repo === undefined)
      throw new UsageError("--repo PATH or --instances FILE is required", command);
    // The build reads the repository from other folders than this one: a relative path is made whole.
    const repo = resolve(values.repo);
    if (!existsSync(repo)) throw new UsageError(`--repo ${values.repo}: no such folder or bundle`, command);
    let commit: string;
    try {
      commit = (await git(repo, ["rev-parse", "--verify", `${values.commit}^{commit}`])).trim();
    } catch {
      throw new UsageError(`${values.commit} is not a commit of ${repo}`, command);
    }
    if (values.python !== undefined && values.node !== undefined)
      throw new UsageError("give --python or --node, not both: an environment has one runtime", command);
    if (values.node !== undefined && values["system-site-packages"])
      throw new UsageError("--system-site-packages is for a Python environment, not --node", command);
    let spec: EnvironmentSpec;
    if (values.install && values.install.length > 0)
      spec =
        values.node !== undefined
          ? { node: values.node, install: [...values.install] }
          : { python: values.python ?? "python3", install: [...values.install] };
    else {
      const detected = await autoEnvironment(repo, commit, {
        ...(values.python !== undefined ? { python: values.python, language: "python" as const } : {}),
        ...(values.node !== undefined ? { node: values.node, language: "node" as const } : {}),
      });
      for (const d of detected.decisions) err(`auto: ${d}`);
      spec = detected.spec;
    }
    if (values["system-site-packages"] && "python" in spec) spec.system_site_packages = true;
    jobs.push({ repoPath: repo, commit, spec, label: repo });
  }
  let failed = 0;
  for (const job of jobs) {
    try {
      const layer = await ensureLayer({
        repoPath: job.repoPath,
        commit: job.commit,
        spec: job.spec,
        backend,
        log: err,
        ...(values.force ? { force: true } : {}),
      });
      out(`${layer.key}  ${layer.dir}  (${job.label})`);
      out(`"acilab_env": ${JSON.stringify(job.spec)}, "environment_setup_commit": "${job.commit}"`);
    } catch (e) {
      if (!(e instanceof EnvBuildError)) throw e;
      failed++;
      err(`acilab env build: ${e.message}`);
    }
  }
  return failed > 0 ? 1 : 0;
}

function list(argv: string[], out: Out): number {
  const { values } = parseOptions("env list", argv, ENV_LIST_OPTIONS);
  if (values.help) {
    out(ENV_LIST_HELP);
    return 0;
  }
  const store = envStoreDir();
  const layers = listLayers(store);
  if (values.json) {
    for (const l of layers)
      out(
        JSON.stringify({
          key: l.key,
          dir: l.dir,
          damage: layerDamage(l.dir, l.manifest) ?? null,
          manifest: l.manifest ?? null,
        }),
      );
    return 0;
  }
  if (layers.length === 0) {
    out(`no environments in ${store} (acilab env build makes one)`);
    return 0;
  }
  const rows = layers.map((l) => {
    const m = l.manifest;
    const damage = layerDamage(l.dir, l.manifest);
    return [
      l.key,
      damage ? (m?.status === "failed" ? "failed" : "damaged") : "ok",
      m?.interpreter ? `${m.interpreter.language} ${m.interpreter.version}` : "?",
      m ? m.commit.slice(0, 10) : "?",
      m ? `${(m.bytes / 1e6).toFixed(1)} MB` : "?",
      m ? m.created_at.slice(0, 16).replace("T", " ") : "?",
      m && "recipe" in m.spec && m.spec.recipe ? `SWE-bench ${m.spec.recipe}` : "-",
      m ? `${m.repo} — ${m.spec.install.join(" && ").slice(0, 60)}` : "(no manifest)",
    ];
  });
  out(
    table([
      ["key", "status", "runtime", "commit", "size", "built", "recipe", "repository — install"],
      ...rows,
    ]),
  );
  out(`${layers.length} environment${layers.length === 1 ? "" : "s"} in ${store}`);
  return 0;
}

function prune(argv: string[], out: Out): number {
  const command = "env prune";
  const { values, positionals } = parseOptions(command, argv, ENV_PRUNE_OPTIONS);
  if (values.help) {
    out(ENV_PRUNE_HELP);
    return 0;
  }
  const days = numberOption(values["older-than"], "older-than", command);
  if (!values.all && !values.failed && days === undefined && positionals.length === 0)
    throw new UsageError("say what to remove: KEY…, --failed, --older-than DAYS or --all", command);
  const store = envStoreDir();
  const layers = listLayers(store);
  for (const key of positionals)
    if (!layers.some((l) => l.key === key))
      throw new UsageError(`no environment ${key} in ${store} (acilab env list shows them)`, command);
  const cutoff = days === undefined ? undefined : Date.now() - days * 86_400_000;
  let removed = 0;
  for (const l of layers) {
    const built = l.manifest ? Date.parse(l.manifest.created_at) : 0;
    const drop =
      values.all ||
      positionals.includes(l.key) ||
      (values.failed && layerDamage(l.dir, l.manifest) !== undefined) ||
      (cutoff !== undefined && built < cutoff);
    if (!drop) continue;
    removeLayer(l.dir);
    removed++;
    out(`removed ${l.key}${l.manifest ? ` (${l.manifest.repo} at ${l.manifest.commit.slice(0, 10)})` : ""}`);
  }
  for (const dir of staleBuilds(store)) {
    removeLayer(dir);
    out(`removed an unfinished build: ${dir}`);
  }
  out(`${removed} environment${removed === 1 ? "" : "s"} removed`);
  return 0;
}

/** An environment spec from a JSON file (`tasks mirror --env FILE`), checked field by field. */
export function readSpecFile(file: string, command: string): EnvironmentSpec {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new UsageError(
      `--env ${file}: not a readable JSON file (${(e as Error).message.split("\n")[0]})`,
      command,
    );
  }
  const checked = parseEnvironmentSpec(raw);
  if ("problem" in checked)
    throw new UsageError(
      `--env ${file}: ${checked.problem} — expected {"python": "python3", "install": ["pip install -e .[test]"]} (and optionally "system_site_packages", "indexes") or {"node": "node", "install": ["npm ci"]}`,
      command,
    );
  return checked.spec;
}
