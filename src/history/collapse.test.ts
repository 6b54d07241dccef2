import { describe, expect, it } from "vitest";
import type { AssistantMessage, Message, ToolMessage } from "../messages/index.js";
import { collapse, countLines, estimateMessageTokens, placeholder, tokensOf } from "./index.js";

const lines = (n: number, label: string): string =>
  Array.from({ length: n }, (_, i) => `${label} line ${i + 1}`).join("\n");

function call(id: string, name: string, input: unknown): AssistantMessage["toolCalls"][number] {
  return { id, name, input };
}

const tool = (toolCallId: string, content: string): ToolMessage => ({ role: "tool", toolCallId, content });

/**
 * A small repair episode: find the function, open it, run a reproduction and open the tests in
 * parallel (answered in reverse order), edit, run the tests.
 */
function episode(): Message[] {
  return [
    { role: "system", content: "You are a careful coding agent." },
    { role: "user", content: "median() returns the upper middle element for even-length lists." },
    { role: "assistant", content: "Find it.", toolCalls: [call("c1", "search", { pattern: "def median" })] },
    tool("c1", "src/stats.py:12"), // 1 line, shorter than any placeholder
    { role: "assistant", content: "Open it.", toolCalls: [call("c2", "view", { path: "src/stats.py" })] },
    tool("c2", `${lines(40, "stats")}\n`),
    {
      role: "assistant",
      content: "Reproduce and read the tests.",
      toolCalls: [
        call("c3", "shell", { command: "python -c 'from stats import median; print(median([1,2,3,4]))'" }),
        call("c4", "view", { path: "tests/test_core.py" }),
      ],
    },
    tool("c4", lines(25, "test")), // answers the second call first
    tool(
      "c3",
      'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n' +
        '  File "/repo/src/stats.py", line 15, in median\nAssertionError: expected 2.5, got 3\nexit status 1\n',
    ),
    {
      role: "assistant",
      content: "Fix it.",
      toolCalls: [call("c5", "edit", { path: "src/stats.py", old: "return xs[n // 2]", new: "return m" })],
    },
    { role: "tool", toolCallId: "c5", content: "ok: replaced 1 occurrence at line 15", isError: false },
    { role: "assistant", content: "Run the tests.", toolCalls: [call("c6", "run_tests", {})] },
    tool("c6", lines(12, "pytest")),
  ];
}

describe("countLines", () => {
  it("counts like Python's splitlines", () => {
    expect(countLines("")).toBe(0);
    expect(countLines("one")).toBe(1);
    expect(countLines("one\n")).toBe(1);
    expect(countLines("\n")).toBe(1);
    expect(countLines("a\n\nb")).toBe(3);
    expect(countLines("a\r\nb\r\n")).toBe(2);
    expect(countLines("a\rb\u2028c")).toBe(3);
  });
});

describe("collapse", () => {
  it("keeps the newest k results and collapses older ones by their own call's id", () => {
    const out = collapse(episode(), 2);
    const contents = out.map((m) => (m.role === "tool" ? m.content : undefined));
    expect(contents[5]).toBe("(output of view src/stats.py omitted, 40 lines)");
    // The parallel calls were answered in reverse order: each result names the call it answers.
    expect(contents[7]).toBe("(output of view tests/test_core.py omitted, 25 lines)");
    expect(contents[8]).toBe(
      "(output of shell python -c 'from stats import median; print(median([1,2,3,4]))' omitted, 5 lines)",
    );
    const source = episode();
    expect(out[10]).toEqual(source[10]);
    expect(out[12]).toEqual(source[12]);
  });

  it("keeps a result whose placeholder would not be shorter", () => {
    const source = episode();
    const out = collapse(source, 1);
    expect(out[3]).toBe(source[3]); // "src/stats.py:12" beats "(output of search def median omitted, 1 lines)"
    // The edit result is 36 characters; its placeholder is longer, so it stays too.
    expect(out[10]).toBe(source[10]);
    expect(placeholder({ name: "search", input: { pattern: "x" } }, "")).toBe(
      "(output of search x omitted, 0 lines)",
    );
  });

  it("keeps every message's position, role and ids, and leaves non-tool messages alone", () => {
    const source = episode();
    const out = collapse(source, 1);
    expect(out).toHaveLength(source.length);
    for (const [i, m] of out.entries()) {
      const original = source[i]!;
      expect(m.role).toBe(original.role);
      if (m.role === "tool" && original.role === "tool") {
        expect(m.toolCallId).toBe(original.toolCallId);
        expect(m.isError).toBe(original.isError);
      } else {
        expect(m).toBe(original); // system, user and assistant messages are the same objects
      }
    }
  });

  it("never mutates its input and returns new objects only where it changed something", () => {
    const source = episode();
    const before = structuredClone(source);
    const out = collapse(source, 1);
    expect(source).toEqual(before);
    expect(out).not.toBe(source);
    expect(out[5]).not.toBe(source[5]);
    expect(out[12]).toBe(source[12]);
  });

  it("treats k below 1 as 1, so the newest result is never collapsed", () => {
    const source = episode();
    expect(collapse(source, 0)).toEqual(collapse(source, 1));
    expect(collapse(source, -3)).toEqual(collapse(source, 1));
    expect(collapse(source, 0)[12]).toBe(source[12]);
    expect(() => collapse(source, Number.NaN)).toThrow(RangeError);
  });

  it("changes nothing when k covers every result", () => {
    const source = episode();
    const out = collapse(source, 6);
    expect(out).toEqual(source);
    out.forEach((m, i) => {
      expect(m).toBe(source[i]);
    });
  });

  it("throws on a result whose id matches no earlier call", () => {
    const orphan = [...episode(), tool("c9", "where did I come from")];
    expect(() => collapse(orphan, 2)).toThrow(/tool message 13 .*"c9".*orphaned/);
    // A call made only after its result does not count: the result must follow its call.
    const early: Message[] = [
      { role: "user", content: "go" },
      tool("c1", "too early"),
      { role: "assistant", content: "", toolCalls: [call("c1", "shell", { command: "ls" })] },
    ];
    expect(() => collapse(early, 5)).toThrow(/"c1"/);
  });

  it("shrinks the episode's token count", () => {
    const source = episode();
    const after = tokensOf(collapse(source, 2));
    expect(after).toBeLessThan(tokensOf(source));
    expect(tokensOf(source)).toBe(source.reduce((sum, m) => sum + estimateMessageTokens(m), 0));
    expect(tokensOf(source, () => 1)).toBe(source.length);
  });
});
