import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { spawnCliFromSource } from "../../src/cli/testing.js";
import { makePythonTask } from "../../src/tasks/testing.js";
import { killTagged, processesTagged } from "../../src/testing/processes.js";
import { EVENTUALLY, HANG_GUARD_MS } from "../../src/testing/time.js";
import { readTrajectory } from "../../src/trajectory/index.js";

/** The run's long command, as it shows on the host: it outlives vitest's hang guard, so only a kill ends it. */
const SLEEPER = `acilab-interrupt-${process.pid}`;
const cleanup: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  // A failed test leaves its run going: stop it, and the long command with it.
  for (const child of children.splice(0)) child.kill("SIGKILL");
  killTagged(SLEEPER);
  for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Start the CLI from source (through tsx) on a task whose second step is a long command. */
function startRun(): { child: ChildProcess; out: string; exited: Promise<number | null> } {
  const task = makePythonTask({
    files: {
      "script.full-shell.json": JSON.stringify({
        turns: [
          { tool: "view", input: { path: "calc.py" } },
          { tool: "shell", input: { command: `exec -a ${SLEEPER} sleep 600` } },
          { tool: "submit", input: {} },
        ],
      }),
    },
  });
  const out = mkdtempSync(join(tmpdir(), "acilab-interrupt-"));
  cleanup.push(task, out);
  const child = spawnCliFromSource(
    ["run", "--task", task, "--tools", "full-shell", "--out", out],
    ["ignore", "pipe", "pipe"],
  );
  children.push(child);
  const exited = new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
  return { child, out, exited };
}

async function waitForTurns(path: string, n: number): Promise<void> {
  const turns = () =>
    existsSync(path)
      ? readFileSync(path, "utf8")
          .split("\n")
          .filter((l) => l.includes('"type":"turn"')).length
      : 0;
  await vi.waitFor(() => expect(turns(), `turns in ${path}`).toBeGreaterThanOrEqual(n), {
    ...EVENTUALLY,
    timeout: HANG_GUARD_MS,
  });
}

describe("an interrupted run", () => {
  it("stops on SIGINT with reason aborted, kills the running command and writes its files", async () => {
    const { child, out, exited } = startRun();
    await waitForTurns(join(out, "trajectory.jsonl"), 1);
    // Interrupt while the long command runs, never before it started.
    await vi.waitFor(() => expect(processesTagged(SLEEPER)).toHaveLength(1), {
      ...EVENTUALLY,
      timeout: HANG_GUARD_MS,
    });
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(processesTagged(SLEEPER)).toEqual([]);
    const result = JSON.parse(readFileSync(join(out, "result.json"), "utf8"));
    expect(result).toMatchObject({ stop_reason: "aborted", resolved: false });
    const { records } = readTrajectory(join(out, "trajectory.jsonl"));
    expect(records.at(-1)).toMatchObject({ type: "run_end", stop_reason: "aborted" });
  });

  it("keeps every finished turn when killed with SIGKILL", async () => {
    const { child, out, exited } = startRun();
    await waitForTurns(join(out, "trajectory.jsonl"), 1);
    child.kill("SIGKILL");
    await exited;
    // The sandbox dies with its parent, and the command with it.
    await vi.waitFor(() => expect(processesTagged(SLEEPER)).toEqual([]), EVENTUALLY);
    const { records, warnings } = readTrajectory(join(out, "trajectory.jsonl"));
    expect(warnings).toEqual([]);
    expect(records.map((r) => r.type)).toEqual(["run_start", "turn"]);
  });
});
