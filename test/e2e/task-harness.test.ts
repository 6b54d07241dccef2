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
