import { SANDBOX_PATH } from "../sandbox/index.js";
import { type EnvironmentSpec, isNodeEnvironment } from "../swebench/index.js";
import type { Interpreter, RuntimeLanguage } from "./interpreter.js";
import { sandboxNpm, specNpmSources } from "./npm-sources.js";
import { answeringSources } from "./probe.js";
import { type SandboxSources, sandboxPip, specSources } from "./sources.js";

/** Where a layer appears inside every sandbox: fixed, since a venv's scripts name it in their shebangs. */
export const ENV_MOUNT = "/env";
/** Where the repository is inside every sandbox (the task sandboxes' workspace). */
const WORKSPACE = "/workspace";
/**
 * The folders of node_modules that runners write their caches to (ava, babel, nyc: .cache; vite and
 * vitest: .vite, and .vite-temp for a bundled config). The layer is read-only, so each links to the sandbox's /tmp — itself, since every
 * command gets a fresh /tmp and a link to a folder of it would dangle.
 */
const NODE_CACHES = [".cache", ".vite", ".vite-temp"];

/**
 * What a runtime's layer is, told once for the build and every use: the lines that start it, the
 * step that moves the install's product into the layer, the files a whole layer has, the variables
 * and setup line each sandbox gets. Python's layer is a venv; Node's is the repository's node_modules.
 */
export interface RuntimePlan {
  language: RuntimeLanguage;
  /** For people: "Python", "node". */
  name: string;
  /** The interpreter named by the spec. */
  named: string;
  /** Lines before the spec's install lines (making the venv). */
  start: (interpreter: Interpreter) => string[][];
  /** A shell script run after the install, before the generated files are collected. */
  finish: string;
  /** Paths below env/ a whole layer has. */
  required: string[];
  /** Every sandbox's variables (build and use). */
  env: Record<string, string>;
  /** Setup lines every checkout runs first, besides putting back generated files. */
  setup: string[];
  /** Where packages come from, as the build sandbox sees them (and as the layer's key names them). */
  sources: () => SandboxSources;
  /** The same, less the indexes that do not answer now, each said with why: what a build uses. */
  buildSources: () => Promise<{ sources: SandboxSources; left: string[] }>;
}

/** The runtime a spec is for, and how its layer is made and used. */
export function runtimePlan(spec: EnvironmentSpec): RuntimePlan {
  if (isNodeEnvironment(spec))
    return {
      language: "node",
      name: "node",
      named: spec.node,
      start: () => [],
      // The install wrote node_modules into the checkout; the layer keeps it, the checkout links to it.
      finish: `set -e
if [ ! -d node_modules ]; then
  # npm makes none for a package with no dependencies: an empty one is the right layer for it.
  if node -e 'const p = require("./package.json"); process.exit(Object.keys({ ...p.dependencies, ...p.devDependencies }).length > 0 ? 1 : 0)' 2>/dev/null; then
    mkdir node_modules; echo "acilab: package.json names no dependencies: the layer's node_modules is empty"
  else
    echo "acilab: the install lines left no node_modules at the repository root (npm ci or npm install makes it)"; exit 1
  fi
fi
mv node_modules ${ENV_MOUNT}/node_modules
for d in ${NODE_CACHES.join(" ")}; do rm -rf "${ENV_MOUNT}/node_modules/$d"; ln -s /tmp "${ENV_MOUNT}/node_modules/$d"; done`,
      required: ["node_modules"],
      env: {
        PATH: `${WORKSPACE}/node_modules/.bin:${ENV_MOUNT}/node_modules/.bin:${SANDBOX_PATH}`,
        // npm's own cache, for an agent's or a script's npm: the home folder may not be writable.
        npm_config_cache: "/tmp/.npm",
      },
      // A checkout tracks no node_modules of its own: it gets the layer's, by a link git ignores (a
      // .gitignore's `node_modules/` matches folders only, so the link is excluded for this clone).
      setup: [
        `x=$(git rev-parse --git-path info/exclude 2>/dev/null) && { grep -qx /node_modules "$x" 2>/dev/null || { mkdir -p "$(dirname "$x")" && echo /node_modules >> "$x"; }; } || true`,
        `if [ ! -e node_modules ]; then ln -s ${ENV_MOUNT}/node_modules node_modules; elif [ ! -L node_modules ]; then echo "acilab: this checkout has its own node_modules; the environment's is not linked" >&2; fi`,
      ],
      sources: () => sandboxNpm(specNpmSources(spec.indexes)),
      buildSources: async () => ({ sources: sandboxNpm(specNpmSources(spec.indexes)), left: [] }),
    };
  return {
    language: "python",
    name: "Python",
    named: spec.python,
    start: (python) => [
      [
        python.executable,
        "-m",
        "venv",
        ...(spec.system_site_packages ? ["--system-site-packages"] : []),
        ENV_MOUNT,
      ],
    ],
    finish: "true",
    required: ["pyvenv.cfg", "bin/python"],
    // What `source /env/bin/activate` would set.
    env: { PATH: `${ENV_MOUNT}/bin:${SANDBOX_PATH}`, VIRTUAL_ENV: ENV_MOUNT },
    setup: [],
    sources: () => sandboxPip(specSources(spec.indexes)),
    buildSources: async () => {
      const { sources, left } = await answeringSources(specSources(spec.indexes));
      return { sources: sandboxPip(sources), left };
    },
  };
}
