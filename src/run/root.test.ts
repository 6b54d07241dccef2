import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Ledger } from "../ledger/index.js";
import { probeBwrap } from "../sandbox/index.js";
import { acmeTask, loadTask } from "../tasks/index.js";
import { makePythonTask } from "../tasks/testing.js";
import { codingRun } from "./coding.js";
import { CORE_FIELDS, resultCore, TASK_KINDS, wallSeconds } from "./result.js";
import { resolvePolicy, runAnyTask } from "./root.js";
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
    const coding = await runAnyTask(codingRun(loadTask(taskDir), { tools: "full", history: "all" }), {
      policySpec: "scripted",
      out: join(dir, "coding"),
    });
    const tools = await runAnyTask(toolsRun(acmeTask, { actionFormat: "json" }), {
      policySpec: "scripted",
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
    const result = await runAnyTask(toolsRun(acmeTask, { actionFormat: "code", sandbox: "process" }), {
      policySpec: "scripted",
    });
    expect(result).toMatchObject({ resolved: true, sandbox: "process", network: "none" });
    expect(result.sandbox_warning).toMatch(/process backend/);
  });

  it("refuses a network allowlist (--allow-net) the tool task's backend cannot enforce, instead of dropping it", async () => {
    await expect(
      runAnyTask(
        toolsRun(acmeTask, { actionFormat: "code", sandbox: "process", allowNet: ["example.com"] }),
        {
          policySpec: "scripted",
        },
      ),
    ).rejects.toThrow(/cannot enforce a network allowlist/);
  });

  it.skipIf(!bwrap.ok)("passes --allow-net to a tool task's sandbox", async () => {
    const result = await runAnyTask(
      toolsRun(acmeTask, { actionFormat: "code", sandbox: "bwrap", allowNet: ["example.com"] }),
      { policySpec: "scripted" },
    );
    expect(result).toMatchObject({ sandbox: "bwrap", network: { allow: ["example.com"] } });
  });
});

describe("resolvePolicy: the one place a spec becomes a policy", () => {
  const task = {
    scripted: (file: string | undefined) => ({ spec: `script:${file ?? "reference"}` }) as never,
  };

  it("plain scripted is the task's reference; scripted:FILE the kind's script format", () => {
    expect(resolvePolicy("scripted", task).spec).toBe("script:reference");
    expect(resolvePolicy("scripted:steps.json", task).spec).toBe("script:steps.json");
  });

  it("auto without a model key runs the reference script, and a model spec makes that model's policy", () => {
    const saved = { a: process.env.ANTHROPIC_API_KEY, o: process.env.OPENAI_API_KEY };
    delete process.env.ANTHROPIC_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      expect(resolvePolicy("auto", task).spec).toBe("script:reference");
    } finally {
      if (saved.a !== undefined) process.env.ANTHROPIC_API_KEY = saved.a;
      if (saved.o !== undefined) process.env.OPENAI_API_KEY = saved.o;
    }
    process.env.ANTHROPIC_API_KEY = "sk-ant-test";
    try {
      expect(resolvePolicy("auto", task).spec).toBe("anthropic:claude-sonnet-4-5");
      expect(resolvePolicy("anthropic:claude-opus-4-1", task).spec).toBe("anthropic:claude-opus-4-1");
    } finally {
      if (saved.a === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved.a;
    }
    expect(() => resolvePolicy("nonsense", task)).toThrow(/unknown policy "nonsense"/);
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
    });
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
