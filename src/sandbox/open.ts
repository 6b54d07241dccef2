/**
 * The one way to open a sandbox: a backend choice and the options every backend takes → a Sandbox,
 * with the warning a caller must show when isolation is weaker than asked for.
 */
import type { BackendChoice } from "./backends.js";
import { probeBwrap } from "./bwrap/detect.js";
import { BwrapSandbox } from "./bwrap/sandbox.js";
import { ProcessSandbox } from "./process.js";
import { openRunsc } from "./runsc/open.js";
import type { Sandbox, SandboxOptions } from "./types.js";

/**
 * The sandbox acilab runs commands in: bwrap where it works (probed once per process), otherwise the
 * process backend — with `warning` set, which the caller must show on every run. Asking for "bwrap"
 * explicitly fails instead of falling back.
 */
export async function openSandbox(
  options: SandboxOptions & { backend?: BackendChoice },
): Promise<{ sandbox: Sandbox; warning?: string }> {
  const { backend = "auto", ...rest } = options;
  const writable = (rest.writableBinds ?? []).length > 0;
  if (writable && backend !== "bwrap" && backend !== "auto")
    throw new Error(
      `sandbox: building an environment needs the bwrap backend (a writable folder at its own path), not ${backend}`,
    );
  if (backend === "process") return { sandbox: processSandbox(rest), warning: PROCESS_WARNING };
  if (backend === "runsc") return { sandbox: openRunsc(rest) };
  const probe = await probeBwrap();
  if (probe.ok) return { sandbox: new BwrapSandbox(rest) };
  if (backend === "bwrap" || writable)
    throw new Error(`sandbox: the bwrap backend cannot run here: ${probe.reason}`);
  return {
    sandbox: processSandbox(rest, probe.reason),
    warning: `${PROCESS_WARNING} (bwrap: ${probe.reason})`,
  };
}

const PROCESS_WARNING =
  "commands run in the process backend: rlimits and an empty environment only — no filesystem, network or process isolation";

function processSandbox(options: SandboxOptions, bwrapReason?: string): ProcessSandbox {
  // The process backend has the host's filesystem: it cannot show a folder at another path.
  const moved = (options.readOnlyBinds ?? []).find((b) => typeof b === "object" && "source" in b);
  if (moved && typeof moved === "object" && "source" in moved)
    throw new Error(
      `sandbox: the process backend cannot show ${moved.source} at ${moved.dest} (an environment layer needs a mount)${bwrapReason ? `, and bwrap cannot run here: ${bwrapReason}` : ""} — use the bwrap or runsc backend`,
    );
  // The process backend shares the host's network: an allowlist there would be a promise it cannot keep.
  if (options.network !== undefined && options.network !== "none")
    throw new Error(
      `sandbox: the process backend cannot enforce a network allowlist (it has the host's whole network)${bwrapReason ? `, and bwrap cannot run here: ${bwrapReason}` : ""} — use the bwrap backend, or drop --allow-net`,
    );
  return new ProcessSandbox({
    workspace: options.workspace,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
}
