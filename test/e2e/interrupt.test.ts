import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tsxLoaderPath } from "../../src/tasks/index.js";
import { makePythonTask } from "../../src/tasks/testing.js";
import { readTrajectory } from "../../src/trajectory/index.js";

const MAIN = resolve("src/cli/main.ts");
const cleanup: string[] = [];
afterEach(() => {
  for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Start the CLI from source (through tsx) on a task whose second step is a long command. */
function startRun(): { child: ChildProcess; out: string; exited: Promise<number | null> } {
  const task = makePythonTask({
    files: {
      "script.full-shell.json": JSON.stringify({
        turns: [
          { tool: "view", input: { path: "calc.py" } },
          { tool: "shell", input: { command: "sleep 20" } },
          { tool: "submit", input: {} },
        ],
      }),
    },
  });
  const out = mkdtempSync(join(tmpdir(), "acilab-interrupt-"));
  cleanup.push(task, out);
  const code = `const m = await import(${JSON.stringify(MAIN)}); process.exitCode = await m.main(process.argv.slice(1));`;
  const child = spawn(
    process.execPath,
    [
      "--import",
      tsxLoaderPath(),
      "--input-type=module",
      "-e",
      code,
      "run",
      "--task",
      task,
      "--tools",
      "full-shell",
      "--out",
      out,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
  return { child, out, exited };
}

async function waitForTurns(path: string, n: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (
      existsSync(path) &&
      readFileSync(path, "utf8")
        .split("\n")
        .filter((l) => l.includes('"type":"turn"')).length >= n
    )
      return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${n} turn(s) in ${path} after 20 s`);
}

describe("an interrupted run", () => {
  it("stops on SIGINT with reason aborted, kills the running command and writes its files", async () => {
    const { child, out, exited } = startRun();
    await waitForTurns(join(out, "trajectory.jsonl"), 1);
    await new Promise((r) => setTimeout(r, 300)); // let `sleep 20` start
    const sent = Date.now();
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(Date.now() - sent).toBeLessThan(10_000);
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
    const { records, warnings } = readTrajectory(join(out, "trajectory.jsonl"));
    expect(warnings).toEqual([]);
    expect(records.map((r) => r.type)).toEqual(["run_start", "turn"]);
  });
});
