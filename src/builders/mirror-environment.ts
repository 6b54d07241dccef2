import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { autoEnvironment, EnvBuildError, type EnvMount } from "../envlayers/index.js";
import type { BackendChoice } from "../sandbox/index.js";
import type { EnvironmentSpec } from "../swebench/index.js";
import { instanceEnvironment } from "../tasks/index.js";
import type { TestSetup } from "./detect.js";
import type { WorkRepo } from "./workdir.js";

/** The bundle's tag for the commit HEAD's environment is built at (HEAD's tree). */
export const ENVIRONMENT_TAG = "environment";

export interface MirrorEnvironmentOptions {
  /** "auto" (detected at each environment's commit) or a spec. */
  environment: "auto" | EnvironmentSpec;
  /** The interpreter `auto` names (default python3 on PATH). */
  python?: string | undefined;
  /** The node `auto` names (default node on PATH). */
  node?: string | undefined;
  backend?: BackendChoice | undefined;
  /** Told what the step decided and did, a line at a time. */
  onEnvironment?: ((line: string) => void) | undefined;
  /** The repository being mirrored, as `env list` should name its layers (they are built from a temporary bundle). */
  repo?: string | undefined;
}

/** One environment of the mirror: the commit it is built at (a tag of the bundle) and its spec. */
export interface MirrorEnvironment {
  tag: string;
  commit: string;
  spec: EnvironmentSpec;
  mount: EnvMount;
}

/**
 * The files that decide what an environment installs: a commit whose versions of these match
 * HEAD's is tested in HEAD's environment; one whose differ gets its own (SWE-bench's environment per
 * repository version).
 */
const ENVIRONMENT_FILES =
  /^(package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|pyproject\.toml|setup\.py|setup\.cfg|tox\.ini|poetry\.lock|requirements[^/]*\.txt|requirements\/[^/]+\.txt)$/;

/**
 * The mirror's environments. HEAD's is built first (a build that fails ends the mirror with its
 * message); a fix mirrored at its own commit is tested in the environment of that commit's
 * dependency files — built once per distinct set, or HEAD's when its own does not build (said).
 * `activate` puts the work repository's sandbox on the right one; `active` is the one in use.
 */
export class MirrorEnvironments {
  private readonly built = new Map<string, Promise<MirrorEnvironment | undefined>>();
  private readonly fingerprints = new Map<string, Promise<string>>();
  private current: MirrorEnvironment;

  private constructor(
    private readonly work: WorkRepo,
    private readonly setup: TestSetup,
    private readonly options: MirrorEnvironmentOptions,
    readonly head: MirrorEnvironment,
    private readonly headPrint: string,
  ) {
    this.current = head;
  }

  static async open(
    work: WorkRepo,
    setup: TestSetup,
    options: MirrorEnvironmentOptions,
  ): Promise<MirrorEnvironments> {
    const envs = await makeEnvironment(work, setup, options, work.head, ENVIRONMENT_TAG, "HEAD");
    await work.useEnvironment(envs.mount, setup.language, options.backend);
    const print = await fingerprint(work, work.head);
    return new MirrorEnvironments(work, setup, options, envs, print);
  }

  get active(): MirrorEnvironment {
    return this.current;
  }

  /** Test `rev` in its environment from now on (HEAD's when its dependency files are HEAD's). */
  async activate(rev: string): Promise<void> {
    const wanted = rev === this.work.head ? this.head : await this.environmentOf(rev);
    if (wanted === this.current) return;
    await this.work.useEnvironment(wanted.mount, this.setup.language, this.options.backend);
    this.current = wanted;
  }

  private async environmentOf(rev: string): Promise<MirrorEnvironment> {
    let print = this.fingerprints.get(rev);
    if (!print) {
      print = fingerprint(this.work, rev);
      this.fingerprints.set(rev, print);
    }
    const key = await print;
    if (key === this.headPrint) return this.head;
    let made = this.built.get(key);
    if (!made) {
      const say = this.options.onEnvironment ?? (() => undefined);
      made = makeEnvironment(
        this.work,
        this.setup,
        this.options,
        rev,
        `environment-${key}`,
        rev.slice(0, 10),
      ).catch((err: unknown) => {
        const why =
          err instanceof EnvBuildError
            ? err.summary
            : (err instanceof Error ? err.message : String(err)).split("\n")[0];
        say(
          `environment at ${rev.slice(0, 10)} (its own dependency files) did not build — its fixes are tested in HEAD's: ${why}`,
        );
        return undefined;
      });
      this.built.set(key, made);
    }
    return (await made) ?? this.head;
  }
}

