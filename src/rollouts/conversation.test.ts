import { describe, expect, it } from "vitest";
import type { Message } from "../messages/index.js";
import type { RunStartRecord, TrajectoryRecord, TurnRecord } from "../trajectory/index.js";
import { ConversationError, conversationOf } from "./conversation.js";
import { renderPieces, tokenize } from "./tokens.js";

const START: RunStartRecord = {
  type: "run_start",
  version: 1,
  run_id: "r",
  started_at: "2026-01-01T00:00:00Z",
  task: "t",
  policy: "openai:gpt-x",
  tools: "full",
  history: "last:1",
  limits: {},
  system: "You fix bugs.",
  memory: "Use tabs.",
  tool_specs: [{ name: "view", description: "Show a file.", inputSchema: { type: "object" } }],
};

function turn(
  step: number,
  firstChange: number,
  delta: Message[],
  count: number,
  over: Partial<TurnRecord> = {},
): TurnRecord {
  return {
    type: "turn",
    step,
    request: { message_count: count, first_change: firstChange, messages_from_first_change: delta },
    response: {
      role: "assistant",
      content: step === 1 ? "Look." : "",
      toolCalls: [{ id: `c${step}`, name: "view", input: { path: "a.py" } }],
    },
    model: "gpt-x-2026",
    finish_reason: "tool_calls",
    usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
    cost_usd: 0,
    latency_ms: 1,
    actions: [
      {
        call: { id: `c${step}`, name: "view", input: {} },
        observation: `file, turn ${step}`,
        error: null,
        duration_ms: 1,
        files_changed: [],
      },
    ],
    format_error: null,
    overhead_ms: 0,
    ...over,
  };
}

const user: Message = { role: "user", content: "Fix the issue." };
const assistant1: Message = {
  role: "assistant",
  content: "Look.",
  toolCalls: [{ id: "c1", name: "view", input: { path: "a.py" } }],
};

/** Three turns under last:1: turn 3's request has turn 1's result collapsed. */
const RECORDS: TrajectoryRecord[] = [
  START,
  turn(1, 0, [user], 1),
  turn(2, 1, [assistant1, { role: "tool", toolCallId: "c1", content: "file, turn 1" }], 3),
  turn(
    3,
    2,
    [
      { role: "tool", toolCallId: "c1", content: "(output of view a.py omitted, 1 lines)" },
      { role: "assistant", content: "", toolCalls: [{ id: "c2", name: "view", input: { path: "a.py" } }] },
      { role: "tool", toolCallId: "c2", content: "file, turn 2" },
    ],
    5,
  ),
];

describe("conversationOf", () => {
  it("rebuilds the conversation with each tool result as the model first read it, and masks the policy's turns", () => {
    const c = conversationOf(RECORDS);
    expect(c.messages).toEqual([
      { role: "system", content: "You fix bugs.\n\nUse tabs." },
      { role: "user", content: "Fix the issue." },
      {
        role: "assistant",
        content: "Look.",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "view", arguments: '{"path":"a.py"}' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "file, turn 1" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c2", type: "function", function: { name: "view", arguments: '{"path":"a.py"}' } },
        ],
      },
      { role: "tool", tool_call_id: "c2", content: "file, turn 2" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c3", type: "function", function: { name: "view", arguments: '{"path":"a.py"}' } },
        ],
      },
      { role: "tool", tool_call_id: "c3", content: "file, turn 3" },
    ]);
    expect(c.mask).toEqual([0, 0, 1, 0, 1, 0, 1, 0]);
    expect(c.tools).toEqual([
      {
        type: "function",
        function: { name: "view", description: "Show a file.", parameters: { type: "object" } },
      },
    ]);
    expect([c.policy, c.history, c.model]).toEqual(["openai:gpt-x", "last:1", "gpt-x-2026"]);
  });

  it("keeps a call's unparsable arguments as the model wrote them", () => {
    const bad = turn(1, 0, [user], 1, {
      response: {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "view", input: "{path: a", parseError: "bad JSON" }],
      },
    });
    const c = conversationOf([START, bad]);
    expect(c.messages[2]).toMatchObject({ tool_calls: [{ function: { arguments: "{path: a" } }] });
  });

  it("refuses records with no run_start, or a turn that reuses more messages than there were", () => {
    expect(() => conversationOf(RECORDS.slice(1))).toThrow(ConversationError);
    expect(() => conversationOf([START, RECORDS[1] as TurnRecord, RECORDS[3] as TurnRecord])).toThrow(
      /turn 3 reuses 2 messages of a request that had 1: a turn is missing/,
    );
  });

  it("refuses a run of separate model calls (a workflow) rather than splicing them into one transcript", () => {
    const second = turn(2, 0, [user], 1);
    expect(() => conversationOf([START, RECORDS[1] as TurnRecord, second])).toThrow(
      /turn 2 starts a new conversation: the run made separate model calls \(a workflow such as agentless\)/,
    );
  });
});

describe("tokenize", () => {
  it("gives a mask as long as the ids, 1 exactly on the bytes of the policy's turns and their end markers", () => {
    const c = conversationOf(RECORDS);
    const bytes = { name: "bytes", encode: (t: string) => [...Buffer.from(t, "utf8")] };
    const { ids, mask } = tokenize(c.messages, c.tools, bytes);
    expect(mask.length).toBe(ids.length);
    const text = Buffer.from(ids).toString("utf8");
    const policyText = Buffer.from(ids.filter((_, i) => mask[i] === 1)).toString("utf8");
    expect(policyText).toBe(
      'Look.\n<tool_call>\n{"name": "view", "arguments": {"path":"a.py"}}\n</tool_call><|im_end|>' +
        '\n<tool_call>\n{"name": "view", "arguments": {"path":"a.py"}}\n</tool_call><|im_end|>'.repeat(2),
    );
    expect(text.startsWith("<|im_start|>system\nYou fix bugs.\n\nUse tabs.\n\n# Tools\n<tools>\n")).toBe(
      true,
    );
    expect(text).toContain("<|im_start|>tool\nfile, turn 1<|im_end|>\n");
    expect(
      renderPieces(c.messages, c.tools)
        .map((p) => p.text)
        .join(""),
    ).toBe(text);
  });
});
