/**
 * The harness's features in a task run (`acilab run`), as an experiment arm would set them: the plan
 * tool and the repo map offered, a settings file's deny rule and PostToolUse hook applied, and the
 * choice recorded in result.json. Scripted agent; real task, sandbox, tools and grader.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/testing.js";
import { processesTagged } from "../../src/testing/processes.js";
import { EVENTUALLY, startedBeforeTimeout } from "../../src/testing/time.js";
import { readTrajectory, type TurnRecord } from "../../src/trajectory/index.js";

const scratch = mkdtempSync(join(tmpdir(), "acilab-task-harness-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("acilab run with the harness's features", () => {
  it("offers todo_write and repo_map, applies the settings' deny rule and hook, records the choice", async () => {
    const script = join(scratch, "script.json");
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          { tool: "todo_write", input: { todos: [{ content: "Find median", status: "in_progress" }] } },
          { tool: "repo_map", input: { identifiers: ["median"] } },
          { tool: "grep", input: { pattern: "def median" } },
          { tool: "submit", input: {} },
        ],
      }),
    );
    const settings = join(scratch, "settings.json");
    writeFileSync(
      settings,
      JSON.stringify({
        permissions: { deny: ["Grep"] },
        hooks: {
          PostToolUse: [
            {
              matcher: "TodoWrite",
              hooks: [
                {
                  type: "command",
                  command: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"plan noted by the hook"}}'`,
                },
              ],
            },
          ],
        },
      }),
    );
    const out = join(scratch, "run");
    const r = await runCli([
      "run",
      "--task",
      "median-even",
      "--policy",
      `scripted:${script}`,
      "--plan",
      "on",
      "--repo-map",
      "tool",
      "--settings",
      settings,
      "--out",
      out,
      "--json",
    ]);
    expect(r.code).toBe(0);
    const result = JSON.parse(readFileSync(join(out, "result.json"), "utf8")) as Record<string, unknown>;
    expect(result.harness).toEqual({ memory: true, plan: true, repo_map: "tool", settings });
    const turns = readTrajectory(join(out, "trajectory.jsonl")).records.filter(
      (rec): rec is TurnRecord => rec.type === "turn",
    );
    const observation = (i: number) => turns[i]?.actions[0]?.observation ?? "";
    expect(observation(0)).toMatch(/\[>\] Find median/);
    expect(observation(0)).toMatch(/plan noted by the hook/);
    expect(observation(1)).toMatch(/median/);
    expect(observation(2)).toMatch(/deny rule Grep/);
  });
});

describe("acilab run --timeout", () => {
  it("kills a command still running at the run's wall-clock limit and ends the run as time_limit", async () => {
    const tag = `acilab-run-timeout-${process.pid}`;
    const script = join(scratch, "sleep.json");
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          { tool: "shell", input: { command: `echo started; exec -a ${tag} sleep 30`, timeout_s: 600 } },
          { tool: "submit", input: {} },
        ],
      }),
    );
    const runOnce = async (timeoutMs: number) => {
      const out = join(scratch, `timeout-${timeoutMs}`);
      const r = await runCli([
        "run",
        "--task",
        "median-even",
        "--tools",
        "full-shell",
        "--policy",
        `scripted:${script}`,
        "--timeout",
        String(timeoutMs / 1000),
        "--out",
        out,
      ]);
      expect(r.code, r.err).toBe(0);
      const turns = readTrajectory(join(out, "trajectory.jsonl")).records.filter(
        (rec): rec is TurnRecord => rec.type === "turn",
      );
      return { out, observation: turns[0]?.actions[0]?.observation ?? "", turns: turns.length };
    };
    // A limit that passed before the sleep even started proves nothing: a longer one until it starts.
    const run = await startedBeforeTimeout(2000, runOnce, (r) => r.observation.startsWith("started"));
    const result = JSON.parse(readFileSync(join(run.out, "result.json"), "utf8")) as Record<string, unknown>;
    expect(result.stop_reason).toBe("time_limit");
    expect(run.turns).toBe(1); // the step the limit cut was the last: submit never ran
    expect(run.observation).toMatch(/^started\n\[stopped at the run's wall-clock limit/);
    // Killed by the sandbox at the limit, not left sleeping behind the finished run.
    await expect.poll(() => processesTagged(tag), EVENTUALLY).toEqual([]);
  });
});
