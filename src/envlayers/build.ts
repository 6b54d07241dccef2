import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  adoptTree,
  type BackendChoice,
  openSandbox,
  type ReadOnlyBind,
  sandboxIdentity,
} from "../sandbox/index.js";
import { type EnvironmentSpec, isNodeEnvironment, type PinPolicy } from "../swebench/index.js";
import { snapshotAtCommit } from "../workspace/index.js";
import { EnvBuildError, EnvironmentUnavailable, failureExcerpt } from "./build-errors.js";
import { type Interpreter, interpreterBinds, resolveInterpreter } from "./interpreter.js";
import { relaxLocally } from "./local-index.js";
import { decideMissing, type MissingRequirement, missingRequirement } from "./pins.js";
import { ENV_MOUNT, type RuntimePlan, runtimePlan } from "./runtime.js";
import { SOURCES_MOUNT, specSources } from "./sources.js";
import {
  BUILD_LOG,
  type CommandRecord,
  GENERATED_DIR,
  type Layer,
  type LayerManifest,
  layerDamage,
  layerKey,
  MANIFEST,
  openStore,
  readManifest,
  removeLayer,
  treeSize,
  wholeLayer,
} from "./store.js";

/** One install line may take this long: a resolver and a few wheels, or an sdist compiled. */
export const INSTALL_TIMEOUT_MS = 900_000;
/** What each build line's log keeps. */
const LOG_LIMIT = 400_000;

/** How many requirements one environment may relax or leave out before the build gives up. */
const MAX_ADJUSTMENTS = 40;

export interface LayerRequest {
  /** The repository (a folder or bundle) holding `commit`. */
  repoPath: string;
  /** What `env list` calls the repository when repoPath is a temporary bundle (the mirror's). */
  repoLabel?: string;
  /** The commit the environment is built at (an instance's environment_setup_commit). */
  commit: string;
  spec: EnvironmentSpec;
  /** Progress for a person: "building environment …", each install line. */
  log?: (line: string) => void;
  backend?: BackendChoice;
  /** Build even if a whole layer exists (`acilab env build --force`). */
  force?: boolean;
  store?: string;
  /** A pin the indexes lack: `exact` (default) makes the environment unavailable, `available` takes the nearest. */
  pins?: PinPolicy;
}

/** The files that the install leaves in the repository and the layer carries (not caches, not build/). */
const COLLECT_GENERATED = `set -e
mkdir -p ${ENV_MOUNT}/${GENERATED_DIR}
git ls-files -z --others \\
  | { grep -zvE '(^|/)(__pycache__|\\.pytest_cache|\\.tox|\\.nox|\\.mypy_cache|\\.eggs|build|dist|node_modules)/|\\.py[co]$' || true; } \\
  | tar --null -T - -cf - | tar -C ${ENV_MOUNT}/${GENERATED_DIR} -xf -`;

/** Builds in progress in this process, so concurrent callers wait for one. */
const inFlight = new Map<string, Promise<Layer>>();

/**
 * The layer for this repository commit and spec: the one on disk when it is whole, else built now —
 * once per process however many callers ask at the same time. A damaged layer (files missing, a
 * failed build) is removed and built again, and `log` says why.
 */
export async function ensureLayer(request: LayerRequest): Promise<Layer> {
  let spec = request.spec;
  const changes: string[] = [];
  let relaxed = false;
  if (request.pins === "available" && !isNodeEnvironment(spec) && spec.packages) {
    // Every pin the local indexes lack, moved at once (pip would name them one failed build at a time).
    const moved = relaxLocally(spec, specSources(spec.indexes), spec.python.replace(/^python/, ""));
    spec = moved.spec;
    changes.push(...moved.changes);
    relaxed = moved.changes.length > 0;
    for (const c of moved.changes) request.log?.(`environment: ${c}`);
  }
  for (let round = 0; ; round++) {
    try {
      const layer = await ensureSpecLayer({ ...request, spec });
      return changes.length > 0 ? { ...layer, changes, relaxed } : layer;
    } catch (err) {
      if (!(err instanceof EnvBuildError) || !err.missing || isNodeEnvironment(spec) || !spec.packages)
        throw err;
      const python = spec.python.replace(/^python/, "") || spec.python;
      const decision = decideMissing(spec, err.missing, request.pins ?? "exact", python);
      if ("unavailable" in decision)
        throw new EnvironmentUnavailable(
          `${decision.unavailable}${spec.recipe ? ` (recipe ${spec.recipe})` : ""}`,
        );
      if (round >= MAX_ADJUSTMENTS) throw err;
      spec = decision.spec;
      changes.push(decision.change);
      relaxed ||= decision.relaxed;
      request.log?.(`environment: ${decision.change}`);
    }
  }
}

