import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { needing } from "../../testing/needs.js";
import { EVENTUALLY } from "../../testing/time.js";
import { SandboxCgroup } from "./cgroup.js";
import {
  type CgroupHost,
  cgroupDir,
  parseMountinfo,
  parseProcCgroup,
  probeCgroupHost,
  resolveCgroupHost,
} from "./cgroup-layout.js";
import { planCgroup } from "./cgroup-plan.js";

const HYBRID_MOUNTINFO = `31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
37 31 0:34 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
50 23 8:1 / /home\\040dir rw - ext4 /dev/vda rw`;

const HYBRID_CGROUP = `9:name=systemd:/
8:pids:/
6:freezer:/
4:memory:/ci/job-7
0::/`;

const limits = { memoryBytes: 512 * 1024 ** 2, pids: 64 };

describe("cgroup layout", () => {
  it("parses v1 controllers and the v2 mount from mountinfo", () => {
    const mounts = parseMountinfo(HYBRID_MOUNTINFO);
    expect(mounts.map((m) => `${m.version}:${m.mountPoint}:${m.controllers.join(",")}`)).toEqual([
      "1:/sys/fs/cgroup/memory:memory",
      "1:/sys/fs/cgroup/freezer:freezer",
      "1:/sys/fs/cgroup/pids:pids",
      "1:/sys/fs/cgroup/systemd:",
      "2:/sys/fs/cgroup/unified:",
    ]);
  });

  it("reads own cgroup paths per hierarchy", () => {
    const own = parseProcCgroup(HYBRID_CGROUP);
    expect(own.v2).toBe("/");
    expect(own.v1.memory).toBe("/ci/job-7");
    expect(own.v1.pids).toBe("/");
  });

  it("places own directories under mounts, allowing for a mount that shows only a subtree", () => {
    const m = { mountPoint: "/sys/fs/cgroup", root: "/kubepods/pod1", version: 2 as const, controllers: [] };
    expect(cgroupDir(m, "/kubepods/pod1/ctr")).toBe("/sys/fs/cgroup/ctr");
    expect(cgroupDir(m, "/kubepods/pod1")).toBe("/sys/fs/cgroup");
    expect(cgroupDir({ ...m, root: "/" }, "/a/b")).toBe("/sys/fs/cgroup/a/b");
  });
});

/** A host with only cgroup v2, mounted at /sys/fs/cgroup, our process in `dir`. */
function v2Only(dir: string, controllers: string[], subtreeControl: string[] = []) {
  return { v1: {}, v2: { mountPoint: "/sys/fs/cgroup", dir, controllers, subtreeControl } };
}

