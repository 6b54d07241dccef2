import { describe, expect, it } from "vitest";
import type { Message } from "../messages/index.js";
import { firstChange } from "./index.js";

const request = (): Message[] => [
  { role: "system", content: "You are a coding agent." },
  { role: "user", content: "Fix the median." },
  {
    role: "assistant",
    content: "",
    toolCalls: [{ id: "c1", name: "view", input: { path: "a.py", line: 1 } }],
  },
  { role: "tool", toolCallId: "c1", content: "def median(xs): ..." },
];

describe("firstChange", () => {
  it("returns the length for identical requests, even as separate objects", () => {
    expect(firstChange(request(), request())).toBe(4);
    const same = request();
    expect(firstChange(same, same)).toBe(4);
  });

  it("returns the shorter length when one request extends the other", () => {
    const prev = request();
    const next: Message[] = [...request(), { role: "assistant", content: "Done.", toolCalls: [] }];
    expect(firstChange(prev, next)).toBe(prev.length); // full prefix reuse
    expect(firstChange(next, prev)).toBe(prev.length);
  });

  it("returns the index of the first differing message", () => {
    const next = request();
    next[3] = { role: "tool", toolCallId: "c1", content: "(output of view a.py 1 omitted, 40 lines)" };
    expect(firstChange(request(), next)).toBe(3);
    // A difference deep inside a tool call's input counts.
    next[2] = {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "view", input: { path: "a.py", line: 2 } }],
    };
    expect(firstChange(request(), next)).toBe(2);
    // So does a changed role or id with the same content.
    const renamed = request();
    renamed[3] = { role: "tool", toolCallId: "c2", content: "def median(xs): ..." };
    expect(firstChange(request(), renamed)).toBe(3);
  });

  it("returns 0 when either request is empty or the first message changed", () => {
    expect(firstChange([], request())).toBe(0);
    expect(firstChange(request(), [])).toBe(0);
    expect(firstChange([], [])).toBe(0);
    const next = request();
    next[0] = { role: "system", content: "You are a coding agent. Today is Tuesday." };
    expect(firstChange(request(), next)).toBe(0);
  });
});
