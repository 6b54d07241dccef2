import { describe, expect, it } from "vitest";
import type { TrajectoryRecord } from "../trajectory/index.js";
import {
  actionView,
  gradingOf,
  INSPECT_CAPS,
  inspectRun,
  MAX_CALLS_SHOWN,
  MAX_TURNS_SHOWN,
  type RunFiles,
} from "./inspect-model.js";

const usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 30, cacheWriteTokens: 5 };

function turn(step: number, extra: Record<string, unknown> = {}): TrajectoryRecord {
  return {
    type: "turn",
    step,
    request: {
      message_count: 1,
      first_change: 0,
      messages_from_first_change: step === 1 ? [{ role: "user", content: "Fix the bug." }] : [],
    },
    response: { role: "assistant", content: `thought ${step}`, toolCalls: [] },
    model: "m",
    finish_reason: "tool_use",
    usage,
    cost_usd: 0.5,
    latency_ms: 1200,
    actions: [
      {
        call: { id: "c", name: "view", input: { path: "a.py" } },
        observation: "x".repeat(INSPECT_CAPS.observation * 2),
        error: null,
        duration_ms: 3,
        files_changed: ["a.py"],
      },
    ],
    format_error: null,
    overhead_ms: 0,
    ...extra,
  } as TrajectoryRecord;
}

const files = (records: TrajectoryRecord[], more: Partial<RunFiles> = {}): RunFiles => ({
  records,
  trajectory: "ok",
  warnings: [],
  result: null,
  patch: null,
  report: null,
  frames: new Map(),
  framesLeftOut: new Set(),
  ...more,
});

const at = { key: "7", arm: "full", task: "t", repeat: 2, status: "done", failure: null, error: null };

describe("inspectRun", () => {
  it("gives each turn its thought, actions, tokens (cache included), cost and latency, and caps long text", () => {
    const a = inspectRun(at, files([turn(1), turn(2)]));
    expect(a.title).toBe("full · t #2");
    expect(a.statement).toBe("Fix the bug.");
    expect(a.turns.map((t) => t.step)).toEqual([1, 2]);
    const [first] = a.turns;
    expect(first).toMatchObject({
      thought: "thought 1",
      tokens_in: 135,
      tokens_out: 20,
      cache_read: 30,
      cost_usd: 0.5,
    });
    expect(first?.actions[0]).toMatchObject({ tool: "view", files_changed: ["a.py"], duration_ms: 3 });
    expect(JSON.parse(first?.actions[0]?.input ?? "")).toEqual({ path: "a.py" });
    const obs = first?.actions[0]?.observation ?? "";
    expect(obs.length).toBeLessThanOrEqual(INSPECT_CAPS.observation);
    expect(obs).toContain("characters cut");
  });

  it("keeps a model's unparseable arguments as the raw text it sent", () => {
    const t = turn(1);
    if (t.type === "turn") {
      const first = t.actions[0];
      if (first) first.call = { id: "c", name: "view", input: '{"path": "a.py"', parseError: "bad JSON" };
    }
    expect(inspectRun(at, files([t])).turns[0]?.actions[0]?.input).toBe('{"path": "a.py"');
  });

  it("puts a computer-use turn's frame in, or says it is missing, and describes the executed action", () => {
    const cua = (frame: string) => ({
      cua: { frame, screen_action: { kind: "click", x: 4, y: 5 }, blocked: null, warnings: [] },
    });
    const a = inspectRun(
      at,
      files([turn(1, cua("frames/step-001.png")), turn(2, cua("frames/step-002.png"))], {
        frames: new Map([["frames/step-001.png", "data:image/jpeg;base64,AAAA"]]),
      }),
    );
    expect(a.turns[0]?.frame).toEqual({ src: "data:image/jpeg;base64,AAAA" });
    expect(a.turns[1]?.frame).toEqual({ missing: "frame frames/step-002.png is not beside the trajectory" });
    expect(a.turns[0]?.screen_action).toBe("click x=4 y=5");
  });

  it("shows an attempt that never ran with why, and no turns", () => {
    const a = inspectRun(
      { ...at, status: "no_script", error: "no scripted policy for this arm: …" },
      files([]),
    );
    expect(a.turns).toEqual([]);
    expect(a.warnings[0]).toContain("no scripted policy for this arm");
  });
});

