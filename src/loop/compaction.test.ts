import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { keepAll } from "../history/index.js";
import { Ledger } from "../ledger/index.js";
import type { AssistantMessage, Message } from "../messages/index.js";
import {
  estimateUsage,
  type Policy,
  PolicyError,
  type PolicyReply,
  type PolicyRequest,
} from "../policies/index.js";
import { type BaseToolContext, type ToolDefinition, ToolRegistry } from "../tools/index.js";
import {
  type CompactionRecord,
  MemoryTrajectory,
  readTrajectory,
  type TrajectoryRecord,
  TrajectoryWriter,
} from "../trajectory/index.js";
import { type AgentRun, runAgent } from "./agent.js";
import {
  COMPACT_AGENT,
  type CompactionOptions,
  type CompactionTarget,
  clearOldResults,
  compactNow,
  SUMMARY_PREFIX,
} from "./compaction.js";
import { DEFAULT_LIMITS } from "./types.js";

const SUMMARY_ASK = "Your context is nearly full";

/**
 * Plays `turns` (a thought and one `dump` call each, then submit) and answers any summary request
 * with a summary. Usage is the scripted policy's estimate, so token counts follow the text.
 */
class Agent implements Policy {
  readonly spec = "test";
  readonly model = "claude-sonnet-4-5";
  readonly requests: PolicyRequest[] = [];
  private calls = 0;
  constructor(
    private readonly turns: Array<{ thought: string; chars: number }>,
    private readonly events: string[] = [],
    private readonly summary: string | Error = "the goal; decisions; files; problems; next",
  ) {}
  async next(request: PolicyRequest): Promise<PolicyReply> {
    this.requests.push(structuredClone(request));
    const last = request.messages.at(-1);
    let message: AssistantMessage;
    if (last?.role === "user" && last.content.startsWith(SUMMARY_ASK)) {
      this.events.push("summary request");
      if (this.summary instanceof Error) throw this.summary;
      message = { role: "assistant", content: this.summary, toolCalls: [] };
    } else {
      this.events.push("request");
      const turn = this.turns.shift();
      const id = `call_${++this.calls}`;
      message = turn
        ? {
            role: "assistant",
            content: turn.thought,
            toolCalls: [{ id, name: "dump", input: { chars: turn.chars } }],
          }
        : { role: "assistant", content: "", toolCalls: [{ id, name: "submit", input: {} }] };
    }
    return { message, usage: estimateUsage(request, message), model: this.model, finishReason: "tool_use" };
  }
}

const dump: ToolDefinition<z.ZodType<{ chars: number }>, BaseToolContext> = {
  name: "dump",
  description: "Print some characters.",
  kind: "read",
  schema: z.object({ chars: z.number() }),
  execute: async ({ chars }) => ({ output: "x".repeat(chars) }),
};
const submit: ToolDefinition<z.ZodType<Record<string, never>>, BaseToolContext> = {
  name: "submit",
  description: "Finish.",
  kind: "control",
  schema: z.object({}),
  execute: async () => ({ output: "done", submitted: true }),
};

function setup(policy: Policy, compaction: CompactionOptions | undefined, events: string[] = []) {
  const trajectory = new MemoryTrajectory();
  const write = trajectory.write.bind(trajectory);
  trajectory.write = (r: TrajectoryRecord) => {
    if (r.type === "compaction") events.push(`record ${r.stage}`);
    write(r);
  };
  const run: AgentRun<BaseToolContext> = {
    policy,
    tools: new ToolRegistry<BaseToolContext>([dump, submit]),
    context: {},
    history: keepAll(),
    limits: { ...DEFAULT_LIMITS, maxSteps: 20 },
    ledger: new Ledger(),
    trajectory,
    system: "system",
    memory: "",
    task: "do it",
    maxOutputTokens: 1000,
    ...(compaction ? { compaction } : {}),
  };
  const compactions = () => trajectory.records.filter((r): r is CompactionRecord => r.type === "compaction");
  return { run, trajectory, compactions };
}

/** Every tool result answers a call kept before it, and every kept call has its result. */
function pairingProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === "assistant") {
      if (open.size > 0) problems.push(`calls ${[...open]} lost their results`);
      open.clear();
      for (const c of m.toolCalls) open.add(c.id);
    } else if (m.role === "tool") {
      if (!open.delete(m.toolCallId)) problems.push(`result ${m.toolCallId} has no call before it`);
    }
  }
  return problems;
}

const big = (thought: number, chars: number) => ({ thought: "t".repeat(thought), chars });

