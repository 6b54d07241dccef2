/**
 * Compaction: what the loop does when the conversation nears the model's context window. First the
 * cheap, lossless-for-the-plan step — old tool outputs are replaced by a one-line marker (Claude
 * Code's "clear tool results"); then, only if that was not enough, one model call summarises the
 * conversation and the summary replaces everything but the first message and the last few turns.
 */
import { readFileSync } from "node:fs";
import type { Ledger } from "../ledger/index.js";
import type { AssistantMessage, Message, Usage } from "../messages/index.js";
import { estimateUsage, type Policy, type ToolSpec } from "../policies/index.js";
import type { CompactionRecord, TrajectorySink } from "../trajectory/index.js";

const COMPACT_PROMPT = readFileSync(new URL("./compact.txt", import.meta.url), "utf8");

/** The ledger's name for summary requests: reports show what compaction cost, budgets bind it. */
export const COMPACT_AGENT = "compact";
/** 80% of the window: room left for the next reply and a turn's results before the provider refuses. */
export const DEFAULT_COMPACT_THRESHOLD = 0.8;
/** Tool results kept whole: what the agent just saw is what it is working from. */
export const DEFAULT_KEEP_RECENT = 3;
/** Turns (an assistant reply and its results) kept after a summary: the work in hand, verbatim. */
export const SUMMARY_KEEP_TURNS = 2;
export const SUMMARY_PREFIX = "Summary of the conversation so far:\n";

export type CompactionTrigger = "auto" | "manual";

export interface CompactionOptions {
  /** The model's context window in tokens. */
  contextTokens: number;
  /** Share of the window at which compaction starts (default 0.8). */
  threshold?: number;
  /** Tool results kept whole by the clearing stage (default 3). */
  keepRecent?: number;
  /** Runs before either stage (the harness's PreCompact hook). */
  preCompact?(info: { trigger: CompactionTrigger; tokens: number }): Promise<void>;
  /** False: clear old outputs only, never ask the model for a summary (default true). */
  summarise?: boolean;
}

/** What compaction works on: the conversation and the prefix the loop sends with it. */
export interface CompactionTarget {
  /** The caller's conversation, rewritten in place. */
  messages: Message[];
  policy: Policy;
  ledger: Ledger;
  trajectory: TrajectorySink;
  system: string;
  memory: string;
  tools: ToolSpec[];
  maxOutputTokens: number;
  options: CompactionOptions;
  /** All input tokens (uncached + cache read + cache write) of the last request, when known. */
  knownInputTokens?: number;
  signal?: AbortSignal;
}

export interface CompactionResult {
  /** True when the messages were rewritten. */
  compacted: boolean;
  tokensBefore: number;
  tokensAfter: number;
  records: CompactionRecord[];
}

/** The loop's check before each request: compact when the context is at or over the threshold. */
export function maybeCompact(target: CompactionTarget): Promise<CompactionResult> {
  return compact(target, "auto");
}

/**
 * `/compact` between turns: clear and summarise now, whatever the size (an interactive front end
 * calls it on the conversation array; `contextTokens` only scales what the record reports).
 */
export function compactNow(target: CompactionTarget): Promise<CompactionResult> {
  return compact(target, "manual");
}

async function compact(target: CompactionTarget, trigger: CompactionTrigger): Promise<CompactionResult> {
  const { messages, options } = target;
  const limit = options.contextTokens * (options.threshold ?? DEFAULT_COMPACT_THRESHOLD);
  const estimated = estimateContext(target);
  const before = Math.max(estimated, target.knownInputTokens ?? 0);
  const none: CompactionResult = { compacted: false, tokensBefore: before, tokensAfter: before, records: [] };
  if (trigger === "auto" && before < limit) return none;
  await options.preCompact?.({ trigger, tokens: before });
  // The provider's count, where it is higher than ours, scales our estimate of what is left.
  const scale = estimated > 0 ? Math.max(1, before / estimated) : 1;
  const measure = () => Math.round(estimateContext(target) * scale);
  const records: CompactionRecord[] = [];
  let tokens = before;

  const cleared = clearOldResults(messages, options.keepRecent ?? DEFAULT_KEEP_RECENT);
  if (cleared.length > 0) {
    const after = measure();
    records.push(record(trigger, "cleared", tokens, after, { cleared }));
    tokens = after;
  }

  if (options.summarise !== false && (trigger === "manual" || tokens >= limit)) {
    const summarised = await summarise(target, trigger, tokens, measure);
    if (summarised) {
      records.push(summarised);
      tokens = summarised.tokens_after;
    }
  }
  for (const r of records) target.trajectory.write(r);
  return { compacted: records.length > 0, tokensBefore: before, tokensAfter: tokens, records };
}