/**
 * The dependency files of `rev`, hashed: equal for commits that install the same things. A release
 * bumps the project's own version in package.json, its lock file and pyproject.toml; that changes
 * nothing installed, so it is left out of the hash (else every release would get its own build).
 */
async function fingerprint(work: WorkRepo, rev: string): Promise<string> {
  const listing = await work.git(["ls-tree", "-r", "--name-only", rev]);
  const paths = listing
    .split("\n")
    .filter((p) => ENVIRONMENT_FILES.test(p))
    .sort();
  const hash = createHash("sha256");
  for (const path of paths) {
    const text = await work.git(["show", `${rev}:${path}`]).catch(() => "");
    hash.update(`${path}\0${withoutOwnVersion(path, text)}\0`);
  }
  return hash.digest("hex").slice(0, 12);
}

/** A dependency file less the project's own version (and, for package.json, all but what installs). */
export function withoutOwnVersion(path: string, text: string): string {
  try {
    if (path === "package.json") {
      const p = JSON.parse(text) as Record<string, unknown>;
      const scripts = (p.scripts ?? {}) as Record<string, unknown>;
      return JSON.stringify([
        p.dependencies,
        p.devDependencies,
        p.optionalDependencies,
        p.peerDependencies,
        ["preinstall", "install", "postinstall", "prepare"].map((k) => scripts[k]),
      ]);
    }
    if (path === "package-lock.json" || path === "npm-shrinkwrap.json") {
      const lock = JSON.parse(text) as {
        version?: unknown;
        packages?: Record<string, { version?: unknown }>;
      };
      delete lock.version;
      if (lock.packages?.[""]) delete lock.packages[""].version;
      return JSON.stringify(lock);
    }
  } catch {
    return text; // not JSON: its text as it is
  }
  return text.replace(/^\s*version\s*=.*$/gm, "");
}

/**
 * The environment at `rev`: the spec (auto: detected from that commit's files), its tree committed
 * as a root commit tagged `tag` for the bundle, and the layer built there (or found). It is built from
 * a bundle of that commit, as graders will build it from the instances' bundle: the scratch clone
 * belongs to the sandbox user, and git will not fetch from it as another.
 */
async function makeEnvironment(
  work: WorkRepo,
  setup: TestSetup,
  options: MirrorEnvironmentOptions,
  rev: string,
  tag: string,
  label: string,
): Promise<MirrorEnvironment> {
  const say = options.onEnvironment ?? (() => undefined);
  let spec: EnvironmentSpec;
  if (options.environment === "auto") {
    const detected = await autoEnvironment(work.dir, rev, {
      language: setup.language === "python" ? "python" : "node",
      ...(options.python ? { python: options.python } : {}),
      ...(options.node ? { node: options.node } : {}),
    });
    for (const d of detected.decisions) say(`environment${label === "HEAD" ? "" : ` at ${label}`}: ${d}`);
    spec = detected.spec;
  } else spec = options.environment;
  await work.checkout(rev);
  const commit = await work.commitTree(tag, `the environment's commit: the tree of ${label}`);
  const dir = mkdtempSync(join(tmpdir(), "acilab-env-commit-"));
  try {
    const bundle = join(dir, "environment.bundle");
    await work.bundle(bundle, [tag]);
    const mount = await instanceEnvironment(
      { acilab_env: spec, repo_path: bundle, environment_setup_commit: commit, base_commit: commit },
      {
        log: say,
        ...(options.backend ? { backend: options.backend } : {}),
        ...(options.repo ? { repoLabel: `${options.repo} (tasks mirror, ${label})` } : {}),
      },
    );
    if (!mount) throw new Error("the environment spec named no environment");
    return { tag, commit, spec, mount };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