/** The layer for exactly this spec (ensureLayer adjusts the spec when a requirement cannot be had). */
async function ensureSpecLayer(request: LayerRequest): Promise<Layer> {
  const store = openStore(request.store);
  const plan = runtimePlan(request.spec);
  let interpreter: Interpreter;
  try {
    interpreter = await resolveInterpreter(plan.named, store, plan.language);
  } catch (err) {
    throw new EnvironmentUnavailable((err as Error).message);
  }
  const sources = plan.sources();
  const key = layerKey({
    commit: request.commit,
    spec: request.spec,
    interpreter,
    sourcesConfig: sources.config,
  });
  const dir = join(store, key);
  const memo = `${dir}\0${request.force === true}`;
  let made = inFlight.get(memo);
  if (!made) {
    made = (async () => {
      if (existsSync(dir) && !request.force) {
        const whole = wholeLayer(key, dir);
        if (whole) return whole;
        // A build that failed is remembered: the same commit, lines and sources fail the same way (a
        // `github:` dependency offline), and each rerun of a mirror would spend minutes finding out again.
        // One that failed for a requirement the indexes lack carries it, so ensureLayer can adjust the spec.
        const failed = readManifest(dir);
        if (failed?.status === "failed")
          throw new EnvBuildError(
            `environment ${key} did not build on ${failed.created_at.slice(0, 16).replace("T", " ")}: ${failed.failure ?? "see its log"}\nThe whole log: ${join(dir, BUILD_LOG)}\n(remembered, not built again: \`acilab env build --force\` or \`acilab env prune --failed\` tries again)`,
            join(dir, BUILD_LOG),
            failed.missing,
          );
        request.log?.(`environment ${key}: ${layerDamage(dir)}; building it again`);
      }
      return build(request, { key, store, dir, plan, interpreter });
    })();
    inFlight.set(memo, made);
    // Only builds in progress are shared; a later call checks the disk again (a layer may be damaged since).
    made.then(
      () => inFlight.delete(memo),
      () => inFlight.delete(memo),
    );
  }
  return made;
}

