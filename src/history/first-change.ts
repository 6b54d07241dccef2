/**
 * How much of the previous request a prompt cache can reuse. Caching is a prefix match: a change at
 * message j invalidates every message from j on, so the first differing message is the whole story.
 */
import { isDeepStrictEqual } from "node:util";
import type { Message } from "../messages/index.js";

/**
 * The index of the first message at which `prev` and `next` differ (deep equality of the whole
 * message), or the length of the shorter one when one is a prefix of the other. Equal to
 * `prev.length` exactly when `next` only appended to `prev`: full prefix reuse.
 *
 * Deep equality ignores the order of object keys; an adapter that serialises a tool call's input in
 * a different key order would still miss the cache, which this count cannot see.
 */
export function firstChange(prev: readonly Message[], next: readonly Message[]): number {
  const shorter = Math.min(prev.length, next.length);
  for (let i = 0; i < shorter; i++) {
    const a = prev[i];
    const b = next[i];
    // Processors hand back unchanged messages as the same objects, so identity settles most cases.
    if (a !== b && !isDeepStrictEqual(a, b)) return i;
  }
  return shorter;
}
