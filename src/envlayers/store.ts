import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { EnvironmentSpec } from "../swebench/index.js";
import type { RuntimeLanguage } from "./interpreter.js";
import type { MissingRequirement } from "./pins.js";
import { runtimePlan } from "./runtime.js";

/** Overrides where layers are kept. */
export const ENV_DIR_ENV = "ACILAB_ENV_DIR";

/**
 * Where layers live: $ACILAB_ENV_DIR, else /var/cache/acilab/envs for root — the sandbox user must
 * reach them, and root's home is private — else $XDG_CACHE_HOME/acilab/envs (~/.cache/acilab/envs).
 */
export function envStoreDir(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env[ENV_DIR_ENV];
  if (chosen !== undefined && chosen !== "") return chosen;
  if (process.getuid?.() === 0) return "/var/cache/acilab/envs";
  return join(env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "acilab", "envs");
}

/** The store folder, made reachable (0755) for the sandbox user. */
export function openStore(dir = envStoreDir()): string {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  return dir;
}

/** One install line as it ran. */
export interface CommandRecord {
  line: string;
  exit_code: number | null;
  seconds: number;
}

/** manifest.json of a layer: what it was built from and how, written by the host after the build. */
export interface LayerManifest {
  key: string;
  status: "ok" | "failed";
  created_at: string;
  repo: string;
  commit: string;
  spec: EnvironmentSpec;
  /** The interpreter the layer was made with (a venv's python links to it; node_modules was installed by it). */
  interpreter: { language: RuntimeLanguage; executable: string; version: string; prefix: string };
  sources: string;
  commands: CommandRecord[];
  /** Files the install left in the repository's tree (a generated _version.py, egg-info): restored into each checkout. */
  generated_files: number;
  /** Entries below env/ (a changed count means the layer was damaged). */
  files: number;
  bytes: number;
  build_seconds: number;
  /** Set when status is "failed": which line, and the end of its output. */
  failure?: string;
  /** Set when the build failed because pip could not find a requirement: which, and what it saw. */
  missing?: MissingRequirement;
}

/** A layer on disk. */
export interface Layer {
  key: string;
  dir: string;
  /** The venv or node_modules' folder, mounted at ENV_MOUNT. */
  envDir: string;
  manifest: LayerManifest;
  /** What ensureLayer changed from the spec it was asked for (pins relaxed, optional requirements left out). */
  changes?: string[];
  /** A pin was moved to the nearest available version (`--pins available`). */
  relaxed?: boolean;
}

export const MANIFEST = "manifest.json";
export const BUILD_LOG = "build.log";
/** Inside the venv: the repository files the install generated. */
export const GENERATED_DIR = ".acilab-generated";

/** A layer's name: what it is built from, hashed. Same commit, spec, interpreter and sources → same layer. */
export function layerKey(parts: {
  commit: string;
  spec: EnvironmentSpec;
  interpreter: { executable: string; version: string };
  /** The package manager's config the build reads (pip.conf, npmrc): other sources, other layer. */
  sourcesConfig: string;
}): string {
  const canonical = JSON.stringify({
    v: 2,
    commit: parts.commit,
    interpreter: [parts.interpreter.executable, parts.interpreter.version],
    runtime: runtimePlan(parts.spec).language,
    install: parts.spec.install,
    system_site_packages: "system_site_packages" in parts.spec && parts.spec.system_site_packages === true,
    // Recipes' requirement groups; specs without them keep the keys they always had.
    ...("packages" in parts.spec && parts.spec.packages ? { packages: parts.spec.packages } : {}),
    sources: parts.sourcesConfig,
  });
  return createHash("sha256").update(canonical).digest("hex").slice(0, 16);
}

/** Entries and bytes below a folder, without following links (the tree was written by a sandbox). */
export function treeSize(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop() as string;
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      files++;
      const p = join(d, entry.name);
      if (entry.isDirectory()) stack.push(p);
      else if (entry.isFile()) bytes += lstatSync(p).size;
    }
  }
  return { files, bytes };
}

export function readManifest(dir: string): LayerManifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as LayerManifest;
  } catch {
    return undefined;
  }
}

/** Why a layer cannot be used as it is, or undefined when it is whole. */
export function layerDamage(dir: string, manifest = readManifest(dir)): string | undefined {
  if (!manifest) return "its manifest.json is missing or unreadable";
  if (manifest.status !== "ok")
    return `its last build failed (${manifest.failure?.split("\n")[0] ?? "see build.log"})`;
  const env = join(dir, "env");
  if (!manifest.interpreter) return "its manifest is from an older acilab";
  for (const part of runtimePlan(manifest.spec).required)
    if (!lstatSync(join(env, part), { throwIfNoEntry: false })) return `env/${part} is missing`;
  let size: { files: number };
  try {
    size = treeSize(env);
  } catch (err) {
    return `env/ cannot be read (${(err as Error).message})`;
  }
  if (size.files !== manifest.files)
    return `env/ has ${size.files} entries where the build left ${manifest.files}`;
  return undefined;
}

/** The layer at `dir` when it is whole (layerDamage says why not). */
export function wholeLayer(key: string, dir: string): Layer | undefined {
  const manifest = readManifest(dir);
  return manifest && !layerDamage(dir, manifest)
    ? { key, dir, envDir: join(dir, "env"), manifest }
    : undefined;
}

/** Every layer of the store with its manifest (unreadable ones too, so prune can remove them). */
export function listLayers(
  dir = envStoreDir(),
): Array<{ key: string; dir: string; manifest: LayerManifest | undefined }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /^[0-9a-f]{16}$/.test(name) && statSync(join(dir, name)).isDirectory())
    .map((key) => ({ key, dir: join(dir, key), manifest: readManifest(join(dir, key)) }))
    .sort((a, b) => (a.manifest?.created_at ?? "").localeCompare(b.manifest?.created_at ?? ""));
}

/** Builds of processes that died before renaming them into place. */
export function staleBuilds(dir = envStoreDir()): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => ({ name, pid: Number(/^\.building-[0-9a-f]{16}-(\d+)-/.exec(name)?.[1]) }))
    .filter(({ pid }) => Number.isInteger(pid) && pid > 0 && !alive(pid))
    .map(({ name }) => join(dir, name));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function removeLayer(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
