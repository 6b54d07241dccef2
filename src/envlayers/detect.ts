import { parse as parseToml } from "smol-toml";
import type { EnvironmentSpec } from "../swebench/index.js";
import { git } from "../workspace/index.js";
import { detectNodeEnvironment } from "./detect-node.js";

/** Reads a file of the repository at the commit being set up; undefined when it has none. */
export type ReadRepoFile = (path: string) => Promise<string | undefined>;

/** An environment `auto` chose, and each thing it decided, for a person to check. */
export interface DetectedEnvironment {
  spec: EnvironmentSpec;
  decisions: string[];
}

/** Extras and dependency groups that hold a project's test requirements, most specific first. */
const TEST_GROUPS = ["test", "tests", "testing", "dev"];
const REQUIREMENT_FILES = [
  "requirements-test.txt",
  "requirements-tests.txt",
  "requirements_test.txt",
  "requirements-testing.txt",
  "test-requirements.txt",
  "test_requirements.txt",
  "requirements-dev.txt",
  "requirements_dev.txt",
  "dev-requirements.txt",
  "requirements/test.txt",
  "requirements/tests.txt",
  "requirements/testing.txt",
  "requirements/dev.txt",
  "tests/requirements.txt",
];

type Table = Record<string, unknown>;
const table = (v: unknown): Table | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Table) : undefined;
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

/** Shell-quote one requirement ("pytest>=9" must not become a redirection). */
export function quote(word: string): string {
  return /^[\w.@/=:+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A line that installs one optional requirement: when these indexes do not have it the build goes
 * on and its log says so — a test plugin for benchmarks should not cost every task of the repository.
 */
export function optionalInstall(requirement: string): string {
  return `pip install ${quote(requirement)} || echo "acilab: ${requirement.replace(/["$`\\]/g, "")} is not installable from these package indexes; tests that need it will fail"`;
}

/** The first group of a mapping whose name says it is for tests, with its name. */
function testGroup(groups: Table | undefined): { name: string; items: unknown } | undefined {
  if (!groups) return undefined;
  for (const name of TEST_GROUPS) if (groups[name] !== undefined) return { name, items: groups[name] };
  return undefined;
}

/**
 * A test extra written as a literal list in setup.py (`"tests": ["pytest", "pytz"]`), found by its
 * text: setup.py is a program, and the host runs nothing of the repository's.
 */
export function setupPyExtra(text: string): { name: string; items: string[] } | undefined {
  for (const name of TEST_GROUPS) {
    const list = new RegExp(`["']${name}["']\\s*:\\s*\\[([^\\]]*)\\]`).exec(text)?.[1];
    if (list === undefined) continue;
    const items = [...list.matchAll(/["']([^"']+)["']/g)].map((m) => m[1] as string);
    if (items.length > 0) return { name, items };
  }
  return undefined;
}

/** A Poetry dependency table's names as pip requirements (Poetry's `^1.2` is not pip's syntax). */
function poetryNames(deps: Table | undefined): string[] {
  return Object.keys(deps ?? {}).filter((n) => n.toLowerCase() !== "python");
}

/** `[options.extras_require]` of a setup.cfg: extra → requirements. */
function setupCfgExtras(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let inSection = false;
  let key: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const head = /^\s*\[([^\]]+)\]/.exec(line);
    if (head) {
      inSection = head[1]?.trim() === "options.extras_require";
      key = undefined;
      continue;
    }
    if (!inSection || /^\s*[#;]/.test(line) || line.trim() === "") continue;
    const kv = /^(\S[^=]*?)\s*=\s*(.*)$/.exec(line);
    if (kv) {
      key = kv[1] as string;
      out.set(key, (kv[2] as string).trim() === "" ? [] : [(kv[2] as string).trim()]);
    } else if (key) out.get(key)?.push(line.trim());
  }
  return out;
}

/**
 * tox's `[testenv] deps`: requirements, and requirement files named with -r. A line behind a factor
 * condition (`unidecode: Unidecode`, `py38,py39: mock`, `!lint: x`) is for some tox environments only
 * and is left out (`conditional` counts them): acilab builds one environment, with no factors.
 */
