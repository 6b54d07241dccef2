import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { autoEnvironment } from "../env/index.js";
import type { BackendChoice } from "../sandbox/index.js";
import type { EnvironmentSpec } from "../swebench/index.js";
import { instanceEnvironment } from "../tasks/index.js";
import type { TestSetup } from "./detect.js";
import type { WorkRepo } from "./workdir.js";

/** The bundle's tag for the commit every instance's environment is built at (HEAD's tree). */
export const ENVIRONMENT_TAG = "environment";

export interface MirrorEnvironmentOptions {
  /** "auto" (detected at HEAD) or a spec. */
  environment: "auto" | EnvironmentSpec;
  /** The interpreter `auto` names (default python3 on PATH). */
  python?: string | undefined;
  /** The node `auto` names (default node on PATH). */
  node?: string | undefined;
  backend?: BackendChoice | undefined;
  /** Told what the step decided and did, a line at a time. */
  onEnvironment?: ((line: string) => void) | undefined;
}

/**
 * The mirror's environment: the spec (auto: detected from HEAD's files), HEAD's tree committed as
 * the environment commit the bundle carries, the layer built there (or found), and the work
 * repository's sandbox opened again over it. A build that fails ends the mirror with its message.
 */
export async function prepareEnvironment(
  work: WorkRepo,
  setup: TestSetup,
  options: MirrorEnvironmentOptions,
): Promise<{ commit: string; spec: EnvironmentSpec }> {
  const say = options.onEnvironment ?? (() => undefined);
  let spec: EnvironmentSpec;
  if (options.environment === "auto") {
    const detected = await autoEnvironment(work.dir, work.head, {
      language: setup.language === "python" ? "python" : "node",
      ...(options.python ? { python: options.python } : {}),
      ...(options.node ? { node: options.node } : {}),
    });
    for (const d of detected.decisions) say(`environment: ${d}`);
    spec = detected.spec;
  } else spec = options.environment;
  await work.checkout(work.head);
  const commit = await work.commitTree(ENVIRONMENT_TAG, "the environment's commit: HEAD's tree");
  // The layer is built from a bundle of that commit, as graders will build it from the instances'
  // bundle: the scratch clone belongs to the sandbox user, and git will not fetch from it as another.
  const dir = mkdtempSync(join(tmpdir(), "acilab-env-commit-"));
  try {
    const bundle = join(dir, "environment.bundle");
    await work.bundle(bundle, [ENVIRONMENT_TAG]);
    const mount = await instanceEnvironment(
      { acilab_env: spec, repo_path: bundle, environment_setup_commit: commit, base_commit: commit },
      { log: say, ...(options.backend ? { backend: options.backend } : {}) },
    );
    if (mount) await work.useEnvironment(mount, setup.language, options.backend);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { commit, spec };
}
