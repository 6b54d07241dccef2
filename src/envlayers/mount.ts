import { dirname } from "node:path";
import type { ReadOnlyBind } from "../sandbox/index.js";
import { interpreterBinds } from "./interpreter.js";
import { ENV_MOUNT, runtimePlan } from "./runtime.js";
import { GENERATED_DIR, type Layer } from "./store.js";

/** What a task's sandbox needs from a layer: the mounts, the variables, and one setup line. */
export interface EnvMount {
  key: string;
  binds: ReadOnlyBind[];
  env: Record<string, string>;
  /**
   * Run first in every checkout: puts back the repository files the install generated (a
   * `_version.py`, egg-info) where the tree has none of its own. They are setup's products, never
   * the agent's patch.
   */
  setup: string[];
  /** What the layer changed from the environment asked for (pins relaxed, requirements left out). */
  changes: string[];
  /** A pin was moved to the nearest available version. */
  relaxed: boolean;
}

/** The mount of a built layer: read-only at /env, the interpreter it was made with at its own path. */
export async function layerMount(layer: Layer): Promise<EnvMount> {
  // The interpreter the build recorded: the venv's python links to it, whatever PATH says now.
  const interpreter = await interpreterBinds(layer.manifest.interpreter, dirname(layer.dir));
  const plan = runtimePlan(layer.manifest.spec);
  return {
    key: layer.key,
    binds: [{ source: layer.envDir, dest: ENV_MOUNT }, ...interpreter],
    env: plan.env,
    setup: [
      ...(layer.manifest.generated_files > 0
        ? [`tar -C ${ENV_MOUNT}/${GENERATED_DIR} -cf - . | tar -xf - --skip-old-files --no-same-owner`]
        : []),
      ...plan.setup,
    ],
    changes: layer.changes ?? [],
    relaxed: layer.relaxed === true,
  };
}
