/**
 * History processors: what the model is shown of the run so far. The loop keeps the full history
 * and asks a processor for each request, so a processor is an experiment arm, swappable by a CLI
 * string (`parseHistorySpec`).
 */
import type { Message } from "../messages/index.js";
import { collapse, collapseOldest, countToolMessages } from "./collapse.js";

export interface HistoryProcessor {
  /** The canonical spec, e.g. "batch:5:10"; recorded with the run so it can be reproduced. */
  readonly name: string;
  /**
   * The messages to send for this step. `messages` is the full, append-only history; `step` is the
   * 0-based index of the request within the run. Never mutates `messages`.
   */
  apply(messages: readonly Message[], step: number): Message[];
}

/** Send everything. Append-only, so every request reuses the whole previous one from the cache. */
export function keepAll(): HistoryProcessor {
  return { name: "all", apply: (messages) => [...messages] };
}

/**
 * SWE-agent's `last_n_observations`: collapse to the newest `k` results on every step. Each step
 * rewrites the result that just left the window, so the cacheable prefix ends there every turn.
 */
export function lastN(k: number): HistoryProcessor {
  return { name: `last:${k}`, apply: (messages) => collapse(messages, k) };
}

/**
 * Collapse in batches so the cache survives between them. On a trim step (`step % every === 0`)
 * the request is exactly `collapse(messages, k)`. On every other step the results collapsed at the
 * last trim stay collapsed to the same text and everything newer is sent untouched, so the request
 * is the previous one plus the appended messages: byte-identical prefix, one cache invalidation per
 * batch instead of one per step. Between trims the live window grows from `k` to at most
 * `k + every - 1` results.
 *
 * The processor remembers how many results the last trim collapsed, so use one instance per run.
 * A step lower than the previous one, or a history with fewer results than were collapsed, is taken
 * as a new run and starts over.
 */
export function batchTrim(k: number, every: number): HistoryProcessor {
  if (!Number.isInteger(every) || every < 1) {
    throw new RangeError(`history: batchTrim(every) must be an integer ≥ 1, got ${every}`);
  }
  const keep = Math.max(1, Math.floor(k));
  let collapsed = 0; // results collapsed as of the last trim, oldest first
  let lastStep = Number.NEGATIVE_INFINITY;
  return {
    name: `batch:${k}:${every}`,
    apply(messages, step) {
      const results = countToolMessages(messages);
      // A repeated step is a retried request and must get the same answer, so only going back resets.
      if (step < lastStep || results < collapsed) collapsed = 0;
      lastStep = step;
      // Never un-collapse: on an append-only history the count only grows, and growing it is the trim.
      if (step % every === 0) collapsed = Math.max(collapsed, results - keep);
      return collapseOldest(messages, collapsed);
    },
  };
}

const SPEC_HELP = "use all, last:<k> or batch:<k>:<every>, e.g. last:5";

/** A positive integer from a spec field, or undefined when the field is not one. */
function positiveInt(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && Number.isSafeInteger(n) ? n : undefined;
}

/** Builds a processor from a CLI string: `all`, `last:<k>` or `batch:<k>:<every>`. */
export function parseHistorySpec(spec: string): HistoryProcessor {
  const [kind, ...args] = spec.trim().split(":");
  switch (kind) {
    case "all":
      if (args.length > 0) throw new Error(`history spec "${spec}": "all" takes no arguments — write all`);
      return keepAll();
    case "last": {
      const k = positiveInt(args[0]);
      if (args.length !== 1 || k === undefined) {
        throw new Error(`history spec "${spec}": expected last:<k> with k ≥ 1, e.g. last:5`);
      }
      return lastN(k);
    }
    case "batch": {
      const k = positiveInt(args[0]);
      const every = positiveInt(args[1]);
      if (args.length !== 2 || k === undefined || every === undefined) {
        throw new Error(
          `history spec "${spec}": expected batch:<k>:<every> with k ≥ 1 and every ≥ 1, e.g. batch:5:10 ` +
            "(keep 5 results, re-trim every 10 steps)",
        );
      }
      return batchTrim(k, every);
    }
    default:
      throw new Error(`history spec "${spec}": unknown kind "${kind ?? ""}" — ${SPEC_HELP}`);
  }
}
