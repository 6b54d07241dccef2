import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { memoize } from "../src/index.ts";

describe("memoize", () => {
  test("calls the function once per argument", () => {
    let calls = 0;
    const square = memoize((n: number) => {
      calls++;
      return n * n;
    });
    assert.equal(square(4), 16);
    assert.equal(square(4), 16);
    assert.equal(square(5), 25);
    assert.equal(calls, 2);
  });

  test("forgets the least recently used result beyond maxSize", () => {
    const seen: number[] = [];
    const id = memoize(
      (n: number) => {
        seen.push(n);
        return n;
      },
      { maxSize: 2 },
    );
    id(1);
    id(2);
    id(1);
    id(3);
    id(1);
    id(2);
    assert.deepEqual(seen, [1, 2, 3, 2]);
  });

  test("keys calls with several or object arguments by their JSON", () => {
    let calls = 0;
    const add = memoize((a: { x: number }, b: number) => {
      calls++;
      return a.x + b;
    });
    assert.equal(add({ x: 1 }, 2), 3);
    assert.equal(add({ x: 1 }, 2), 3);
    assert.equal(calls, 1);
  });

  test("a custom key function", () => {
    let calls = 0;
    const lower = memoize(
      (s: string) => {
        calls++;
        return s.toLowerCase();
      },
      { key: (s) => s.toLowerCase() },
    );
    lower("ABC");
    lower("abc");
    assert.equal(calls, 1);
  });

  test("undefined results are cached, errors are not", () => {
    let calls = 0;
    const f = memoize((fail: boolean) => {
      calls++;
      if (fail) throw new Error("boom");
      return undefined;
    });
    f(false);
    f(false);
    assert.throws(() => f(true));
    assert.throws(() => f(true));
    assert.equal(calls, 3);
    assert.equal(f.cache.size, 1);
  });
});
