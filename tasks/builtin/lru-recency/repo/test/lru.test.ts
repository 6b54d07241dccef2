import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type EvictReason, LruCache } from "../src/index.ts";

function fakeClock(start = 0): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => void (time += ms) };
}

describe("LruCache", () => {
  test("stores and returns values", () => {
    const cache = new LruCache<string, number>({ maxSize: 3 });
    cache.set("a", 1).set("b", 2);
    assert.equal(cache.get("a"), 1);
    assert.equal(cache.get("b"), 2);
    assert.equal(cache.get("missing"), undefined);
    assert.equal(cache.size, 2);
  });

  test("evicts the least recently used entry when full", () => {
    const cache = new LruCache<string, number>({ maxSize: 2 });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    assert.deepEqual(cache.keys(), ["c", "b"]);
    assert.equal(cache.has("a"), false);
  });

  test("get marks an entry as recently used", () => {
    const cache = new LruCache<string, number>({ maxSize: 2 });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.get("a");
    cache.set("c", 3);
    assert.deepEqual(cache.keys(), ["c", "a"]);
  });

  test("peek and has do not change recency", () => {
    const cache = new LruCache<string, number>({ maxSize: 2 });
    cache.set("a", 1);
    cache.set("b", 2);
    assert.equal(cache.peek("a"), 1);
    assert.equal(cache.has("a"), true);
    cache.set("c", 3);
    assert.equal(cache.has("a"), false);
    assert.equal(cache.peek("a"), undefined);
  });

  test("set on an existing key replaces its value without growing", () => {
    const cache = new LruCache<string, number>({ maxSize: 2 });
    cache.set("a", 1);
    cache.set("a", 2);
    assert.equal(cache.get("a"), 2);
    assert.equal(cache.size, 1);
  });

  test("delete and clear", () => {
    const cache = new LruCache<string, number>({ maxSize: 3 });
    cache.set("a", 1).set("b", 2);
    assert.equal(cache.delete("a"), true);
    assert.equal(cache.delete("a"), false);
    cache.clear();
    assert.equal(cache.size, 0);
    assert.deepEqual(cache.entries(), []);
  });

  test("entries lists pairs most recent first", () => {
    const cache = new LruCache<number, string>({ maxSize: 5 });
    cache.set(1, "one").set(2, "two").set(3, "three");
    cache.get(1);
    assert.deepEqual(cache.entries(), [
      [1, "one"],
      [3, "three"],
      [2, "two"],
    ]);
  });

  test("onEvict hears about capacity evictions only", () => {
    const seen: [string, number, EvictReason][] = [];
    const cache = new LruCache<string, number>({ maxSize: 1, onEvict: (k, v, r) => seen.push([k, v, r]) });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.delete("b");
    cache.set("c", 3);
    cache.clear();
    assert.deepEqual(seen, [["a", 1, "capacity"]]);
  });

  test("stats count hits, misses and evictions", () => {
    const cache = new LruCache<string, number>({ maxSize: 1 });
    cache.set("a", 1);
    cache.get("a");
    cache.get("b");
    cache.set("b", 2);
    assert.deepEqual(cache.stats(), { hits: 1, misses: 1, evictions: 1 });
  });

  test("rejects a bad maxSize or ttlMs", () => {
    assert.throws(() => new LruCache({ maxSize: 0 }), RangeError);
    assert.throws(() => new LruCache({ maxSize: 1.5 }), RangeError);
    assert.throws(() => new LruCache({ maxSize: 2, ttlMs: 0 }), RangeError);
  });
});

describe("LruCache with ttlMs", () => {
  test("entries expire ttlMs after they were written", () => {
    const clock = fakeClock();
    const cache = new LruCache<string, number>({ maxSize: 3, ttlMs: 100, now: clock.now });
    cache.set("a", 1);
    clock.advance(99);
    assert.equal(cache.get("a"), 1);
    clock.advance(1);
    assert.equal(cache.get("a"), undefined);
    assert.equal(cache.has("a"), false);
  });

  test("writing a key again restarts its ttl", () => {
    const clock = fakeClock();
    const cache = new LruCache<string, number>({ maxSize: 3, ttlMs: 100, now: clock.now });
    cache.set("a", 1);
    clock.advance(60);
    cache.set("a", 2);
    clock.advance(60);
    assert.equal(cache.get("a"), 2);
  });

  test("prune drops expired entries and reports them", () => {
    const clock = fakeClock();
    const reasons: EvictReason[] = [];
    const cache = new LruCache<string, number>({
      maxSize: 3,
      ttlMs: 10,
      now: clock.now,
      onEvict: (_k, _v, r) => reasons.push(r),
    });
    cache.set("a", 1).set("b", 2);
    clock.advance(5);
    cache.set("c", 3);
    clock.advance(5);
    assert.equal(cache.prune(), 2);
    assert.deepEqual(cache.keys(), ["c"]);
    assert.deepEqual(reasons, ["expired", "expired"]);
  });

  test("an expired entry makes room before a live one is evicted", () => {
    const clock = fakeClock();
    const cache = new LruCache<string, number>({ maxSize: 2, ttlMs: 10, now: clock.now });
    cache.set("old", 0);
    clock.advance(5);
    cache.set("live", 1);
    clock.advance(5);
    cache.set("new", 2);
    assert.deepEqual(cache.keys(), ["new", "live"]);
  });
});