describe("planCgroup", () => {
  it("v1 (this kind of host): memory and pids below our own cgroups, killed through the v1 freezer", () => {
    const host = resolveCgroupHost(parseMountinfo(HYBRID_MOUNTINFO), parseProcCgroup(HYBRID_CGROUP));
    const plan = planCgroup(
      { ...host, v2: { ...host.v2!, controllers: [], subtreeControl: [] } },
      "42-1",
      limits,
    );
    expect(plan.mode).toBe("v1");
    expect(plan.dirs.map((d) => d.path)).toEqual([
      "/sys/fs/cgroup/memory/ci/job-7/acilab/42-1",
      "/sys/fs/cgroup/pids/acilab/42-1",
      "/sys/fs/cgroup/freezer/acilab/42-1",
    ]);
    expect(plan.dirs[0]!.writes[0]).toEqual({
      file: "memory.limit_in_bytes",
      value: String(512 * 1024 ** 2),
    });
    expect(plan.dirs[1]!.writes).toEqual([{ file: "pids.max", value: "64" }]);
    expect(plan.killer).toBe("freezer");
    expect(plan.warnings).toEqual([]);
  });

  it("v1 with a unified hierarchy but no freezer: cgroup.kill on the unified hierarchy", () => {
    const host = resolveCgroupHost(parseMountinfo(HYBRID_MOUNTINFO), parseProcCgroup(HYBRID_CGROUP));
    const { freezer: _, ...v1 } = host.v1;
    const plan = planCgroup({ v1, v2: { ...host.v2!, controllers: [], subtreeControl: [] } }, "42-1", limits);
    expect(plan.killer).toBe("cgroup.kill");
    expect(plan.killDir).toBe("/sys/fs/cgroup/unified/acilab/42-1");
  });

  it("v1 without a unified hierarchy freezes to kill", () => {
    const plan = planCgroup({ v1: { memory: "/m", pids: "/p", freezer: "/f" } }, "1-1", limits);
    expect(plan.killer).toBe("freezer");
    expect(plan.killDir).toBe("/f/acilab/1-1");
  });

  it("v2 with memory and pids: one directory with memory.max, pids.max and cgroup.kill", () => {
    const plan = planCgroup(v2Only("/sys/fs/cgroup", ["memory", "pids", "cpu"]), "9-2", limits);
    expect(plan.mode).toBe("v2");
    expect(plan.parents.map((p) => [p.path, p.writes[0]?.value])).toEqual([
      ["/sys/fs/cgroup", "+memory +pids"],
      ["/sys/fs/cgroup/acilab", "+memory +pids"],
    ]);
    expect(plan.dirs).toEqual([
      {
        path: "/sys/fs/cgroup/acilab/9-2",
        writes: [
          { file: "memory.max", value: String(512 * 1024 ** 2) },
          { file: "memory.swap.max", value: "0", optional: true },
          { file: "pids.max", value: "64" },
        ],
      },
    ]);
    expect(plan.killer).toBe("cgroup.kill");
  });

  it("v2 inside a busy cgroup that does not delegate: a sibling under the parent", () => {
    const plan = planCgroup(v2Only("/sys/fs/cgroup/user.slice/s.scope", ["memory", "pids"]), "9-3", limits);
    expect(plan.dirs[0]!.path).toBe("/sys/fs/cgroup/user.slice/acilab/9-3");
  });

  it("CPU on v1: its own hierarchy, the period written before the quota", () => {
    const plan = planCgroup({ v1: { memory: "/m", pids: "/p", cpu: "/c", freezer: "/f" } }, "1-1", {
      ...limits,
      cpus: 1.5,
    });
    expect(plan.dirs.find((d) => d.path === "/c/acilab/1-1")?.writes).toEqual([
      { file: "cpu.cfs_period_us", value: "100000" },
      { file: "cpu.cfs_quota_us", value: "150000" },
    ]);
    expect(plan.enforced).toEqual({
      memory: "v1 memory.limit_in_bytes",
      pids: "v1 pids.max",
      cpu: "v1 cpu.cfs_quota_us / cpu.cfs_period_us",
    });
    expect(plan.warnings).toEqual([]);
    // A quota below the kernel's 1 ms minimum is raised to it.
    const tiny = planCgroup({ v1: { cpu: "/c" } }, "1-2", { ...limits, cpus: 0.001 });
    expect(tiny.dirs[0]?.writes[1]).toEqual({ file: "cpu.cfs_quota_us", value: "1000" });
  });

  it("CPU on v2: delegated with memory and pids, limited by cpu.max", () => {
    const plan = planCgroup(v2Only("/sys/fs/cgroup", ["memory", "pids", "cpu"]), "9-4", {
      ...limits,
      cpus: 2,
    });
    expect(plan.parents.map((p) => p.writes[0]?.value)).toEqual(["+memory +pids +cpu", "+memory +pids +cpu"]);
    expect(plan.dirs[0]?.writes.at(-1)).toEqual({ file: "cpu.max", value: "200000 100000" });
    expect(plan.enforced.cpu).toBe("v2 cpu.max");
  });

  it("CPU asked for where no cpu controller reaches: memory and pids still, and a warning", () => {
    const nested = planCgroup(
      v2Only("/sys/fs/cgroup/job", ["memory", "pids", "cpu"], ["memory", "pids"]),
      "9-5",
      { ...limits, cpus: 2 },
    );
    expect(nested.mode).toBe("v2");
    expect(nested.dirs[0]?.writes.map((w) => w.file)).not.toContain("cpu.max");
    expect(nested.enforced.cpu).toBeUndefined();
    expect(nested.warnings.join(" ")).toMatch(
      /cpu controller is not delegated .*CPU is not limited per sandbox/,
    );
    const v1 = planCgroup({ v1: { memory: "/m", pids: "/p" } }, "1-3", { ...limits, cpus: 2 });
    expect(v1.warnings).toEqual([expect.stringMatching(/^no cpu cgroup .*RLIMIT_CPU/)]);
    // Not asked for: not planned and not warned about.
    expect(planCgroup({ v1: { memory: "/m", pids: "/p" } }, "1-4", limits).warnings).toEqual([]);
  });

  it("no cgroups at all: no plan, and warnings that say what is not limited", () => {
    const plan = planCgroup({ v1: {} }, "1-1", limits);
    expect(plan.mode).toBe("none");
    expect(plan.warnings.join(" ")).toMatch(/memory is not limited/);
    expect(plan.warnings.join(" ")).toMatch(/RLIMIT_NPROC/);
  });

  it("an unwritable hierarchy degrades loudly instead of throwing", () => {
    const fake = mkdtempSync(join(tmpdir(), "acilab-cg-"));
    try {
      writeFileSync(join(fake, "file"), "");
      // A hierarchy "under" a regular file: mkdir fails with ENOTDIR, as it would with EACCES or EROFS.
      const made = SandboxCgroup.create(limits, {
        v1: { memory: join(fake, "file"), pids: join(fake, "file") },
      });
      expect(made.cgroup).toBeUndefined();
      expect(made.warnings.join(" ")).toMatch(/cannot create the sandbox's v1 cgroup/);
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });
});

const host = probeCgroupHost();
const writable = process.getuid?.() === 0 && (host.v1.pids !== undefined || host.v2 !== undefined);

/** A shell that forks a setsid grandchild and a plain one, both sleeping: all must die with the cgroup. */
async function populate(cg: SandboxCgroup): Promise<void> {
  const { spawn } = await import("node:child_process");
  const child = spawn("sh", ["-c", "read x; setsid sleep 300 & sleep 300 & sleep 300"], {
    stdio: ["pipe", "ignore", "ignore"],
  });
  cg.place(child.pid!);
  child.stdin!.end("go\n");
  await vi.waitFor(() => expect(cg.pids().length).toBeGreaterThanOrEqual(4), EVENTUALLY);
}

needing("cgroup", !writable && "no writable cgroup hierarchy with pids (root needed)").describe(
  "SandboxCgroup on this host",
  () => {
    const kinds: Array<[string, boolean, () => CgroupHost]> = [
      ["the host's best (here: the v1 freezer)", true, () => host],
      [
        "cgroup.kill on the unified hierarchy",
        host.v2 !== undefined,
        () => ({ v1: { memory: host.v1.memory, pids: host.v1.pids }, v2: host.v2 }) as CgroupHost,
      ],
      ["the v1 freezer", host.v1.freezer !== undefined, () => ({ v1: host.v1 })],
      [
        "signals alone (pids hierarchy only)",
        host.v1.pids !== undefined,
        () => ({ v1: { pids: host.v1.pids! } }),
      ],
    ];
    for (const [name, available, pick] of kinds) {
      it.skipIf(!available)(`empties and removes itself with ${name}`, async () => {
        const made = SandboxCgroup.create(limits, pick());
        const cg = made.cgroup!;
        expect(cg).toBeDefined();
        await populate(cg);
        expect(cg.pids().length).toBeGreaterThanOrEqual(4);
        expect(await cg.killAll()).toBe(true);
        expect(cg.pids()).toEqual([]);
        expect(await cg.destroy()).toEqual([]);
        for (const d of cg.plan.dirs) expect(existsSync(d.path)).toBe(false);
      });
    }
  },
);
