import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { keepAll } from "../history/index.js";
import { Ledger } from "../ledger/index.js";
import type { AssistantMessage, Message } from "../messages/index.js";
import { type Policy, PolicyError, type PolicyReply, type PolicyRequest } from "../policies/index.js";
import { ProcessSandbox } from "../sandbox/index.js";
import { processesTagged } from "../testing/processes.js";
import { EVENTUALLY, HANG_GUARD_MS, startedBeforeTimeout } from "../testing/time.js";
import {
  type BaseToolContext,
  newEditorState,
  type ToolDefinition,
  ToolRegistry,
  toolset,
} from "../tools/index.js";
import {
  MemoryTrajectory,
  readTrajectory,
  type TrajectorySink,
  TrajectoryWriter,
  type TurnRecord,
} from "../trajectory/index.js";
import { type AgentRun, runAgent } from "./agent.js";
import type { RunOutcome } from "./types.js";
import { DEFAULT_LIMITS, type RunObserver } from "./types.js";

/** A policy that returns prepared replies (or throws prepared errors) and records the requests it saw. */
class FakePolicy implements Policy {
  readonly spec = "fake";
  readonly model = "claude-sonnet-4-5";
  readonly requests: PolicyRequest[] = [];
  constructor(private readonly replies: Array<AssistantMessage | Error>) {}
  async next(request: PolicyRequest): Promise<PolicyReply> {
    this.requests.push(structuredClone(request));
    const next = this.replies.shift();
    if (next === undefined) throw new PolicyError("script_exhausted", "fake: out of replies");
    if (next instanceof Error) throw next;
    return {
      message: next,
      usage: { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 },
      model: this.model,
      finishReason: "tool_use",
    };
  }
}

const say = (toolCalls: AssistantMessage["toolCalls"], content = ""): AssistantMessage => ({
  role: "assistant",
  content,
  toolCalls,
});

let ws: string;
let sandbox: ProcessSandbox;
beforeEach(() => {
  ws = mkdtempSync(join(tmpdir(), "acilab-loop-"));
  writeFileSync(join(ws, "calc.py"), "def add(a, b):\n    return a - b\n");
  sandbox = new ProcessSandbox({ workspace: ws });
});
afterEach(async () => {
  await sandbox.close();
  rmSync(ws, { recursive: true, force: true });
});

function setup(
  policy: Policy,
  overrides: Partial<AgentRun> = {},
  sink: TrajectorySink = new MemoryTrajectory(),
): AgentRun {
  const set = toolset("full");
  return {
    policy,
    tools: new ToolRegistry(set.tools),
    context: {
      root: ws,
      sandbox,
      editor: newEditorState(),
      testCommand: ["python3", "-c", "print('ok')"],
      commandTimeoutMs: HANG_GUARD_MS,
    },
    history: keepAll(),
    limits: { ...DEFAULT_LIMITS, maxSteps: 10 },
    ledger: new Ledger(),
    trajectory: sink,
    system: "system",
    memory: "",
    task: "fix add",
    maxOutputTokens: 1000,
    ...overrides,
  };
}