describe("gradingOf", () => {
  it("reads SWE-bench's report: the deciding groups first, failures before passes", () => {
    const g = gradingOf(
      {
        t: {
          patch_successfully_applied: true,
          resolved: false,
          tests_status: {
            PASS_TO_FAIL: { success: [], failure: [] },
            PASS_TO_PASS: { success: ["p1"], failure: ["p2"] },
            FAIL_TO_PASS: { success: ["f1"], failure: [] },
          },
        },
      },
      null,
    );
    expect(g?.applied).toBe(true);
    expect(g?.resolved).toBe(false);
    expect(g?.groups.map((x) => x.name)).toEqual(["FAIL_TO_PASS", "PASS_TO_PASS", "PASS_TO_FAIL"]);
    expect(g?.groups[1]?.tests).toEqual([
      { name: "p2", status: "failed" },
      { name: "p1", status: "passed" },
    ]);
  });

  it("falls back to result.json's grade, and is null when there is neither", () => {
    const g = gradingOf(null, { grade: { resolved: true, detail: "resolved", tests_status: {} } });
    expect(g).toMatchObject({ resolved: true, detail: "resolved", groups: [] });
    expect(gradingOf("not a report", null)).toBeNull();
  });
});

describe("inspectRun on records nothing validated", () => {
  it("shows what it can of a turn whose fields have the wrong types, and never throws", () => {
    const junk = [
      { type: "run_start", tools: 7, policy: ["x"] },
      {
        type: "turn",
        step: "one",
        request: { messages_from_first_change: "not a list" },
        response: { content: { text: 1 } },
        usage: "lots",
        actions: [{ call: "view", observation: 42, files_changed: "a.py", calls: {} }, null],
      },
      null,
      "a string",
      { type: "run_end", stop_reason: 3, steps: "9" },
    ] as unknown as TrajectoryRecord[];
    const a = inspectRun(at, files(junk));
    expect(a.policy).toBeNull();
    expect(a.stop_reason).toBeNull();
    expect(a.steps).toBeNull();
    expect(a.statement).toBeNull();
    const [t] = a.turns;
    expect(t).toMatchObject({ step: 0, thought: '{"text":1}', tokens_in: 0 });
    expect(t?.actions[0]).toMatchObject({ tool: "?", observation: "42", files_changed: [], calls: [] });
    expect(t?.actions[1]).toMatchObject({ tool: "?", observation: "" });
  });
});

describe("inspectRun on a runaway attempt", () => {
  it("shows the head and tail of a run with more turns than the page takes, and says how many are cut", () => {
    const records = Array.from({ length: MAX_TURNS_SHOWN + 25 }, (_, i) => turn(i + 1));
    const a = inspectRun(at, files(records));
    expect(a.turns).toHaveLength(MAX_TURNS_SHOWN);
    expect(a.turns[0]?.step).toBe(1);
    expect(a.turns.at(-1)?.step).toBe(MAX_TURNS_SHOWN + 25);
    expect(a.warnings.join("\n")).toContain(`25 of ${MAX_TURNS_SHOWN + 25} turns left out`);
  });

  it("keeps the head and tail of a program's nested calls, counting the rest", () => {
    const calls = Array.from({ length: MAX_CALLS_SHOWN + 7 }, (_, i) => ({
      tool: `t${i}`,
      input: {},
      output: "",
      error: null,
      duration_ms: 0,
    }));
    const t = turn(1);
    if (t.type === "turn" && t.actions[0]) t.actions[0].calls = calls;
    const action = inspectRun(at, files([t])).turns[0]?.actions[0];
    expect(action?.calls).toHaveLength(MAX_CALLS_SHOWN);
    expect(action?.calls_cut).toBe(7);
    expect(action?.calls.at(-1)?.tool).toBe(`t${MAX_CALLS_SHOWN + 6}`);
  });

  it("says a frame was left out for room, not that it is missing, and names a call with no arguments", () => {
    const t = turn(1, { cua: { frame: "frames/step-001.png" } });
    if (t.type === "turn" && t.actions[0]) t.actions[0].call = { id: "c", name: "wait", input: undefined };
    const a = inspectRun(at, files([t], { framesLeftOut: new Set(["frames/step-001.png"]) }));
    expect(a.turns[0]?.frame).toEqual({
      missing:
        "frame frames/step-001.png left out: the page's room for frames is spent (it is in the run folder)",
    });
    expect(a.turns[0]?.actions[0]?.input).toBe("(no arguments recorded)");
  });
});