describe("compaction in the loop", () => {
  it("does nothing under the threshold: no hook, no record, no summary request", async () => {
    const events: string[] = [];
    const pre: unknown[] = [];
    const policy = new Agent([big(100, 4000), big(100, 4000)], events);
    const { run, compactions } = setup(policy, {
      contextTokens: 1_000_000,
      preCompact: async (info) => void pre.push(info),
    });
    expect((await runAgent(run)).stopReason).toBe("submitted");
    expect(compactions()).toEqual([]);
    expect(pre).toEqual([]);
    expect(events).not.toContain("summary request");
    expect(run.ledger.byAgent().map((s) => s.agent)).toEqual(["main"]);
  });

  it("clears old tool outputs first, keeping the newest, and stops there when that is enough", async () => {
    // 1000 tokens a result; the fifth request carries 4 (≈4,100 tokens) against a 4,000-token threshold.
    const policy = new Agent([big(0, 4000), big(0, 4000), big(0, 4000), big(0, 4000)]);
    const { run, compactions } = setup(policy, { contextTokens: 5000, keepRecent: 3 });
    expect((await runAgent(run)).stopReason).toBe("submitted");
    const [record, ...more] = compactions();
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      type: "compaction",
      trigger: "auto",
      stage: "cleared",
      cleared: [{ tool_call_id: "call_1", tool: "dump", chars: 4000 }],
      dropped_messages: 0,
    });
    expect(record?.tokens_before).toBeGreaterThanOrEqual(4000);
    expect(record?.tokens_after).toBeLessThan(record?.tokens_before ?? 0);
    const fifth = policy.requests[4]?.messages ?? [];
    expect(fifth[2]).toEqual({
      role: "tool",
      toolCallId: "call_1",
      content: "[output cleared to save context: dump 4000 chars]",
    });
    expect(fifth.filter((m) => m.role === "tool" && m.content.length === 4000)).toHaveLength(3);
    // What the loop recorded for the earlier request is what it sent then: the output whole.
    expect(policy.requests[3]?.messages[2]?.content).toHaveLength(4000);
  });

  it("summarises only when clearing was not enough: hook first, then the summary under 'compact', pairs intact", async () => {
    const events: string[] = [];
    const pre: Array<{ trigger: string; tokens: number }> = [];
    // Thoughts (4,000 tokens a turn) cannot be cleared; results (1,000) can.
    const policy = new Agent(
      [big(16000, 4000), big(16000, 4000), big(16000, 4000), big(16000, 4000)],
      events,
    );
    const { run, trajectory, compactions } = setup(
      policy,
      {
        contextTokens: 20000,
        keepRecent: 1,
        preCompact: async (info) => {
          events.push("preCompact");
          pre.push(info);
        },
      },
      events,
    );
    expect((await runAgent(run)).stopReason).toBe("submitted");
    const records = compactions();
    expect(records.map((r) => r.stage)).toEqual(["cleared", "summarised"]);
    const [cleared, summarised] = records as [CompactionRecord, CompactionRecord];
    expect(cleared.cleared.map((c) => c.tool_call_id)).toEqual(["call_1", "call_2", "call_3"]);
    expect(summarised).toMatchObject({
      trigger: "auto",
      dropped_messages: 4,
      summary: "the goal; decisions; files; problems; next",
      tokens_before: cleared.tokens_after,
    });
    expect(summarised.tokens_after).toBeLessThan(summarised.tokens_before);
    expect(pre).toEqual([{ trigger: "auto", tokens: cleared.tokens_before }]);
    expect(events.slice(4)).toEqual([
      "preCompact",
      "summary request",
      "record cleared",
      "record summarised",
      "request",
    ]);

    // The request after: the first message, the summary, then the last two turns whole and paired.
    const after = policy.requests.at(-1)?.messages ?? [];
    expect(after.slice(0, 2)).toEqual([
      { role: "user", content: "do it" },
      { role: "user", content: `${SUMMARY_PREFIX}the goal; decisions; files; problems; next` },
    ]);
    expect(after.slice(2).map((m) => m.role)).toEqual(["assistant", "tool", "assistant", "tool"]);
    expect(pairingProblems(after)).toEqual([]);
    // The turn's recorded delta starts at the rewrite, so chaining deltas rebuilds the request.
    const lastTurn = trajectory.records.findLast((r) => r.type === "turn");
    expect(lastTurn?.type === "turn" && lastTurn.request.first_change).toBe(1);

    // The summary request is in the ledger under its own name, and its dollars count in the run's.
    const shares = run.ledger.byAgent();
    expect(shares.map((s) => [s.agent, s.requests])).toEqual([
      ["main", 5],
      [COMPACT_AGENT, 1],
    ]);
    const compactCost = shares[1]?.knownCostUsd ?? 0;
    expect(compactCost).toBeGreaterThan(0);
    expect(summarised.cost_usd).toBeCloseTo(compactCost, 12);
    expect(run.ledger.totalCostUsd).toBeCloseTo((shares[0]?.knownCostUsd ?? 0) + compactCost, 12);
  });

  it("with summarise: false, only clears", async () => {
    const policy = new Agent([big(16000, 4000), big(16000, 4000), big(16000, 4000), big(16000, 4000)]);
    const { run, compactions } = setup(policy, { contextTokens: 20000, keepRecent: 1, summarise: false });
    await runAgent(run);
    expect(compactions().every((r) => r.stage === "cleared")).toBe(true);
    expect(compactions().length).toBeGreaterThan(0);
    expect(run.ledger.byAgent().map((s) => s.agent)).toEqual(["main"]);
  });

  it("ends the run as policy_error when the summary request fails", async () => {
    const fail = new PolicyError("overloaded", "anthropic: 529 after 4 attempts — try again later");
    const policy = new Agent(
      [big(16000, 4000), big(16000, 4000), big(16000, 4000), big(16000, 4000)],
      [],
      fail,
    );
    const { run } = setup(policy, { contextTokens: 20000, keepRecent: 1 });
    const outcome = await runAgent(run);
    expect(outcome.stopReason).toBe("policy_error");
    expect(outcome.detail).toBe("compaction failed: anthropic: 529 after 4 attempts — try again later");
  });
});

