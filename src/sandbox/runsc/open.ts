import type { SandboxOptions } from "../types.js";
import { RunscSandbox } from "./sandbox.js";

/**
 * `openSandbox({backend: "runsc"})`: a RunscSandbox from the options every backend takes, or an error
 * that says why gVisor cannot run here. The runsc backend has no network but its own loopback, so a
 * network allowlist is refused rather than silently dropped.
 */
export function openRunsc(options: SandboxOptions): RunscSandbox {
  if (options.network !== undefined && options.network !== "none" && options.network !== "loopback")
    throw new Error(
      "sandbox: the runsc backend has no network (gVisor's --network=none); a network allowlist needs the bwrap backend — drop --allow-net or use the bwrap backend",
    );
  // No probe run (it would cost a whole gVisor start): the constructor checks that runsc is there,
  // and a runsc that cannot start a container says so on the first exec, pointing at `acilab doctor`.
  return new RunscSandbox({
    workspace: options.workspace,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.readOnlyBinds ? { readOnlyBinds: options.readOnlyBinds } : {}),
    ...(options.uid !== undefined ? { uid: options.uid } : {}),
    ...(options.gid !== undefined ? { gid: options.gid } : {}),
    ...(options.adoptWorkspace !== undefined ? { adoptWorkspace: options.adoptWorkspace } : {}),
    ...(options.mapWorkspaceOwner !== undefined ? { mapWorkspaceOwner: options.mapWorkspaceOwner } : {}),
  });
}
