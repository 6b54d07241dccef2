import { type EnvMount, ensureLayer, layerMount } from "../envlayers/index.js";
import type { BackendChoice } from "../sandbox/index.js";
import type { Instance, PinPolicy } from "../swebench/index.js";

/**
 * The environment layer an instance names (`acilab_env`), built on first use on this machine and
 * mounted from then on; undefined when the instance runs on the sandbox's own system. A build that
 * fails throws EnvBuildError, which names the line and keeps the log.
 */
export async function instanceEnvironment(
  instance: Pick<Instance, "acilab_env" | "repo_path" | "environment_setup_commit" | "base_commit">,
  options: {
    log?: (line: string) => void;
    backend?: BackendChoice;
    pins?: PinPolicy;
    repoLabel?: string;
  } = {},
): Promise<EnvMount | undefined> {
  const spec = instance.acilab_env;
  if (!spec) return undefined;
  const layer = await ensureLayer({
    repoPath: instance.repo_path,
    commit: instance.environment_setup_commit || instance.base_commit,
    spec,
    ...(options.log ? { log: options.log } : {}),
    ...(options.backend ? { backend: options.backend } : {}),
    ...(options.pins ? { pins: options.pins } : {}),
    ...(options.repoLabel ? { repoLabel: options.repoLabel } : {}),
  });
  return layerMount(layer);
}
