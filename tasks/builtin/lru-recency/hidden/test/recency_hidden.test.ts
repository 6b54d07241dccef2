// Hidden tests for recency after overwriting a key (copied in by the grader).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { LruCache, memoize } from "../src/index.ts";

describe("recency after set on an existing key", () => {
  test("overwriting a key makes it the most recently used", () => {
    const cache = new LruCache<string, number>({ maxSize: 2 });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("a", 10);
    cache.set("c", 3);
    assert.equal(cache.get("a"), 10);
    assert.equal(cache.has("b"), false);
  });

  test("keys lists an overwritten key first", () => {
    const cache = new LruCache<string, number>({ maxSize: 3 });
    cache.set("a", 1).set("b", 2).set("c", 3);
    cache.set("a", 4);
    assert.deepEqual(cache.keys(), ["a", "c", "b"]);
  });

  test("onEvict reports the least recently written key", () => {
    const evicted: string[] = [];
    const cache = new LruCache<string, number>({ maxSize: 3, onEvict: (k) => evicted.push(k) });
    cache.set("a", 1).set("b", 2).set("c", 3);
    cache.set("a", 1).set("b", 2);
    cache.set("d", 4);
    assert.deepEqual(evicted, ["c"]);
  });

  test("a key that keeps being written is never evicted", () => {
    const cache = new LruCache<number, string>({ maxSize: 2 });
    for (let i = 0; i < 10; i++) {
      cache.set(0, `hot ${i}`);
      cache.set(i + 1, "cold");
    }
    assert.equal(cache.peek(0), "hot 9");
  });

  test("overwriting a key evicts nothing", () => {
    const evicted: string[] = [];
    const cache = new LruCache<string, number>({ maxSize: 2, onEvict: (k) => evicted.push(k) });
    cache.set("a", 1).set("b", 2);
    cache.set("b", 3).set("a", 4);
    assert.equal(cache.size, 2);
    assert.deepEqual(evicted, []);
    assert.deepEqual(cache.stats().evictions, 0);
  });

  test("peek still leaves recency alone after an overwrite", () => {
    const cache = new LruCache<string, number>({ maxSize: 2 });
    cache.set("a", 1).set("b", 2);
    cache.set("b", 20);
    assert.equal(cache.peek("a"), 1);
    cache.set("c", 3);
    assert.equal(cache.has("a"), false);
    assert.equal(cache.peek("b"), 20);
  });

  test("memoized results survive a cache overwrite", () => {
    const calls: number[] = [];
    const double = memoize(
      (n: number) => {
        calls.push(n);
        return 2 * n;
      },
      { maxSize: 2 },
    );
    double(1);
    double(2);
    double.cache.set(1, 2);
    double(3);
    double(1);
    assert.deepEqual(calls, [1, 2, 3]);
  });
});
