import { lstatSync, realpathSync } from "node:fs";
import { isAbsolute, join, posix, resolve } from "node:path";
import { WORKSPACE_MOUNT } from "./bwrap/argv.js";

/**
 * A host path a sandbox sees read-only: an absolute host path, shown at the same path (acilab's
 * node_modules for tsx); `{ source, dest }`, a host path shown elsewhere (an environment layer at
 * /env); or `{ inWorkspace }`, a part of the writable workspace that is read-only inside (the grader
 * keeps a checkout's `.git` out of reach of the code it tests).
 */
export type ReadOnlyBind = string | { source: string; dest: string } | { inWorkspace: string };

/** Where nothing may be mounted over: the sandbox's own root, system folders, the workspace. */
const RESERVED_DESTS = ["/", "/usr", "/etc", "/proc", "/dev", "/tmp", "/bin", "/sbin", "/lib", "/lib64"];

/**
 * A bind's inside path: absolute, normalised, not a system folder or the workspace (or below them:
 * a mount over /usr/bin would swap the programs every command runs).
 */
export function checkBindDest(dest: string): string {
  const d = posix.normalize(dest);
  if (!posix.isAbsolute(d) || dest.split("/").includes(".."))
    throw new Error(`sandbox: bind destination "${dest}" must be an absolute path without ".."`);
  const covers = (root: string) => d === root || (root !== "/" && d.startsWith(`${root}/`));
  for (const root of [...RESERVED_DESTS, WORKSPACE_MOUNT])
    if (covers(root))
      throw new Error(
        `sandbox: cannot mount over ${d}: ${root} is the sandbox's own; pick another folder (such as /env or /opt/NAME)`,
      );
  return d;
}

/** A bind as a backend mounts it: the real host source and where it appears inside. */
export interface ResolvedBind {
  source: string;
  dest: string;
}

/**
 * Resolve the binds against the host. Workspace parts must exist, stay inside the workspace by name
 * (no `..`, not absolute) and not be symlinks: the source is opened by a privileged mount and must be
 * the directory we mean, not one an earlier command pointed elsewhere.
 */
export function resolveReadOnlyBinds(binds: readonly ReadOnlyBind[], workspace: string): ResolvedBind[] {
  return binds.map((bind) => {
    if (typeof bind === "string") {
      if (!isAbsolute(bind)) throw new Error(`sandbox: read-only bind ${bind} must be an absolute path`);
      return { source: realpathSync(bind), dest: resolve(bind) };
    }
    if ("source" in bind) {
      if (!isAbsolute(bind.source))
        throw new Error(`sandbox: read-only bind ${bind.source} must be an absolute path`);
      return { source: realpathSync(bind.source), dest: checkBindDest(bind.dest) };
    }
    const rel = posix.normalize(bind.inWorkspace);
    if (isAbsolute(rel) || rel === "." || rel.split("/").includes(".."))
      throw new Error(
        `sandbox: read-only workspace part "${bind.inWorkspace}" must be a relative path inside it`,
      );
    const source = join(workspace, rel);
    const st = lstatSync(source, { throwIfNoEntry: false });
    if (!st) throw new Error(`sandbox: read-only workspace part ${rel} does not exist in ${workspace}`);
    if (st.isSymbolicLink())
      throw new Error(`sandbox: read-only workspace part ${rel} is a symbolic link; refusing to bind it`);
    return { source, dest: posix.join(WORKSPACE_MOUNT, rel) };
  });
}