export function toxDeps(text: string): { requirements: string[]; files: string[]; conditional: string[] } {
  const requirements: string[] = [];
  const files: string[] = [];
  let inEnv = false;
  let inDeps = false;
  for (const line of text.split(/\r?\n/)) {
    const head = /^\s*\[([^\]]+)\]/.exec(line);
    if (head) {
      inEnv = head[1]?.trim() === "testenv";
      inDeps = false;
      continue;
    }
    if (!inEnv) continue;
    // configparser takes `key: value` as well as `key = value` (python-slugify writes `commands_pre:`).
    const kv = /^(\w[\w-]*)\s*[=:]\s*(.*)$/.exec(line);
    if (kv) {
      inDeps = kv[1] === "deps";
      if (inDeps && (kv[2] as string).trim() !== "") requirements.push((kv[2] as string).trim());
      continue;
    }
    if (inDeps && /^\s+\S/.test(line)) requirements.push(line.trim());
  }
  const kept: string[] = [];
  const conditional: string[] = [];
  for (const r of requirements) {
    if (r.startsWith("#") || r.includes("{")) continue; // tox substitutions need tox
    if (/^!?[\w.-]+(?:\s*,\s*!?[\w.-]+)*\s*:\s/.test(r)) {
      conditional.push(r);
      continue;
    }
    const file = /^-r\s*(\S+)$/.exec(r)?.[1];
    if (file) files.push(file);
    else if (!r.startsWith("-")) kept.push(r.replace(/\s*#.*$/, ""));
  }
  return { requirements: kept, files, conditional };
}

/**
 * The common cases of a Python repository, as a person would set it up: the project installed
 * editable (its build backend then writes generated files such as a `_version.py`), its test
 * requirements from an extra, a dependency group, Poetry's dev group, requirement files or tox.ini,
 * each optional line allowed to miss, and pytest at the version the pytest settings ask for.
 */
export async function detectPythonEnvironment(
  read: ReadRepoFile,
  options: { python?: string } = {},
): Promise<DetectedEnvironment> {
  const decisions: string[] = [];
  const install: string[] = [];
  const tests: string[] = [];
  const python = options.python ?? "python3";
  decisions.push(
    `python: ${python}${options.python ? "" : " (the first on PATH; name another with --python)"}`,
  );

  const pyprojectText = await read("pyproject.toml");
  let pyproject: Table | undefined;
  if (pyprojectText !== undefined) {
    try {
      pyproject = parseToml(pyprojectText) as Table;
    } catch (err) {
      decisions.push(
        `pyproject.toml does not parse as TOML (${(err as Error).message.split("\n")[0]}); ignored`,
      );
    }
  }
  const project = table(pyproject?.project);
  const setupPy = await read("setup.py");
  const setupCfg = await read("setup.cfg");
  const installable =
    project !== undefined || table(pyproject?.["build-system"]) !== undefined || setupPy !== undefined;
  if (installable) {
    // When the build backend cannot be had from these indexes (marshmallow pins flit_core<4), the
    // project's own requirements instead: the test command already puts the checkout on the path.
    const deps = strings(project?.dependencies).map(quote);
    install.push(
      `pip install -e . || { echo "acilab: the project does not install from these package indexes; its dependencies instead, the tests import the checkout"; ${deps.length > 0 ? `pip install ${deps.join(" ")}` : "true"}; }`,
    );
    const from = project
      ? "pyproject.toml [project]"
      : setupPy !== undefined
        ? "setup.py"
        : "pyproject.toml [build-system]";
    decisions.push(
      `install the project editable (${from}): the tests import the checkout, and the build backend writes its generated files`,
    );
  }
  const tool = table(pyproject?.tool);
  const versionFile =
    table(table(table(table(tool?.hatch)?.build)?.hooks)?.vcs)?.["version-file"] ??
    table(tool?.setuptools_scm)?.write_to ??
    table(tool?.setuptools_scm)?.version_file;
  if (typeof versionFile === "string")
    decisions.push(
      `${versionFile} is generated by the install: kept in the layer, put back in every checkout`,
    );

  const extra = testGroup(table(project?.["optional-dependencies"]));
  if (extra) {
    tests.push(...strings(extra.items));
    decisions.push(
      `test requirements: the "${extra.name}" extra of pyproject.toml (${strings(extra.items).length})`,
    );
  }
  const setupExtra = extra || setupPy === undefined ? undefined : setupPyExtra(setupPy);
  if (setupExtra) {
    tests.push(...setupExtra.items);
    decisions.push(
      `test requirements: the "${setupExtra.name}" extra of setup.py's extras_require (${setupExtra.items.length}), read as text, not run`,
    );
  }
  const group = testGroup(table(pyproject?.["dependency-groups"]));
  if (group) {
    tests.push(...strings(group.items));
    decisions.push(
      `test requirements: the "${group.name}" dependency group (${strings(group.items).length})`,
    );
  }
  const poetry = table(tool?.poetry);
  const poetryGroup = testGroup(table(poetry?.group));
  const poetryDev = poetryGroup
    ? table(table(poetryGroup.items)?.dependencies)
    : table(poetry?.["dev-dependencies"]);
  if (poetryDev) {
    tests.push(...poetryNames(poetryDev));
    decisions.push(
      `test requirements: Poetry's ${poetryGroup ? `"${poetryGroup.name}" group` : "dev-dependencies"} (${poetryNames(poetryDev).length}, by name: Poetry's version syntax is not pip's)`,
    );
  }
  if (!extra && setupCfg !== undefined) {
    const extras = setupCfgExtras(setupCfg);
    const name = TEST_GROUPS.find((n) => extras.has(n));
    if (name) {
      tests.push(...(extras.get(name) ?? []).flatMap((l) => l.split(";")[0]?.trim() ?? []).filter(Boolean));
      decisions.push(`test requirements: the "${name}" extra of setup.cfg`);
    }
  }
  const requirementFiles: string[] = [];
  for (const file of REQUIREMENT_FILES) if ((await read(file)) !== undefined) requirementFiles.push(file);
  const tox = await read("tox.ini");
  if (tox !== undefined && tests.length === 0) {
    const deps = toxDeps(tox);
    tests.push(...deps.requirements);
    for (const f of deps.files)
      if (!requirementFiles.includes(f) && (await read(f)) !== undefined) requirementFiles.push(f);
    if (deps.requirements.length + deps.files.length > 0)
      decisions.push(`test requirements: tox.ini's [testenv] deps`);
    if (deps.conditional.length > 0)
      decisions.push(
        `tox.ini: ${deps.conditional.length} deps line(s) for some tox environments only left out (${deps.conditional.slice(0, 3).join("; ")}): one environment is built, with no tox factors`,
      );
  }
  if (!installable && (await read("requirements.txt")) !== undefined) {
    install.push("pip install -r requirements.txt");
    decisions.push(
      "not installable (no pyproject.toml or setup.py): requirements.txt installed, the tests import the checkout",
    );
  }
  for (const f of requirementFiles) {
    install.push(
      `pip install -r ${quote(f)} || echo "acilab: not everything in ${f} is installable from these package indexes"`,
    );
    decisions.push(`test requirements: ${f}`);
  }
  const seen = new Set<string>();
  for (const req of tests) {
    const name = /^[A-Za-z0-9][A-Za-z0-9._-]*/.exec(req)?.[0]?.toLowerCase();
    if (!name || seen.has(name)) continue;
    seen.add(name);
    // Without its test runner nothing runs: pytest is the one requirement that may not miss.
    install.push(name === "pytest" ? `pip install ${quote(req.trim())}` : optionalInstall(req.trim()));
  }
  if (!seen.has("pytest")) {
    const min = await pytestMinversion(read, pyproject);
    const req = min ? `pytest>=${min}` : "pytest";
    install.push(`pip install ${quote(req)}`);
    decisions.push(
      `pytest: ${req}${min ? " (the pytest settings' minversion)" : " (no test requirement names it)"}`,
    );
  }
  if (!installable && install.length === 1)
    decisions.push("nothing to install but pytest: no pyproject.toml, setup.py or requirements file");
  return { spec: { python, install }, decisions };
}

/** `minversion` of the repository's pytest settings (pyproject.toml, pytest.ini, setup.cfg, tox.ini). */
async function pytestMinversion(
  read: ReadRepoFile,
  pyproject: Table | undefined,
): Promise<string | undefined> {
  const fromToml = table(table(table(pyproject?.tool)?.pytest)?.ini_options)?.minversion;
  if (typeof fromToml === "string" || typeof fromToml === "number") return String(fromToml);
  for (const file of ["pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg"]) {
    const text = await read(file);
    const m = text && /^\s*minversion\s*=\s*([\d.]+)/m.exec(text);
    if (m) return m[1];
  }
  return undefined;
}

/** `auto` for one commit of a repository: its files read with git, nothing of it run. */
/** Files that make a repository a Python project, whatever else it holds. */
const PYTHON_PROJECT = ["pyproject.toml", "setup.py", "setup.cfg", "requirements.txt"];

/**
 * `auto` at a commit: a Node environment for a repository whose tests are JavaScript or TypeScript
 * (`language`, from the test setup; else: a package.json and no Python project files), else Python.
 */
export async function autoEnvironment(
  repoPath: string,
  commit: string,
  options: { python?: string; node?: string; language?: "python" | "node" } = {},
): Promise<DetectedEnvironment> {
  const read: ReadRepoFile = async (path) => {
    try {
      return await git(repoPath, ["show", `${commit}:${path}`]);
    } catch {
      return undefined;
    }
  };
  let language = options.language;
  if (language === undefined) {
    const python = (await Promise.all(PYTHON_PROJECT.map(read))).some((t) => t !== undefined);
    language = !python && (await read("package.json")) !== undefined ? "node" : "python";
  }
  if (language === "node") return detectNodeEnvironment(read, options.node ? { node: options.node } : {});
  return detectPythonEnvironment(read, options.python ? { python: options.python } : {});
}