/** A conversation of `turns` turns, each one reply with two parallel calls and their two results. */
function conversation(turns: number): Message[] {
  const messages: Message[] = [{ role: "user", content: "task" }];
  for (let t = 1; t <= turns; t++) {
    messages.push({
      role: "assistant",
      content: `turn ${t}`,
      toolCalls: [
        { id: `${t}a`, name: "view", input: {} },
        { id: `${t}b`, name: "grep", input: {} },
      ],
    });
    // Parallel results may come back in either order.
    messages.push({ role: "tool", toolCallId: `${t}b`, content: "b".repeat(400) });
    messages.push({ role: "tool", toolCallId: `${t}a`, content: "a".repeat(400) });
    if (t % 3 === 0) messages.push({ role: "user", content: "a nudge" });
  }
  return messages;
}

function target(
  messages: Message[],
  policy: Policy,
  extra: Partial<CompactionTarget> = {},
): CompactionTarget {
  return {
    messages,
    policy,
    ledger: new Ledger(),
    trajectory: new MemoryTrajectory(),
    system: "s",
    memory: "",
    tools: [],
    maxOutputTokens: 100,
    options: { contextTokens: 100_000 },
    ...extra,
  };
}

describe("compactNow (/compact)", () => {
  it("keeps every call paired with its result, whatever the length of the conversation", async () => {
    for (let turns = 0; turns <= 8; turns++) {
      const messages = conversation(turns);
      const result = await compactNow(target(messages, new Agent([])));
      expect(pairingProblems(messages), `${turns} turns`).toEqual([]);
      expect(messages[0]).toEqual({ role: "user", content: "task" });
      const summarised = result.records.find((r) => r.stage === "summarised");
      // Two turns are kept whole: with more, the rest became the summary.
      expect(summarised !== undefined, `${turns} turns`).toBe(turns > 2);
      expect(result.records.every((r) => r.trigger === "manual")).toBe(true);
    }
  });

  it("runs whatever the size, the hook first; the records go to the trajectory, and a reader accepts them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "acilab-compaction-"));
    try {
      const writer = new TrajectoryWriter(join(dir, "trajectory.jsonl"));
      const hooks: string[] = [];
      const messages = conversation(4);
      const result = await compactNow(
        target(messages, new Agent([]), {
          trajectory: writer,
          options: {
            contextTokens: 1_000_000,
            keepRecent: 2,
            preCompact: async (i) => void hooks.push(i.trigger),
          },
        }),
      );
      writer.close();
      expect(hooks).toEqual(["manual"]);
      expect(result.compacted).toBe(true);
      const { records, warnings } = readTrajectory(join(dir, "trajectory.jsonl"));
      expect(warnings).toEqual([]);
      expect(records).toEqual(result.records);
      expect(records.map((r) => (r.type === "compaction" ? r.stage : r.type))).toEqual([
        "cleared",
        "summarised",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("clearOldResults", () => {
  it("replaces all but the newest results with a marker, as new objects, once", () => {
    const messages = conversation(2);
    const original = messages[2];
    const cleared = clearOldResults(messages, 1);
    expect(cleared).toEqual([
      { tool_call_id: "1b", tool: "grep", chars: 400 },
      { tool_call_id: "1a", tool: "view", chars: 400 },
      { tool_call_id: "2b", tool: "grep", chars: 400 },
    ]);
    expect(messages[2]).toEqual({
      role: "tool",
      toolCallId: "1b",
      content: "[output cleared to save context: grep 400 chars]",
    });
    expect(original?.content).toHaveLength(400); // a recorded request keeps what it sent
    expect(messages[6]?.content).toHaveLength(400);
    expect(clearOldResults(messages, 1)).toEqual([]); // already cleared: nothing new
  });
});