async function build(
  request: LayerRequest,
  at: {
    key: string;
    store: string;
    dir: string;
    plan: RuntimePlan;
    interpreter: Interpreter;
  },
): Promise<Layer> {
  const { key, store, dir, plan, interpreter } = at;
  const started = performance.now();
  // The key names the configured sources; the build asks each index once and uses those that answer.
  const { sources, left } = await plan.buildSources();
  const tmp = join(store, `.building-${key}-${process.pid}-${randomBytes(3).toString("hex")}`);
  const envDir = join(tmp, "env");
  const sourcesDir = join(tmp, "sources");
  mkdirSync(envDir, { recursive: true, mode: 0o755 });
  mkdirSync(sourcesDir, { mode: 0o755 });
  writeFileSync(join(sourcesDir, sources.configName), sources.config);
  for (const [name, text] of Object.entries(sources.files)) writeFileSync(join(sourcesDir, name), text);
  const logPath = join(dir, BUILD_LOG);
  const log: string[] = [
    `# acilab environment ${key}`,
    `# repository ${request.repoLabel ?? request.repoPath} at ${request.commit}`,
    `# ${interpreter.language} ${interpreter.named} → ${interpreter.executable} (${interpreter.version})`,
    `# packages from ${sources.summary}`,
    ...left.map((l) => `# left out, it did not answer: ${l}`),
  ];
  request.log?.(
    `building environment ${key}: ${plan.name} ${interpreter.version} (${interpreter.executable}), packages from ${sources.summary}`,
  );
  for (const l of left)
    request.log?.(`  left out a package index that did not answer (pip would retry it on every line): ${l}`);
  const commands: CommandRecord[] = [];
  let failure: string | undefined;
  let missing: MissingRequirement | undefined;
  const id = sandboxIdentity();
  const snapshot = await snapshotAtCommit(
    request.repoPath,
    request.commit,
    id.switched ? { owner: { uid: id.uid, gid: id.gid, adopt: adoptTree } } : {},
  );
  const checkout = await snapshot.checkout();
  try {
    const readOnlyBinds: ReadOnlyBind[] = [
      ...(await interpreterBinds(interpreter, store)),
      ...sources.paths,
      { source: sourcesDir, dest: SOURCES_MOUNT },
    ];
    const { sandbox } = await openSandbox({
      workspace: checkout.root,
      backend: request.backend ?? "auto",
      readOnlyBinds,
      writableBinds: [{ source: envDir, dest: ENV_MOUNT }],
      adoptWorkspace: false,
      env: { ...plan.env, ...sources.env },
      network: sources.hosts.length > 0 ? { allow: sources.hosts } : "none",
    });
    try {
      const packages = isNodeEnvironment(request.spec) ? [] : (request.spec.packages ?? []);
      const lines: Array<{ shown: string; argv: string[] }> = [
        ...plan.start(interpreter).map((argv) => ({ shown: argv.join(" "), argv })),
        // Each requirement group as its own pip run, in order (a recipe's conda packages, then its pins).
        ...packages.map((group) => ({
          shown: `python -m pip install ${group.map(shellWord).join(" ")}`,
          argv: ["python", "-m", "pip", "install", ...group],
        })),
        ...request.spec.install.map((line) => ({ shown: line, argv: ["bash", "-c", line] })),
      ];
      for (const [i, { shown, argv }] of lines.entries()) {
        request.log?.(`  [${i + 1}/${lines.length}] ${shown}`);
        const r = await sandbox.exec({ argv, timeoutMs: INSTALL_TIMEOUT_MS, outputLimit: LOG_LIMIT });
        commands.push({ line: shown, exit_code: r.exitCode, seconds: Math.round(r.durationMs) / 1000 });
        log.push(
          `\n$ ${shown}`,
          r.output.trimEnd(),
          `# exit ${r.exitCode ?? r.signal}${r.timedOut ? " (timed out)" : ""} in ${(r.durationMs / 1000).toFixed(1)} s`,
        );
        if (r.exitCode !== 0) {
          missing = missingRequirement(r.output);
          const tail = failureExcerpt(r.output);
          failure = `install line ${i + 1} of ${lines.length} failed (${r.timedOut ? `timed out after ${INSTALL_TIMEOUT_MS / 1000} s` : `exit ${r.exitCode ?? r.signal}`}): ${shown}\n${tail}`;
          break;
        }
      }
      if (!failure) {
        const r = await sandbox.exec({ argv: ["bash", "-c", plan.finish], timeoutMs: 300_000 });
        log.push("\n$ (move the install's product into the layer)", r.output.trimEnd());
        if (r.exitCode !== 0) failure = `the install's product could not be kept:\n${r.output.slice(-2000)}`;
      }
      if (!failure) {
        const r = await sandbox.exec({ argv: ["bash", "-c", COLLECT_GENERATED], timeoutMs: 120_000 });
        log.push("\n$ (keep the files the install generated in the repository)", r.output.trimEnd());
        if (r.exitCode !== 0)
          failure = `could not keep the files the install generated in the repository:\n${r.output.slice(-2000)}`;
      }
    } finally {
      await sandbox.close();
    }
  } finally {
    await checkout.dispose();
  }
  const size = treeSize(envDir);
  const manifest: LayerManifest = {
    key,
    status: failure ? "failed" : "ok",
    created_at: new Date().toISOString(),
    repo: request.repoLabel ?? request.repoPath,
    commit: request.commit,
    spec: request.spec,
    interpreter: {
      language: interpreter.language,
      executable: interpreter.executable,
      version: interpreter.version,
      prefix: interpreter.prefix,
    },
    sources: sources.summary,
    commands,
    generated_files: existsSync(join(envDir, GENERATED_DIR))
      ? treeSize(join(envDir, GENERATED_DIR)).files
      : 0,
    files: size.files,
    bytes: size.bytes,
    build_seconds: Math.round(performance.now() - started) / 1000,
    ...(failure ? { failure } : {}),
    ...(failure && missing ? { missing } : {}),
  };
  // Frozen: the sandbox user that wrote it owns nothing of it any more, and every later sandbox sees it read-only.
  if (id.switched) adoptTree(envDir, 0, 0);
  rmSync(sourcesDir, { recursive: true, force: true });
  writeFileSync(join(tmp, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(tmp, BUILD_LOG), `${log.join("\n")}\n`);
  // Another process may have built the same layer meanwhile: a whole one is as good as ours.
  const theirs = () => (request.force || failure ? undefined : wholeLayer(key, dir));
  const before = theirs();
  if (before) {
    removeLayer(tmp);
    return before;
  }
  removeLayer(dir);
  try {
    renameSync(tmp, dir);
  } catch (err) {
    // …or renamed it into place between the check and the rename.
    removeLayer(tmp);
    const after = theirs();
    if (after) return after;
    throw err;
  }
  if (failure)
    throw new EnvBuildError(
      `environment ${key} did not build: ${failure}\nThe whole log: ${logPath}`,
      logPath,
      missing,
    );
  request.log?.(
    `environment ${key} built in ${manifest.build_seconds.toFixed(1)} s: ${(manifest.bytes / 1e6).toFixed(1)} MB${manifest.generated_files > 0 ? `, ${manifest.generated_files} generated repository files kept` : ""}`,
  );
  return { key, dir, envDir: join(dir, "env"), manifest };
}

/** A requirement as one shell word, for the build log (the build itself passes argv). */
function shellWord(s: string): string {
  return /^[\w.=<>!~,+-]+$/.test(s) && !/[<>]/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}
