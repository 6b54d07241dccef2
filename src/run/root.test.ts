import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Ledger } from "../ledger/index.js";
import { probeBwrap } from "../sandbox/index.js";
import { acmeTask, loadTask } from "../tasks/index.js";
import { makePythonTask } from "../tasks/testing.js";
import { needing, unless } from "../testing/needs.js";
import { codingRun } from "./coding.js";
import { CORE_FIELDS, resultCore, TASK_KINDS, wallSeconds } from "./result.js";
import { makeActor, runKind } from "./root.js";
import { actorOf } from "./spec/index.js";
import { toolsRun } from "./tools.js";

const bwrap = await probeBwrap();
const dir = mkdtempSync(join(tmpdir(), "acilab-run-"));
const taskDir = makePythonTask({
  files: {
    // The task's reference script for the full tool set: fix the bug, submit.
    "script.json": JSON.stringify({
      turns: [
        { tool: "str_replace", input: { path: "calc.py", old: "return a - b", new: "return a + b" } },
        { tool: "submit", input: {} },
      ],
    }),
  },
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(taskDir, { recursive: true, force: true });
});

describe("runAnyTask", () => {
  it("writes one schema for a coding run and a tool task: same core fields, same meaning", async () => {
    const coding = await runKind(codingRun(loadTask(taskDir), { tools: "full", history: "all" }), {
      actor: actorOf("scripted"),
      out: join(dir, "coding"),
    });
    const tools = await runKind(toolsRun(acmeTask, { actionFormat: "json" }), {
      actor: actorOf("scripted"),
      out: join(dir, "tools"),
    });
    for (const [result, folder] of [
      [coding, "coding"],
      [tools, "tools"],
    ] as const) {
      const written = JSON.parse(readFileSync(join(dir, folder, "result.json"), "utf8"));
      expect(Object.keys(written).slice(0, CORE_FIELDS.length)).toEqual([...CORE_FIELDS]);
      expect(written).toEqual(JSON.parse(JSON.stringify(result)));
      expect(result.kind).toBe(folder);
      expect(result.resolved).toBe(result.grade.resolved);
      expect(result.grade.detail).toEqual(expect.any(String));
      // Scripted policies cost nothing, and say their token counts are estimates.
      expect(result.cost_usd).toBe(0);
      expect(result.usage.estimated).toBe(true);
      expect(Object.keys(result.usage)).toEqual([
        "input",
        "output",
        "cache_read",
        "cache_write",
        "estimated",
      ]);
      expect(result.policy).toMatch(/^scripted/);
      // The trajectory is the root's too: run_start first, run_end last.
      const records = readFileSync(join(dir, folder, "trajectory.jsonl"), "utf8")
        .trim()
        .split("\n");
      expect(JSON.parse(records[0] ?? "{}").type).toBe("run_start");
      expect(JSON.parse(records.at(-1) ?? "{}")).toMatchObject({ type: "run_end", steps: result.steps });
    }
    expect(coding.resolved).toBe(true);
    expect(tools).toMatchObject({
      resolved: true,
      stop_reason: "submitted",
      grade: { answer: expect.stringContaining("$279.00") },
    });
  });

  it("runs a tool task's programs in the sandbox backend asked for (--sandbox), and says so", async () => {
    const result = await runKind(toolsRun(acmeTask, { actionFormat: "code", sandbox: "process" }), {
      actor: actorOf("scripted"),
    });
    expect(result).toMatchObject({ resolved: true, sandbox: "process", network: "none" });
    expect(result.sandbox_warning).toMatch(/process backend/);
  });

  it("refuses a network allowlist (--allow-net) the tool task's backend cannot enforce, instead of dropping it", async () => {
    await expect(
      runKind(toolsRun(acmeTask, { actionFormat: "code", sandbox: "process", allowNet: ["example.com"] }), {
        actor: actorOf("scripted"),
      }),
    ).rejects.toThrow(/cannot enforce a network allowlist/);
  });

  needing("bwrap", unless(bwrap)).it("passes --allow-net to a tool task's sandbox", async () => {
    const result = await runKind(
      toolsRun(acmeTask, { actionFormat: "code", sandbox: "bwrap", allowNet: ["example.com"] }),
      { actor: actorOf("scripted") },
    );
    expect(result).toMatchObject({ sandbox: "bwrap", network: { allow: ["example.com"] } });
  });
});

describe("makeActor: the one place an actor is made", () => {
  const task = {
    id: "t",
    kind: "coding" as const,
    takesWorkflow: true,
    scripted: (file: string | undefined) => ({ spec: `script:${file ?? "reference"}` }) as never,
  };

  it("plain scripted is the task's reference; scripted:FILE the kind's script format", () => {
    const loop = (spec: string) => {
      const actor = makeActor(actorOf(spec), task);
      return actor.kind === "loop" ? actor.policy.spec : actor.workflow.spec;
    };
    expect(loop("scripted")).toBe("script:reference");
    expect(loop("scripted:steps.json")).toBe("script:steps.json");
    expect(loop("openai-compatible:m@http://127.0.0.1:9/v1")).toBe(
      "openai-compatible:m@http://127.0.0.1:9/v1",
    );
  });

  it("the Agentless workflow is an actor of its own, refused where there is no repository to edit", () => {
    const actor = makeActor(actorOf("agentless:k=2:openai-compatible:m@http://127.0.0.1:9/v1"), task);
    expect(actor.kind).toBe("agentless");
    if (actor.kind === "agentless") {
      expect(actor.workflow.model.spec).toBe("openai-compatible:m@http://127.0.0.1:9/v1");
      expect(actor.workflow.settings).toEqual({ k: 2, temperature: 0.8 });
    }
    expect(() =>
      makeActor(actorOf("agentless:openai:gpt-4.1"), { ...task, kind: "cua", takesWorkflow: false }),
    ).toThrow(/is a computer-use task — use openai:gpt-4.1 for it/);
    expect(() => actorOf("auto")).toThrow(/resolveRunSpec resolves it/);
    expect(() => actorOf("nonsense")).toThrow(/no policy kind "nonsense"/);
  });
});

describe("resultCore", () => {
  it("reads usage and cost from the ledger: input is full-price input, the cache apart", () => {
    const ledger = new Ledger();
    ledger.record({
      model: "claude-sonnet-4-5",
      usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 1000, cacheWriteTokens: 50 },
      latencyMs: 1,
      appendOnly: true,
    });
    const core = resultCore({
      task: "t",
      kind: "coding",
      policy: "anthropic:claude-sonnet-4-5",
      loop: { stopReason: "submitted", detail: "the agent called submit", steps: 1 },
      ledger,
      wallMs: 1234.5,
      grade: { resolved: false, detail: "no" },
      warnings: ["memory: AGENTS.md cut at 32 KiB"],
    });
    expect(core.warnings).toEqual(["memory: AGENTS.md cut at 32 KiB"]);
    expect(core.usage).toEqual({
      input: 100,
      output: 10,
      cache_read: 1000,
      cache_write: 50,
      estimated: false,
    });
    expect(core.cost_usd).toBeGreaterThan(0);
    expect(core.wall_s).toBe(1.23);
    expect(core.resolved).toBe(false);
  });

  it("one rounding for wall clocks, and the kinds' vocabulary", () => {
    expect([wallSeconds(0), wallSeconds(1005), wallSeconds(61_237)]).toEqual([0, 1.01, 61.24]);
    expect(TASK_KINDS).toEqual(["coding", "tools", "cua"]);
  });
});
