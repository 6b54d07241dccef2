import { readFileSync } from "node:fs";
import { posix } from "node:path";

/**
 * Where this process's cgroups are, read from /proc/self/mountinfo and /proc/self/cgroup. Pure
 * parsing is separate from the probing so both hierarchies (v1, v2) are testable on any machine.
 */

export interface CgroupMount {
  mountPoint: string;
  /** The hierarchy path this mount shows at its mount point ("/" unless inside a cgroup namespace). */
  root: string;
  version: 1 | 2;
  /** v1 only: the controllers bound to this hierarchy (memory, pids, freezer…). */
  controllers: string[];
}

/** Unescape the octal escapes mountinfo uses for spaces and the like (`\040`). */
function unescapeOctal(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(Number.parseInt(oct, 8)));
}

export function parseMountinfo(text: string): CgroupMount[] {
  const mounts: CgroupMount[] = [];
  for (const line of text.split("\n")) {
    const [pre, post] = line.split(" - ");
    if (!pre || !post) continue;
    const fields = pre.split(" ");
    const [fsType, , superOptions = ""] = post.split(" ");
    const root = fields[3];
    const mountPoint = fields[4];
    if (!root || !mountPoint) continue;
    if (fsType === "cgroup2")
      mounts.push({
        mountPoint: unescapeOctal(mountPoint),
        root: unescapeOctal(root),
        version: 2,
        controllers: [],
      });
    else if (fsType === "cgroup") {
      const known = [
        "memory",
        "pids",
        "freezer",
        "cpu",
        "cpuacct",
        "cpuset",
        "blkio",
        "devices",
        "hugetlb",
        "net_cls",
      ];
      const controllers = superOptions.split(",").filter((o) => known.includes(o));
      mounts.push({
        mountPoint: unescapeOctal(mountPoint),
        root: unescapeOctal(root),
        version: 1,
        controllers,
      });
    }
  }
  return mounts;
}

/** /proc/self/cgroup: `0::/path` for v2, `N:memory,…:/path` for each v1 hierarchy. */
export function parseProcCgroup(text: string): { v2?: string; v1: Record<string, string> } {
  const out: { v2?: string; v1: Record<string, string> } = { v1: {} };
  for (const line of text.split("\n")) {
    const first = line.indexOf(":");
    const second = line.indexOf(":", first + 1);
    if (first < 0 || second < 0) continue;
    const controllers = line.slice(first + 1, second);
    const path = line.slice(second + 1);
    if (controllers === "") out.v2 = path;
    else for (const c of controllers.split(",")) out.v1[c] = path;
  }
  return out;
}

/** The directory of `ownPath` under a mount, allowing for a mount that shows only a subtree. */
export function cgroupDir(mount: CgroupMount, ownPath: string): string {
  let rel = ownPath;
  if (mount.root !== "/" && (ownPath === mount.root || ownPath.startsWith(`${mount.root}/`)))
    rel = ownPath.slice(mount.root.length) || "/";
  return rel === "/" ? mount.mountPoint : posix.join(mount.mountPoint, rel);
}

/** The v1 controllers a sandbox uses: limits (memory, pids, cpu) and the kill (freezer). */
export const V1_CONTROLLERS = ["memory", "pids", "cpu", "freezer"] as const;
export type V1Controller = (typeof V1_CONTROLLERS)[number];

/** What this host offers, as directories of this process's own cgroups. */
export interface CgroupHost {
  /** The unified hierarchy, when mounted: own directory, its controllers and what it hands to children. */
  v2?: { mountPoint: string; dir: string; controllers: string[]; subtreeControl: string[] };
  /** v1 hierarchies by controller: own directory in each. */
  v1: Partial<Record<V1Controller, string>>;
}

export function resolveCgroupHost(
  mounts: CgroupMount[],
  own: ReturnType<typeof parseProcCgroup>,
): CgroupHost {
  const host: CgroupHost = { v1: {} };
  for (const controller of V1_CONTROLLERS) {
    const mount = mounts.find((m) => m.version === 1 && m.controllers.includes(controller));
    const path = own.v1[controller];
    if (mount && path !== undefined) host.v1[controller] = cgroupDir(mount, path);
  }
  const unified = mounts.find((m) => m.version === 2);
  if (unified && own.v2 !== undefined) {
    const dir = cgroupDir(unified, own.v2);
    const words = (file: string) => {
      try {
        return readFileSync(posix.join(dir, file), "utf8").split(/\s+/).filter(Boolean);
      } catch {
        return [];
      }
    };
    host.v2 = {
      mountPoint: unified.mountPoint,
      dir,
      controllers: words("cgroup.controllers"),
      subtreeControl: words("cgroup.subtree_control"),
    };
  }
  return host;
}

let probed: CgroupHost | undefined;
/** This process's cgroup host, read once. */
export function probeCgroupHost(): CgroupHost {
  if (probed) return probed;
  try {
    probed = resolveCgroupHost(
      parseMountinfo(readFileSync("/proc/self/mountinfo", "utf8")),
      parseProcCgroup(readFileSync("/proc/self/cgroup", "utf8")),
    );
  } catch {
    probed = { v1: {} };
  }
  return probed;
}