describe("runAgent", () => {
  it("runs calls, feeds observations back and stops on submit", async () => {
    const policy = new FakePolicy([
      say(
        [{ id: "a", name: "str_replace", input: { path: "calc.py", old: "a - b", new: "a + b" } }],
        "fix it",
      ),
      say([{ id: "b", name: "submit", input: {} }]),
    ]);
    const sink = new MemoryTrajectory();
    const outcome = await runAgent(setup(policy, {}, sink));
    expect(outcome.stopReason).toBe("submitted");
    expect(outcome.steps).toBe(2);
    expect(readFileSync(join(ws, "calc.py"), "utf8")).toContain("a + b");
    const second = policy.requests[1];
    expect(second?.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    const turns = sink.records.filter((r): r is TurnRecord => r.type === "turn");
    expect(turns[0]?.actions[0]?.files_changed).toEqual(["calc.py"]);
    expect(turns[1]?.request.first_change).toBe(1); // the task message is shared; the rest is the delta
    expect(outcome.costUsd).toBeCloseTo((2 * (1000 * 3 + 100 * 15)) / 1e6, 10);
  });

  it("asks the history processor with the 0-based index of each request, as its contract says", async () => {
    const steps: number[] = [];
    const history = {
      name: "spy",
      apply: (messages: readonly Message[], step: number) => {
        steps.push(step);
        return [...messages];
      },
    };
    const policy = new FakePolicy([
      say([{ id: "a", name: "view", input: { path: "calc.py" } }]),
      say([{ id: "b", name: "view", input: { path: "calc.py" } }]),
      say([{ id: "c", name: "submit", input: {} }]),
    ]);
    await runAgent(setup(policy, { history }));
    expect(steps).toEqual([0, 1, 2]);
  });

  it("turns unknown tools and bad arguments into error observations, and stops after 3 in a row", async () => {
    const policy = new FakePolicy([
      say([{ id: "1", name: "rm_rf", input: {} }]),
      say([{ id: "2", name: "view", input: { path: 42 } }]),
      say([{ id: "3", name: "view", input: "{not json", parseError: "Unexpected token n" }]),
    ]);
    const sink = new MemoryTrajectory();
    const outcome = await runAgent(setup(policy, {}, sink));
    expect(outcome.stopReason).toBe("format_errors");
    const observations = sink.records.flatMap((r) =>
      r.type === "turn" ? r.actions.map((a) => a.observation) : [],
    );
    expect(observations[0]).toMatch(/no tool named "rm_rf". Available tools: grep, glob/);
    expect(observations[1]).toMatch(/invalid arguments for view:\n {2}- path: /);
    expect(observations[2]).toMatch(/not valid JSON \(Unexpected token n\)/);
  });

  it("asks for a tool call when a reply has none, and a valid call resets the count", async () => {
    const policy = new FakePolicy([
      say([], "thinking"),
      say([], "still thinking"),
      say([{ id: "v", name: "view", input: { path: "calc.py" } }]),
      say([], "hmm"),
      say([{ id: "s", name: "submit", input: {} }]),
    ]);
    const outcome = await runAgent(setup(policy));
    expect(outcome.stopReason).toBe("submitted");
    const last = policy.requests[2]?.messages.at(-1);
    expect(last).toMatchObject({ role: "user" });
    expect(last?.role === "user" ? last.content : "").toMatch(/no tool call/);
  });

  it("stops at the step cap, the budget and the wall clock with a reason", async () => {
    const view = () => say([{ id: `v${Math.random()}`, name: "view", input: { path: "calc.py" } }]);
    const steps = await runAgent(
      setup(new FakePolicy([view(), view(), view()]), { limits: { ...DEFAULT_LIMITS, maxSteps: 2 } }),
    );
    expect(steps).toMatchObject({ stopReason: "step_limit", steps: 2 });
    const budget = await runAgent(
      setup(new FakePolicy([view(), view(), view()]), { limits: { ...DEFAULT_LIMITS, budgetUsd: 0.005 } }),
    );
    expect(budget.stopReason).toBe("budget");
    expect(budget.steps).toBe(2); // $0.0045 after one step is under the budget, $0.009 after two is over
    const clock = await runAgent(
      setup(new FakePolicy([view()]), { limits: { ...DEFAULT_LIMITS, wallClockMs: 0 } }),
    );
    expect(clock.stopReason).toBe("time_limit");
  });

  it("kills a command still running at the wall-clock deadline and ends the run as time_limit", async () => {
    const tag = `acilab-deadline-${process.pid}`;
    // The command says it started, then sleeps 30 s under a tag the test can look for afterwards.
    const sleeper = say([
      {
        id: "s",
        name: "shell",
        input: { command: `echo started; exec -a ${tag} sleep 30`, timeout_s: 600 },
      },
    ]);
    const run = (wallClockMs: number) => {
      const sink = new MemoryTrajectory();
      return runAgent(
        setup(
          new FakePolicy([sleeper, say([{ id: "x", name: "submit", input: {} }])]),
          {
            limits: { ...DEFAULT_LIMITS, wallClockMs },
            tools: new ToolRegistry(toolset("full-shell").tools),
          },
          sink,
        ),
      ).then((outcome) => ({ outcome, sink }));
    };
    // A deadline that passed before the command even started proves nothing: longer until it starts.
    const { outcome, sink } = await startedBeforeTimeout(
      2000,
      run,
      (r) => observationsOf(r.sink)[0]?.startsWith("started") === true,
    );
    expect(outcome.stopReason).toBe("time_limit");
    expect(outcome.steps).toBe(1); // the run ended after the step whose command the deadline cut
    const [observation] = observationsOf(sink);
    expect(observation).toMatch(/^started\n\[stopped at the run's wall-clock limit/);
    expect(observation).toContain("were killed");
    // The sandbox killed the command (its process group), not just stopped waiting for it.
    await expect.poll(() => processesTagged(tag), EVENTUALLY).toEqual([]);
  });

  it("stops at a deadline the context already had (a parent run's), and puts it back after", async () => {
    const run = setup(new FakePolicy([say([{ id: "t", name: "run_tests", input: {} }])]));
    // A subagent's context carries its parent run's deadline, which bounds its own longer one.
    const parent = Date.now() - 1;
    run.context.deadline = parent;
    const outcome = await runAgent(run);
    expect(outcome).toMatchObject({ stopReason: "time_limit", steps: 0 });
    expect(outcome.detail).toContain("the run this one is part of");
    expect(run.context.deadline).toBe(parent);
  });

  it("records a provider failure as policy_error and keeps the trajectory so far", async () => {
    const path = join(ws, "..", `traj-${Date.now()}.jsonl`);
    const writer = new TrajectoryWriter(path);
    const policy = new FakePolicy([
      say([{ id: "v", name: "view", input: { path: "calc.py" } }]),
      new PolicyError("rate_limit", "anthropic: 429 rate_limit_error after 4 attempts — wait and rerun"),
    ]);
    const outcome = await runAgent(setup(policy, {}, writer));
    writer.close();
    expect(outcome.stopReason).toBe("policy_error");
    expect(outcome.detail).toMatch(/429/);
    const { records } = readTrajectory(path);
    expect(records.filter((r) => r.type === "turn")).toHaveLength(1);
    rmSync(path);
  });

  it("refuses paths that leave the workspace, as an observation", async () => {
    const policy = new FakePolicy([
      say([{ id: "x", name: "view", input: { path: "../../etc/passwd" } }]),
      say([{ id: "s", name: "submit", input: {} }]),
    ]);
    const sink = new MemoryTrajectory();
    await runAgent(setup(policy, {}, sink));
    const first = sink.records.find((r): r is TurnRecord => r.type === "turn");
    expect(first?.actions[0]?.error).toBe("outside_workspace");
    expect(first?.actions[0]?.observation).not.toContain("root:");
  });
});

function observationsOf(sink: MemoryTrajectory): string[] {
  return sink.records.flatMap((r) => (r.type === "turn" ? r.actions.map((a) => a.observation) : []));
}

describe("runAgent with an observer and no workspace", () => {
  const image = {
    type: "image",
    mediaType: "image/png",
    data: "iVBORw0KGgoAAAA",
    width: 2,
    height: 2,
  } as const;
  const schema = z.object({ id: z.string() });
  /** A tool that needs no workspace: it notes its id, or finishes with a summary. */
  const note: ToolDefinition<typeof schema, BaseToolContext> = {
    name: "note",
    description: "Notes an id; the id 'end' finishes.",
    schema,
    kind: "execute",
    execute: async ({ id }) =>
      id === "end" ? { output: "ok: done", submitted: true, summary: "all noted" } : { output: `ok ${id}` },
  };
  const call = (id: string) => ({ id, name: "note", input: { id } });

  function observed(
    policy: Policy,
    observer: RunObserver,
    sink = new MemoryTrajectory(),
  ): Promise<RunOutcome> {
    return runAgent<BaseToolContext>({
      policy,
      tools: new ToolRegistry<BaseToolContext>([note]),
      context: {},
      history: keepAll(),
      limits: { ...DEFAULT_LIMITS, maxSteps: 10 },
      ledger: new Ledger(),
      trajectory: sink,
      system: "system",
      memory: "",
      task: "note things",
      maxOutputTokens: 1000,
      observer,
      maxCallsPerTurn: 1,
    });
  }

  it("opens with the observer's first look, joins each later look to the call that ran, and stops when it says", async () => {
    const seenTurns: Array<{ step: number; calls: string[] }> = [];
    const observer: RunObserver = {
      environment: "test",
      begin: async () => ({ text: "screen: empty", images: [image] }),
      afterTurn: async ({ step, actions }) => {
        seenTurns.push({ step, calls: actions.map((a) => a.call.id) });
        return step === 1
          ? { text: `seen ${step}`, images: [image], record: { seen: step } }
          : { record: { seen: step }, stop: { reason: "stalled", detail: "nothing changed" } };
      },
    };
    const policy = new FakePolicy([say([call("a"), call("b")]), say([call("c")])]);
    const sink = new MemoryTrajectory();
    const outcome = await observed(policy, observer, sink);
    expect(outcome).toMatchObject({ stopReason: "stalled", detail: "nothing changed", steps: 2 });
    expect(seenTurns).toEqual([
      { step: 1, calls: ["a"] },
      { step: 2, calls: ["c"] },
    ]);
    expect(policy.requests[0]?.messages).toEqual([
      { role: "user", content: "note things\n\nscreen: empty", images: [image] },
    ]);
    const [, , first, second] = policy.requests[1]?.messages ?? [];
    expect(first).toEqual({ role: "tool", toolCallId: "a", content: "ok a\n\nseen 1", images: [image] });
    expect(second).toMatchObject({
      toolCallId: "b",
      content: "not run: one action per turn, and only the first call of your reply was run.",
      isError: true,
    });
    const turns = sink.records.filter((r): r is TurnRecord & { seen: number } => r.type === "turn");
    expect(turns.map((t) => t.seen)).toEqual([1, 2]);
    expect(turns[0]?.actions[0]?.observation).toBe("ok a\n\nseen 1"); // what the model read
    expect(turns[0]?.actions[0]?.files_changed).toEqual([]); // no workspace, no change tracking
    expect(JSON.stringify(sink.records)).not.toContain("iVBORw0KGgo"); // images stay refs, never bytes
  });

  it("ends with env_error when the observer fails, before the first request or after a turn", async () => {
    const dead: RunObserver = {
      environment: "browser",
      begin: async () => {
        throw new Error("browser has been closed");
      },
      afterTurn: async () => ({}),
    };
    const never = new FakePolicy([]);
    expect(await observed(never, dead)).toMatchObject({
      stopReason: "env_error",
      detail: "browser environment failed: browser has been closed",
      steps: 0,
    });
    expect(never.requests).toEqual([]);
    const dying: RunObserver = { ...dead, begin: async () => ({}), afterTurn: dead.begin };
    expect(await observed(new FakePolicy([say([call("a")])]), dying)).toMatchObject({
      stopReason: "env_error",
      steps: 1,
    });
  });

  it("takes a submitted summary as the run's detail", async () => {
    const quiet: RunObserver = { environment: "test", begin: async () => ({}), afterTurn: async () => ({}) };
    const outcome = await observed(new FakePolicy([say([call("end")])]), quiet);
    expect(outcome).toMatchObject({ stopReason: "submitted", detail: "all noted", summary: "all noted" });
  });
});

describe("runAgent in a conversation", () => {
  it("ends the turn on an answer, appends to the conversation and labels the ledger", async () => {
    const policy = new FakePolicy([
      say([{ id: "a", name: "view", input: { path: "calc.py" } }], "let me look"),
      say([], "add subtracts.\nSecond line."),
      say([], "still here"),
    ]);
    const conversation: Message[] = [];
    const ledger = new Ledger();
    const first = await runAgent(
      setup(policy, {
        conversation,
        answerEndsRun: true,
        agent: "task-1",
        task: "what does add do?",
        ledger,
      }),
    );
    expect(first).toMatchObject({ stopReason: "submitted", detail: "add subtracts.", steps: 2 });
    expect(first.summary).toBe("add subtracts.\nSecond line.");
    expect(conversation.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(ledger.entries.map((e) => e.agent)).toEqual(["task-1", "task-1"]);
    // The next turn sees the whole conversation, its own question last.
    await runAgent(setup(policy, { conversation, answerEndsRun: true, task: "and now?", ledger }));
    const seen = policy.requests[2]?.messages ?? [];
    expect(seen.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    expect(seen.at(-1)?.content).toBe("and now?");
  });
});