describe("how each action reads", () => {
  const action = (name: string, input: unknown, over: Record<string, unknown> = {}) => ({
    call: { id: "c", name, input },
    observation: "",
    error: null,
    duration_ms: 1,
    files_changed: [],
    ...over,
  });

  it("shows an edit as the diff its step recorded", () => {
    const diff = "--- a/a.py\n+++ b/a.py\n@@ -1,1 +1,1 @@\n-x = 1\n+x = 2";
    expect(actionView(action("str_replace", { path: "a.py", old: "x = 1", new: "x = 2" }, { diff }))).toEqual(
      {
        kind: "diff",
        diff,
      },
    );
    expect(actionView(action("edit", { start: 1, end: 1, content: "x = 2" }, { diff })).kind).toBe("diff");
  });

  it("reads an older str_replace (no recorded diff) as old lines out, new lines in", () => {
    const view = actionView(action("str_replace", { path: "a.py", old: "a\nb\n", new: "a\nc\n" }));
    expect(view).toEqual({
      kind: "diff",
      diff: "--- a/a.py\n+++ b/a.py\n@@ replaced @@\n-a\n-b\n+a\n+c",
    });
  });

  it("shows a new file and a program as code with their lines, head and tail when long", () => {
    expect(actionView(action("create_file", { path: "t.py", content: "import x\n\nx.run()\n" }))).toEqual({
      kind: "code",
      path: "t.py",
      lines: ["import x", "", "x.run()"],
      cut: 0,
    });
    const long = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join("\n");
    const view = actionView(action("run_code", { language: "python", code: long }));
    expect(view).toMatchObject({
      kind: "code",
      path: "program (python)",
      cut: 1000 - INSPECT_CAPS.codeLines,
    });
    if (view.kind !== "code") throw new Error("unreachable");
    expect(view.lines.at(-1)).toBe("line 1000");
  });

  it("shows a command as typed, its output, and how it ended apart", () => {
    const ran = action("shell", { command: "pytest -x" }, { observation: "1 failed\n[exit code 1]" });
    expect(actionView(ran)).toEqual({
      kind: "command",
      command: "pytest -x",
      output: "1 failed",
      status: "[exit code 1]",
    });
    const tests = action("run_tests", { args: ["tests/test_a.py"] }, { observation: "ok\n[exit code 0]" });
    expect(actionView(tests)).toMatchObject({
      command: "run_tests tests/test_a.py",
      status: "[exit code 0]",
    });
    const cut = action(
      "shell",
      { command: "sleep 30" },
      {
        observation: "started\n[stopped at the run's wall-clock limit (2.0 s into the command); …]",
      },
    );
    expect(actionView(cut)).toMatchObject({
      output: "started",
      status: expect.stringMatching(/^\[stopped at/),
    });
  });

  it("shows the arguments of an edit that failed (nothing changed) and of any other tool", () => {
    const failed = action("str_replace", { path: "a.py", old: "zz", new: "y" }, { error: "no_match" });
    expect(actionView(failed)).toEqual({ kind: "args" });
    expect(actionView(action("grep", { pattern: "def" }))).toEqual({ kind: "args" });
  });
});