/**
 * Replaces the content of every tool result but the newest `keepRecent` with a marker, in the array
 * (new message objects: a request the loop already recorded keeps the text it really sent). Images
 * go with the text. Results cleared before are left alone. Returns what was cleared, oldest first.
 */
export function clearOldResults(messages: Message[], keepRecent: number): CompactionRecord["cleared"] {
  const names = new Map<string, string>();
  const results: number[] = [];
  messages.forEach((m, i) => {
    if (m.role === "assistant") for (const call of m.toolCalls) names.set(call.id, call.name);
    if (m.role === "tool") results.push(i);
  });
  const cleared: CompactionRecord["cleared"] = [];
  for (const i of results.slice(0, Math.max(0, results.length - Math.max(0, keepRecent)))) {
    const m = messages[i];
    if (m?.role !== "tool" || m.content.startsWith(CLEARED_PREFIX)) continue;
    const tool = names.get(m.toolCallId) ?? "unknown";
    const chars = m.content.length;
    const { images: _dropped, ...rest } = m;
    messages[i] = { ...rest, content: `${CLEARED_PREFIX}${tool} ${chars} chars]` };
    cleared.push({ tool_call_id: m.toolCallId, tool, chars });
  }
  return cleared;
}

const CLEARED_PREFIX = "[output cleared to save context: ";

/**
 * Where a summary may cut: everything after the first message and before the `keep`-th last
 * assistant reply. The kept tail starts at a reply, and a reply's results follow it directly, so no
 * kept result loses its call and no kept call loses its result. Undefined when nothing would go.
 */
export function summaryCut(
  messages: readonly Message[],
  keep: number,
): { start: number; end: number } | undefined {
  const replies: number[] = [];
  messages.forEach((m, i) => {
    if (i > 0 && m.role === "assistant") replies.push(i);
  });
  const end = replies[replies.length - keep];
  if (end === undefined || end <= 1) return undefined;
  return { start: 1, end };
}

/** Stage 2: one request for a summary over the whole conversation, then the cut replaced by it. */
async function summarise(
  target: CompactionTarget,
  trigger: CompactionTrigger,
  tokensBefore: number,
  measure: () => number,
): Promise<CompactionRecord | undefined> {
  const { messages } = target;
  const cut = summaryCut(messages, SUMMARY_KEEP_TURNS);
  if (!cut) return undefined;
  // The same system, tools and memory as the loop's requests: the provider's cache covers the prefix.
  const request = {
    system: target.system,
    tools: target.tools,
    memory: target.memory,
    messages: [...messages, { role: "user" as const, content: COMPACT_PROMPT }],
    maxOutputTokens: target.maxOutputTokens,
  };
  const started = performance.now();
  const reply = await target.policy.next(request, target.signal);
  const { costUsd } = target.ledger.record({
    model: target.policy.model ?? reply.model,
    usage: reply.usage,
    latencyMs: performance.now() - started,
    agent: COMPACT_AGENT,
  });
  const summary = reply.message.content.trim();
  // A reply with no text (only tool calls) is no summary: keep the conversation rather than lose it.
  if (summary === "") return undefined;
  messages.splice(cut.start, cut.end - cut.start, { role: "user", content: `${SUMMARY_PREFIX}${summary}` });
  return record(trigger, "summarised", tokensBefore, measure(), {
    dropped_messages: cut.end - cut.start,
    summary,
    usage: reply.usage,
    cost_usd: costUsd ?? null,
  });
}

function record(
  trigger: CompactionTrigger,
  stage: CompactionRecord["stage"],
  before: number,
  after: number,
  fields: Partial<Pick<CompactionRecord, "cleared" | "dropped_messages" | "summary" | "cost_usd">> & {
    usage?: Usage;
  },
): CompactionRecord {
  return {
    type: "compaction",
    trigger,
    stage,
    tokens_before: before,
    tokens_after: after,
    cleared: [],
    dropped_messages: 0,
    ...fields,
  };
}

const NO_REPLY: AssistantMessage = { role: "assistant", content: "", toolCalls: [] };

/** The loop's own estimate of a request (4 characters a token: the scripted policy's `estimateUsage`). */
function estimateContext(target: CompactionTarget): number {
  const { system, memory, tools, messages, maxOutputTokens } = target;
  return estimateUsage({ system, memory, tools, messages, maxOutputTokens }, NO_REPLY).inputTokens;
}

/** All of a request's input tokens, however the provider billed them. */
export function inputTokensOf(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}
