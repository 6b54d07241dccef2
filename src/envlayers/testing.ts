import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { openSandbox, type Sandbox } from "../sandbox/index.js";
import type { EnvironmentSpec } from "../swebench/index.js";
import { git } from "../workspace/index.js";
import { layerMount } from "./mount.js";
import type { Layer } from "./store.js";

/**
 * A store for one test file's layers ($ACILAB_ENV_DIR), reachable by the sandbox user, and a folder
 * of wheels holding `acilabdep` — a package no system has — built from source here with Debian's
 * setuptools, offline: a repository whose tests need it passes only inside its environment.
 */
export function envFixture(): { root: string; store: string; wheels: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "acilab-envtest-")));
  chmodSync(root, 0o755);
  const store = join(root, "store");
  const wheels = join(root, "wheels");
  mkdirSync(store, { mode: 0o755 });
  mkdirSync(wheels, { mode: 0o755 });
  const src = join(root, "dep-src");
  mkdirSync(join(src, "acilabdep"), { recursive: true });
  writeFileSync(
    join(src, "pyproject.toml"),
    '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "acilabdep"\nversion = "1.0"\n',
  );
  writeFileSync(join(src, "acilabdep", "__init__.py"), "def double(x):\n    return 2 * x\n");
  execFileSync(
    "/usr/bin/python3",
    ["-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index", "-w", wheels, src],
    { env: { PATH: "/usr/bin:/bin", HOME: root, PIP_CONFIG_FILE: "/dev/null" }, stdio: "pipe" },
  );
  chmodSync(wheels, 0o755);
  return { root, store, wheels };
}

/** A spec on Debian's Python (its pytest and setuptools seen through system site packages), offline. */
export function offlineSpec(wheels: string, install: string[] = []): EnvironmentSpec {
  return {
    python: "/usr/bin/python3",
    system_site_packages: true,
    install: ["pip install --no-build-isolation -e .", ...install],
    indexes: { find_links: [wheels] },
  };
}

/** The files of a small src-layout project that imports acilabdep and a generated _version.py. */
export const CALC_FILES: Record<string, string> = {
  "pyproject.toml":
    '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "calc"\nversion = "0.1"\ndependencies = ["acilabdep"]\n\n[tool.setuptools.packages.find]\nwhere = ["src"]\n',
  ".gitignore": "src/calc/_version.py\n*.egg-info/\n",
  "src/calc/__init__.py":
    "from acilabdep import double\nfrom calc._version import VERSION\n\n\ndef quadruple(x):\n    return double(x) + x\n",
  "tests/test_calc.py":
    "from calc import VERSION, quadruple\n\n\ndef test_quadruple():\n    assert quadruple(3) == 12\n\n\ndef test_version():\n    assert VERSION == '1.0'\n",
};
/** The install line that generates calc's _version.py, as a build backend's version hook would. */
export const GENERATE_VERSION = `echo "VERSION = '1.0'" > src/calc/_version.py`;
/** The fix of calc's bug. */
export const CALC_FIX = "def quadruple(x):\n    return double(double(x))\n";

/**
 * A Node repository whose tests need `acilab-nodedep` — a package no registry has, packed here from
 * source into the repository's vendor/ folder with npm, offline — locked by a package-lock.json that
 * npm wrote offline. Its tests (node's runner) pass only inside its environment.
 */
export function nodeRepoFiles(root: string): Record<string, string> {
  const src = join(root, "nodedep-src");
  mkdirSync(src, { recursive: true });
  writeFileSync(
    join(src, "package.json"),
    JSON.stringify({
      name: "acilab-nodedep",
      version: "1.0.0",
      main: "index.js",
      bin: { "acilab-nodedep": "bin.js" },
    }),
  );
  writeFileSync(join(src, "index.js"), "exports.double = (x) => 2 * x;\n");
  writeFileSync(
    join(src, "bin.js"),
    "#!/usr/bin/env node\nconsole.log('acilab-nodedep ' + require('./index.js').double(21));\n",
  );
  chmodSync(join(src, "bin.js"), 0o755);
  const vendor = join(root, "vendor");
  mkdirSync(vendor, { recursive: true });
  const env = offlineNpm(root);
  execFileSync("npm", ["pack", "--silent", "--pack-destination", vendor, src], { env, stdio: "pipe" });
  const tarball = NODE_DEP_TARBALL;
  const files: Record<string, string> = {
    "package.json": `${JSON.stringify({ name: "calc", version: "0.1.0", private: true, dependencies: { "acilab-nodedep": `file:${tarball}` }, scripts: { test: "node --test" } }, null, 2)}\n`,
    ".gitignore": "node_modules/\n",
    "lib/calc.js":
      "const { double } = require('acilab-nodedep');\n\nexports.quadruple = (x) => double(x) + x;\n",
    "test/calc.test.js":
      "const test = require('node:test');\nconst assert = require('node:assert');\nconst { quadruple } = require('../lib/calc.js');\n\ntest('quadruple', () => assert.strictEqual(quadruple(3), 12));\ntest('zero', () => assert.strictEqual(quadruple(0), 0));\n",
  };
  files["package-lock.json"] = npmLock(root, files["package.json"] as string);
  return files;
}

/**
 * The package-lock.json npm writes, offline, for this package.json (its `file:` dependencies are
 * the tarballs under `root`).
 */
export function npmLock(root: string, packageJson: string): string {
  const lockDir = mkdtempSync(join(root, "lock-"));
  writeFileSync(join(lockDir, "package.json"), packageJson);
  if (packageJson.includes(NODE_DEP_TARBALL)) {
    mkdirSync(join(lockDir, "vendor"));
    execFileSync("cp", [join(root, NODE_DEP_TARBALL), join(lockDir, "vendor")]);
  }
  const env = offlineNpm(root);
  execFileSync("npm", ["install", "--package-lock-only", "--silent"], { cwd: lockDir, env, stdio: "pipe" });
  return readFileSync(join(lockDir, "package-lock.json"), "utf8");
}

/** npm run by the tests on the host: offline, its cache and home in the test's folder. */
function offlineNpm(root: string): NodeJS.ProcessEnv {
  return {
    PATH: "/usr/bin:/bin",
    HOME: root,
    npm_config_cache: join(root, ".npm"),
    npm_config_offline: "true",
  };
}

/** The tarball nodeRepoFiles packed, to copy into each repository made from them. */
export const NODE_DEP_TARBALL = "vendor/acilab-nodedep-1.0.0.tgz";
/** The fix of the Node calc's bug. */
export const NODE_CALC_FIX =
  "const { double } = require('acilab-nodedep');\n\nexports.quadruple = (x) => double(double(x));\n";

/**
 * A bwrap sandbox over a fresh clone of `repo` (at `checkout`) with the layer mounted and every setup
 * line of its mount run, as a task's sandbox is opened; a setup line that fails throws.
 */
export async function layerSandbox(layer: Layer, repo: string, checkout: string): Promise<Sandbox> {
  const mount = await layerMount(layer);
  await git(dirname(checkout), ["clone", "-q", repo, checkout]);
  chmodSync(checkout, 0o777);
  const { sandbox } = await openSandbox({
    workspace: checkout,
    readOnlyBinds: mount.binds,
    env: mount.env,
    backend: "bwrap",
  });
  for (const line of mount.setup) {
    const r = await sandbox.exec({ argv: ["bash", "-c", line], timeoutMs: 60_000 });
    if (r.exitCode !== 0) {
      await sandbox.close();
      throw new Error(`setup line failed (exit ${r.exitCode}): ${line}\n${r.output}`);
    }
  }
  return sandbox;
}
