import { describe, expect, it } from "vitest";
import {
  changedSpan,
  findAll,
  lineAtOffset,
  looseMatchLine,
  numbered,
  spliceLines,
  splitLines,
} from "./text.js";

describe("splitLines", () => {
  it("behaves like Python's splitlines for \\n and \\r\\n text", () => {
    expect(splitLines("")).toEqual([]);
    expect(splitLines("a")).toEqual(["a"]);
    expect(splitLines("a\n")).toEqual(["a"]);
    expect(splitLines("a\n\nb\n")).toEqual(["a", "", "b"]);
    expect(splitLines("a\r\nb\r\n")).toEqual(["a", "b"]);
    expect(splitLines("\n")).toEqual([""]);
  });
});

describe("numbered", () => {
  it("right-aligns the number in six columns, then a tab", () => {
    expect(numbered(7, "x = 1")).toBe("     7\tx = 1");
    expect(numbered(123456, "")).toBe("123456\t");
  });
});

describe("findAll", () => {
  it("counts overlapping occurrences", () => {
    expect(findAll("aaa", "aa")).toEqual([0, 1]);
    expect(findAll("abc", "")).toEqual([]);
  });
  it("locates lines by counting newlines before the offset", () => {
    const text = "x\ny\nzz\n";
    expect(lineAtOffset(text, 0)).toBe(1);
    expect(lineAtOffset(text, 2)).toBe(2);
    expect(lineAtOffset(text, 5)).toBe(3);
  });
});

describe("spliceLines", () => {
  const text = "1\n2\n3\n4\n";
  it("replaces an inclusive range", () => {
    expect(spliceLines(text, 2, 3, "b\nc\n")).toBe("1\nb\nc\n4\n");
    expect(spliceLines(text, 2, 3, "b")).toBe("1\nb\n4\n");
  });
  it("inserts when end = start - 1 and deletes with an empty body", () => {
    expect(spliceLines(text, 1, 0, "0")).toBe("0\n1\n2\n3\n4\n");
    expect(spliceLines(text, 5, 4, "5")).toBe("1\n2\n3\n4\n5\n");
    expect(spliceLines(text, 2, 4, "")).toBe("1\n");
  });
  it("keeps line endings sane: no final newline, CRLF files", () => {
    expect(spliceLines("1\n2", 3, 2, "3")).toBe("1\n2\n3\n");
    expect(spliceLines("1\n2", 2, 2, "")).toBe("1\n");
    expect(spliceLines("1\r\n2\r\n", 2, 1, "x\ny")).toBe("1\r\nx\r\ny\r\n2\r\n");
  });
});

describe("changedSpan", () => {
  it("strips the common prefix and suffix", () => {
    expect(changedSpan(["a", "b", "c"], ["a", "x", "y", "c"])).toEqual({
      start: 2,
      beforeEnd: 2,
      afterEnd: 3,
    });
    expect(changedSpan(["a", "b"], ["a", "b"])).toEqual({ start: 3, beforeEnd: 2, afterEnd: 2 });
    expect(changedSpan([], ["a"])).toEqual({ start: 1, beforeEnd: 0, afterEnd: 1 });
  });
});

describe("looseMatchLine", () => {
  it("finds text that differs only in indentation", () => {
    expect(looseMatchLine("def f():\n\treturn 1\n", "    return 1")).toBe(2);
    expect(looseMatchLine("def f():\n    return 1\n", "return 2")).toBeUndefined();
  });
});
