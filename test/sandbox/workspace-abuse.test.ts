import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/index.js";
import { makePythonTask } from "../../src/tasks/testing.js";
import { releaseSnapshots } from "../../src/workspace/index.js";

/**
 * An agent must not be able to crash the harness or fill the host through its workspace: each attack
 * below runs through `acilab run` with a scripted policy, must end with a result.json that grades the
 * attempt, and must leave the machine able to run the next task.
 */
const cleanup: string[] = [];
afterAll(async () => {
  // The runs' shared snapshots (one per task repository and commit) go with this file's worker.
  await releaseSnapshots();
  for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
});

type Turn = { tool: string; input: Record<string, unknown> };

const FIX: Turn = {
  tool: "str_replace",
  input: { path: "calc.py", old: "return a - b", new: "return a + b" },
};
const SUBMIT: Turn = { tool: "submit", input: {} };

interface Run {
  code: number;
  err: string;
  result: Record<string, unknown> & { grade: { detail: string; outcome: string } };
  observations: string[];
  patch: string;
}

async function acilabRun(turns: Turn[]): Promise<Run> {
  const taskDir = makePythonTask({ files: { "script.json": JSON.stringify({ turns }) } });
  const out = mkdtempSync(join(tmpdir(), "acilab-abuse-out-"));
  cleanup.push(taskDir, out);
  const err: string[] = [];
  const argv = ["run", "--task", taskDir, "--policy", "scripted", "--tools", "full-shell", "--out", out];
  const code = await main(
    [...argv, "--json"],
    () => undefined,
    (t) => err.push(t),
  );
  const resultFile = join(out, "result.json");
  const observations = existsSync(join(out, "trajectory.jsonl"))
    ? readFileSync(join(out, "trajectory.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string; actions?: Array<{ observation: string }> })
        .flatMap((r) => (r.type === "turn" ? (r.actions ?? []).map((a) => a.observation) : []))
    : [];
  return {
    code,
    err: err.join("\n"),
    result: existsSync(resultFile) ? JSON.parse(readFileSync(resultFile, "utf8")) : undefined,
    observations,
    patch: existsSync(join(out, "patch.diff")) ? readFileSync(join(out, "patch.diff"), "utf8") : "",
  };
}

/** After every attack: an ordinary run on the same machine still works and resolves. */
async function expectNextRunWorks(): Promise<void> {
  const next = await acilabRun([FIX, SUBMIT]);
  expect(next.err).toBe("");
  expect(next.code).toBe(0);
  expect(next.result).toMatchObject({ resolved: true, stop_reason: "submitted" });
}

const shell = (command: string): Turn => ({ tool: "shell", input: { command } });

describe("an agent cannot crash the harness or fill the host through its workspace", () => {
  it("a FIFO in place of a tracked file is graded unresolved, with the reason", async () => {
    const r = await acilabRun([
      FIX,
      shell("rm tests/test_calc.py && mkfifo tests/test_calc.py && ls -l tests"),
      SUBMIT,
    ]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.result).toMatchObject({ resolved: false, stop_reason: "submitted" });
    expect(r.result.grade.detail).toMatch(/not a regular file: tests\/test_calc\.py \(a FIFO\)/);
    // What the patch can carry, it carries; the FIFO is not in it.
    expect(r.patch).toContain("+    return a + b");
    expect(r.patch).not.toContain("test_calc.py");
    await expectNextRunWorks();
  });

  it("a directory tree deeper than PATH_MAX is graded and removed", async () => {
    const deep = [
      "import os",
      "fd = os.open('.', os.O_RDONLY)",
      "for i in range(150):",
      "    os.mkdir('d' * 60, dir_fd=fd)",
      "    n = os.open('d' * 60, os.O_RDONLY, dir_fd=fd); os.close(fd); fd = n",
      "f = os.open('leaf.py', os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd); os.write(f, b'x = 1\\n')",
      "print('deep tree made')",
    ].join("\n");
    const r = await acilabRun([FIX, shell(`mkdir deep && cd deep && python3 -c "${deep}"`), SUBMIT]);
    expect(r.observations.join("\n")).toContain("deep tree made");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.result).toMatchObject({ resolved: false, stop_reason: "submitted" });
    expect(r.result.grade.detail).toMatch(/too deep for a patch: deep\/d{60}\/d+…/);
    expect(r.patch).toContain("+    return a + b");
    await expectNextRunWorks();
  });

  it("a workspace has a size cap: the agent sees ENOSPC, the run goes on and is graded", async () => {
    const cap = 48 * 1024 * 1024;
    const saved = process.env.ACILAB_WORKSPACE_BYTES;
    process.env.ACILAB_WORKSPACE_BYTES = "48M";
    try {
      const fill =
        "for i in 1 2 3 4 5 6; do head -c 12M /dev/zero > big$i.bin || echo write $i failed; done; " +
        "echo total $(cat big*.bin | wc -c)";
      const r = await acilabRun([
        shell(fill),
        { tool: "create_file", input: { path: "notes.txt", content: "n".repeat(64 * 1024) } },
        shell("rm -f big*.bin && echo cleaned"),
        FIX,
        { tool: "run_tests", input: {} },
        SUBMIT,
      ]);
      const seen = r.observations.join("\n");
      expect(seen).toMatch(/No space left on device/);
      expect(seen).toMatch(/write [3-6] failed/);
      const total = Number(/total (\d+)/.exec(seen)?.[1]);
      expect(total).toBeGreaterThan(0);
      expect(total).toBeLessThan(cap);
      // The file tool says so too, as an observation, instead of crashing the run.
      expect(seen).toMatch(/the workspace is full/);
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      expect(r.result).toMatchObject({ resolved: true, stop_reason: "submitted" });
    } finally {
      if (saved === undefined) delete process.env.ACILAB_WORKSPACE_BYTES;
      else process.env.ACILAB_WORKSPACE_BYTES = saved;
    }
    await expectNextRunWorks();
  });

  it("neither the sandbox's mountinfo nor tool errors show the host path of the workspace", async () => {
    const r = await acilabRun([
      shell("cat /proc/self/mountinfo"),
      { tool: "view", input: { path: "../../../../etc/passwd" } },
      { tool: "grep", input: { pattern: "root", path: "../.." } },
      FIX,
      SUBMIT,
    ]);
    expect(r.code).toBe(0);
    const [mountinfo = "", view = "", grep = ""] = r.observations;
    // The workspace's own mount: an overlay whose layers are named by descriptor, not by host path.
    const workspace = mountinfo.split("\n").find((l) => l.includes(" /workspace "));
    expect(workspace).toMatch(/ - overlay overlay .*lowerdir=\/proc\/self\/fd\/\d+/);
    expect(workspace).not.toContain(tmpdir());
    for (const seen of [mountinfo, view, grep]) expect(seen).not.toMatch(/acilab-cow-|acilab-base-/);
    for (const seen of [view, grep]) expect(seen).not.toContain(tmpdir());
    expect(view).toMatch(/outside the workspace/);
    expect(grep).toMatch(/outside the workspace/);
  });
});
