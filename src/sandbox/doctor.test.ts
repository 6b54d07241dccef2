import { describe, expect, it } from "vitest";
import { type DoctorCheck, detectBackends, formatDoctor } from "./doctor.js";

describe("formatDoctor", () => {
  it("prints backends then features, one line each with yes/no and the reason", () => {
    const checks: DoctorCheck[] = [
      { kind: "feature", name: "seccomp", ok: true, reason: "filters supported" },
      { kind: "backend", name: "bwrap", ok: true, reason: "bubblewrap 0.8.0: works" },
      {
        kind: "backend",
        name: "runsc",
        ok: false,
        reason: "runsc is not installed —\napt-get install runsc",
      },
      { kind: "limit", name: "cpu", ok: false, reason: "no cpu cgroup" },
    ];
    expect(formatDoctor(checks)).toBe(
      [
        "sandbox backends",
        "  yes  bwrap    bubblewrap 0.8.0: works",
        "  no   runsc    runsc is not installed — apt-get install runsc",
        "kernel features",
        "  yes  seccomp  filters supported",
        "limits per sandboxed command (as acilab run gets them here)",
        "  no   cpu      no cpu cgroup",
        "",
      ].join("\n"),
    );
  });
});

describe("detectBackends on this machine", () => {
  it("reports every backend and feature with a one-line reason; the process backend always works", async () => {
    const checks = await detectBackends();
    expect(checks.map((c) => c.name)).toEqual([
      "bwrap",
      "runsc",
      "process",
      "cgroup v2",
      "cgroup v1",
      "sandbox cgroup",
      "seccomp",
      "overlayfs",
      "memory",
      "processes",
      "cpu",
      "cpu time",
      "file size",
      "open files",
      "address space",
      "workspace size",
    ]);
    expect(checks.filter((c) => c.kind === "limit").length).toBe(8);
    for (const c of checks) {
      expect(c.reason.length).toBeGreaterThan(10);
      expect(c.reason).not.toContain("\n");
    }
    expect(checks.find((c) => c.name === "process")?.ok).toBe(true);
    // This workbench's machines run bwrap (issue 3 measured it); elsewhere the reason says why not.
    const bwrap = checks.find((c) => c.name === "bwrap")!;
    if (!bwrap.ok) console.warn(`bwrap unavailable here: ${bwrap.reason}`);
    expect(bwrap.reason).toMatch(/bubblewrap|bwrap/);
    // runsc: where it works, the platform and the start latency; where not, why (and the fix).
    const runsc = checks.find((c) => c.name === "runsc")!;
    if (runsc.ok) expect(runsc.reason).toMatch(/platform (ptrace|systrap|kvm).* \d+ ms per sandbox start/);
    else expect(runsc.reason).toMatch(/runsc/);
    // The rlimits are read back inside the sandbox the machine would use, on every backend.
    for (const name of ["cpu time", "file size", "open files", "address space"]) {
      const limit = checks.find((c) => c.name === name)!;
      expect([name, limit.ok]).toEqual([name, true]);
      expect(limit.reason).toMatch(/read back inside a (bwrap|process) sandbox/);
    }
    // Where a cgroup with a cpu controller is available (root here, v1 cpu), the CPU limit holds.
    const cpu = checks.find((c) => c.name === "cpu")!;
    if (checks.find((c) => c.name === "sandbox cgroup")?.reason.includes("cpu"))
      expect(cpu).toMatchObject({ ok: true, reason: expect.stringMatching(/^2 CPUs' worth per sandbox/) });
    else expect(cpu.ok).toBe(false);
  });

  it("lists a limit another part of acilab reports, in place of the default line", async () => {
    const checks = await detectBackends({
      limits: [() => ({ kind: "limit", name: "workspace size", ok: true, reason: "4 GiB per checkout" })],
    });
    expect(checks.filter((c) => c.name === "workspace size")).toEqual([
      { kind: "limit", name: "workspace size", ok: true, reason: "4 GiB per checkout" },
    ]);
  });
});
