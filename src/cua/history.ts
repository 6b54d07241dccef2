/**
 * Which screenshots stay in the conversation. Every kept image is re-sent (and re-billed) each turn,
 * but trimming rewrites the prefix and costs the cache: with caching, keeping every screenshot costs
 * less than trimming each turn (`npm run bench cua`'s cost lines), so keep them all unless the context
 * window forces a trim, and then trim in batches. Text always stays: only images go.
 */
import type { HistoryProcessor } from "../history/index.js";
import type { Message } from "../messages/index.js";

/** What replaces a dropped screenshot, so the model knows one was there. */
export const OMITTED = "[screenshot from an earlier step omitted]";

/** Positions of image-bearing messages, oldest first. */
function imageMessages(messages: readonly Message[]): number[] {
  const out: number[] = [];
  messages.forEach((m, i) => {
    if ((m.role === "user" || m.role === "tool") && m.images && m.images.length > 0) out.push(i);
  });
  return out;
}

/** Drops the images of the oldest `drop` image-bearing messages. */
function dropOldest(messages: readonly Message[], drop: number): Message[] {
  if (drop <= 0) return [...messages];
  const victims = new Set(imageMessages(messages).slice(0, drop));
  return messages.map((m, i) => {
    if (!victims.has(i) || (m.role !== "user" && m.role !== "tool")) return m;
    const { images: _dropped, ...rest } = m;
    return { ...rest, content: rest.content ? `${rest.content}\n${OMITTED}` : OMITTED };
  });
}

export function keepAllScreenshots(): HistoryProcessor {
  return { name: "all", apply: (messages) => [...messages] };
}

/** Keep the newest `k` screenshots every turn: the prefix changes every turn, so the cache rarely hits. */
export function lastScreenshots(k: number): HistoryProcessor {
  return {
    name: `last:${k}`,
    apply: (messages) => dropOldest(messages, imageMessages(messages).length - k),
  };
}

/**
 * Re-trim to the newest `k` only on steps divisible by `every`; in between, what was dropped stays
 * dropped and new screenshots append, so the prefix is byte-identical and the cache holds: one
 * invalidation per batch. One instance per run.
 */
export function batchScreenshots(k: number, every: number): HistoryProcessor {
  let dropped = 0;
  return {
    name: `batch:${k}:${every}`,
    apply(messages, step) {
      const count = imageMessages(messages).length;
      if (count < dropped) dropped = 0; // a shorter history is a new run
      if (step % every === 0) dropped = Math.max(dropped, count - k);
      return dropOldest(messages, dropped);
    },
  };
}

/** "all" | "last:<k>" | "batch:<k>:<every>", with an error that shows a valid one. */
export function parseScreenshotHistory(spec: string): HistoryProcessor {
  const [kind, ...args] = spec.trim().split(":");
  const nums = args.map((a) => (/^\d+$/.test(a) ? Number(a) : Number.NaN));
  const ok = (n: number | undefined) => n !== undefined && Number.isSafeInteger(n) && n >= 1;
  if (kind === "all" && args.length === 0) return keepAllScreenshots();
  if (kind === "last" && nums.length === 1 && ok(nums[0])) return lastScreenshots(nums[0] as number);
  if (kind === "batch" && nums.length === 2 && ok(nums[0]) && ok(nums[1])) {
    return batchScreenshots(nums[0] as number, nums[1] as number);
  }
  throw new Error(
    `screenshot history "${spec}": use all, last:<k> or batch:<k>:<every> with k, every ≥ 1 (e.g. batch:3:8: keep 3, re-trim every 8 steps)`,
  );
}
