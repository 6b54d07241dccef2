import { existsSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../process.js";
import { buildRunscSpec, CHANNEL_MOUNT, makeRootfs, type OciMount, writeIdentity } from "./spec.js";

const layout = { symlinks: [{ name: "bin", target: "usr/bin" }], dirs: ["/usr"], etc: [] };
const base = {
  rootfs: "/state/rootfs",
  layout,
  etcDir: "/tmp/acilab-etc-x",
  passwd: "/state/passwd",
  group: "/state/group",
  workspace: "/home/me/ws",
  readOnly: [{ source: "/opt/nm", dest: "/work/nm" }],
  uid: 61000,
  gid: 61000,
  cwd: "/workspace/src",
  env: { PATH: "/usr/bin", HOME: "/tmp" },
  argv: ["python3", "-c", "print(1)"],
  limits: DEFAULT_LIMITS,
};

type Spec = {
  process: {
    args: string[];
    env: string[];
    user: { uid: number };
    capabilities: Record<string, string[]>;
    noNewPrivileges: boolean;
    rlimits: Array<{ type: string; hard: number }>;
  };
  root: { readonly: boolean };
  mounts: OciMount[];
  linux: { namespaces: Array<{ type: string }> };
};

describe("buildRunscSpec", () => {
  it("makes the root read-only and the workspace the only writable host bind", () => {
    const spec = buildRunscSpec(base) as Spec;
    expect(spec.root.readonly).toBe(true);
    const binds = spec.mounts.filter((m) => m.type === "bind");
    expect(binds.filter((m) => !m.options?.includes("ro"))).toEqual([
      { destination: "/workspace", type: "bind", source: "/home/me/ws", options: ["rbind", "rw"] },
    ]);
    expect(binds.map((m) => m.destination)).toEqual([
      "/usr",
      "/etc",
      "/etc/passwd",
      "/etc/group",
      "/workspace",
      "/work/nm",
    ]);
    expect(spec.mounts.filter((m) => m.type === "tmpfs").map((m) => m.destination)).toEqual([
      "/dev",
      "/tmp",
      "/dev/shm",
    ]);
  });

  it("runs the program unprivileged, through sh, with only the given environment and the rlimits", () => {
    const spec = buildRunscSpec(base) as Spec;
    expect(spec.process.user.uid).toBe(61000);
    expect(Object.values(spec.process.capabilities).every((c) => c.length === 0)).toBe(true);
    expect(spec.process.noNewPrivileges).toBe(true);
    expect(spec.process.args).toEqual(["/bin/sh", "-c", 'exec "$@"', "sh", "python3", "-c", "print(1)"]);
    expect(spec.process.env).toEqual(["PATH=/usr/bin", "HOME=/tmp"]);
    const nproc = spec.process.rlimits.find((r) => r.type === "RLIMIT_NPROC");
    expect(nproc?.hard).toBe(DEFAULT_LIMITS.processes);
    expect(spec.linux.namespaces.map((n) => n.type)).toContain("network");
  });

  it("mounts the channel's FIFOs and opens them as fds 3 and 4 only when asked", () => {
    const spec = buildRunscSpec({ ...base, channelDir: "/state/channels/x" }) as Spec;
    expect(spec.mounts.at(-1)).toEqual({
      destination: CHANNEL_MOUNT,
      type: "bind",
      source: "/state/channels/x",
      options: ["rbind", "rw"],
    });
    expect(spec.process.args[2]).toMatch(
      /^exec 3>\/run\/acilab-channel\/to-host 4<\/run\/acilab-channel\/from-host/,
    );
  });
});

describe("makeRootfs and writeIdentity", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("creates every mount point and the merged-usr symlinks, and names the inside uid", () => {
    dir = mkdtempSync(join(tmpdir(), "acilab-runsc-spec-"));
    makeRootfs(join(dir, "rootfs"), layout, ["/work/nm"]);
    for (const p of ["proc", "dev", "etc", "tmp", "workspace", "usr", "work/nm", "run/acilab-channel"])
      expect(existsSync(join(dir, "rootfs", p))).toBe(true);
    expect(lstatSync(join(dir, "rootfs", "bin")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, "rootfs", "bin"))).toBe("usr/bin");
    const ids = writeIdentity(dir, 61000, 61000);
    expect(readFileSync(ids.passwd, "utf8")).toContain(
      "sandbox:x:61000:61000:acilab sandbox:/tmp:/bin/bash\n",
    );
    expect(readFileSync(ids.group, "utf8")).toContain("sandbox:x:61000:\n");
  });
});
