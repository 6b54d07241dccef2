/**
 * result.json: one schema for every kind of task. The common fields come first and mean the same on
 * every path (docs/trajectory.md documents each; a test checks the doc's table against these types);
 * each kind adds its own fields and its grade's extras.
 */
import type { Ledger } from "../ledger/index.js";
import type { StopReason } from "../loop/index.js";

/** What a task is: a repository to fix (hidden tests), a tool world to act in, or a screen to use. */
export type TaskKind = "coding" | "tools" | "cua";

export const TASK_KINDS: readonly TaskKind[] = ["coding", "tools", "cua"];

/**
 * Tokens of the whole run. `input` is input billed at the full price; cache reads and writes are
 * counted apart (they are priced apart), so all input = input + cache_read + cache_write.
 */
export interface ResultUsage {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  /** True when the counts are estimates (scripted and replayed policies), not a provider's report. */
  estimated: boolean;
}

/** Every grade says whether the task was done and, in a sentence, why. */
export interface GradeCore {
  resolved: boolean;
  detail: string;
}

export interface ResultCore<K extends TaskKind, G extends GradeCore> {
  task: string;
  kind: K;
  /** The policy that ran, as a spec (`scripted:…`, `anthropic:claude-…`): reports never hide it. */
  policy: string;
  /** Equals grade.resolved. */
  resolved: boolean;
  stop_reason: StopReason;
  /** Why the loop stopped, in a sentence (the limit, the error, the agent's summary). */
  detail: string;
  /** Model calls. */
  steps: number;
  usage: ResultUsage;
  /** Dollars; null when a model's price is unknown (scripted and replayed policies cost 0). */
  cost_usd: number | null;
  /** Requests that re-sent a prefix the provider had cached, without a history rewrite asking for it. */
  cache_busts: number;
  /** The whole run, start to verdict (setup, loop, grading), in seconds to 2 decimals. */
  wall_s: number;
  /** What a person should know about how the run went (hooks skipped, a memory file cut), once each. */
  warnings: string[];
  grade: G;
}

/** The common fields in the order result.json writes them (docs/trajectory.md's first table). */
export const CORE_FIELDS = [
  "task",
  "kind",
  "policy",
  "resolved",
  "stop_reason",
  "detail",
  "steps",
  "usage",
  "cost_usd",
  "cache_busts",
  "wall_s",
  "warnings",
  "grade",
] as const satisfies readonly (keyof ResultCore<TaskKind, GradeCore>)[];

export type ResultExtras<R extends ResultCore<TaskKind, GradeCore>> = Omit<
  R,
  keyof ResultCore<TaskKind, GradeCore>
>;

/** The common fields, from what the composition root holds: the loop's end, the ledger, the clock. */
export function resultCore<K extends TaskKind, G extends GradeCore>(parts: {
  task: string;
  kind: K;
  policy: string;
  loop: { stopReason: StopReason; detail: string; steps: number };
  ledger: Ledger;
  wallMs: number;
  grade: G;
  warnings?: readonly string[];
}): ResultCore<K, G> {
  const t = parts.ledger.totals;
  return {
    task: parts.task,
    kind: parts.kind,
    policy: parts.policy,
    resolved: parts.grade.resolved,
    stop_reason: parts.loop.stopReason,
    detail: parts.loop.detail,
    steps: parts.loop.steps,
    usage: {
      input: t.inputTokens,
      output: t.outputTokens,
      cache_read: t.cacheReadTokens,
      cache_write: t.cacheWriteTokens,
      estimated: t.estimated === true,
    },
    cost_usd: parts.ledger.costComplete ? roundCost(parts.ledger.knownCostUsd) : null,
    cache_busts: parts.ledger.cacheBusts,
    wall_s: wallSeconds(parts.wallMs),
    warnings: [...(parts.warnings ?? [])],
    grade: parts.grade,
  };
}

/** Every input token of a run: full price, cache reads and cache writes. */
export function allInput(usage: ResultUsage): number {
  return usage.input + usage.cache_read + usage.cache_write;
}

/** One rounding for every wall clock a result reports. */
export function wallSeconds(ms: number): number {
  return Math.round(ms / 10) / 100;
}

/** Dollars to a millionth: below that is float noise, not money. */
function roundCost(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}
