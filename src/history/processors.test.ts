import { describe, expect, it } from "vitest";
import type { Message } from "../messages/index.js";
import { batchTrim, collapse, firstChange, keepAll, lastN, parseHistorySpec } from "./index.js";

const OUTPUT = Array.from({ length: 10 }, (_, i) => `output line ${i + 1}`).join("\n");

/** The full history before request `step`: the task, then one call and its result per earlier step. */
function historyAt(step: number): Message[] {
  const messages: Message[] = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Fix the median." },
  ];
  for (let i = 0; i < step; i++) {
    messages.push({
      role: "assistant",
      content: `step ${i}`,
      toolCalls: [{ id: `c${i}`, name: "shell", input: { command: `cat part${i}.txt` } }],
    });
    messages.push({ role: "tool", toolCallId: `c${i}`, content: OUTPUT });
  }
  return messages;
}

/** Result i sits at index 3 + 2i in every history above. */
const resultIndex = (i: number): number => 3 + 2 * i;

/** The requests a processor produces over `steps` steps of a growing run. */
function run(processor: ReturnType<typeof keepAll>, steps: number): Message[][] {
  return Array.from({ length: steps }, (_, step) => processor.apply(historyAt(step), step));
}

describe("keepAll", () => {
  it("sends the history unchanged and only ever appends", () => {
    const requests = run(keepAll(), 6);
    for (let s = 1; s < requests.length; s++) {
      expect(firstChange(requests[s - 1]!, requests[s]!)).toBe(requests[s - 1]!.length);
    }
    expect(requests[5]).toEqual(historyAt(5));
  });
});

describe("lastN", () => {
  it("collapses on every step, so the cached prefix breaks every step once the window is full", () => {
    const requests = run(lastN(2), 8);
    for (let s = 3; s < requests.length; s++) {
      // The result that just left the window (result s - 3) is where the request first differs.
      expect(firstChange(requests[s - 1]!, requests[s]!)).toBe(resultIndex(s - 3));
    }
  });
});

describe("batchTrim", () => {
  const K = 2;
  const EVERY = 4;

  it("reuses the whole previous request on every step that is not a trim step", () => {
    const requests = run(batchTrim(K, EVERY), 13);
    for (let s = 1; s < requests.length; s++) {
      if (s % EVERY === 0) continue;
      expect(firstChange(requests[s - 1]!, requests[s]!)).toBe(requests[s - 1]!.length);
    }
  });

  it("rewrites from the first newly collapsed result on a trim step, and equals collapse() there", () => {
    const requests = run(batchTrim(K, EVERY), 13);
    // Step 4: results 0..3, keep 2, so 0 and 1 collapse; nothing was collapsed before.
    expect(firstChange(requests[3]!, requests[4]!)).toBe(resultIndex(0));
    // Step 8: results 0..7, so 0..5 collapse; 0 and 1 already were, so the rewrite starts at 2.
    expect(firstChange(requests[7]!, requests[8]!)).toBe(resultIndex(2));
    expect(firstChange(requests[11]!, requests[12]!)).toBe(resultIndex(6));
    for (const s of [4, 8, 12]) expect(requests[s]).toEqual(collapse(historyAt(s), K));
  });

  it("keeps collapsed results collapsed to the same text between trims and appends new ones untouched", () => {
    const requests = run(batchTrim(K, EVERY), 8);
    const at7 = requests[7]!;
    expect(at7.slice(0, requests[4]!.length)).toEqual(requests[4]);
    // Results 0 and 1 collapsed at step 4; results 2..6 are live: the window grew to k + every - 1.
    const live = at7.filter((m) => m.role === "tool" && m.content === OUTPUT);
    expect(live).toHaveLength(K + EVERY - 1);
    expect(at7[resultIndex(1)]).toMatchObject({
      content: "(output of shell cat part1.txt omitted, 10 lines)",
    });
  });

  it("answers a retried step the same way and starts over when the steps go back", () => {
    const processor = batchTrim(K, EVERY);
    const trimmed = processor.apply(historyAt(8), 8);
    expect(processor.apply(historyAt(8), 8)).toEqual(trimmed);
    // A new run: step 1 with a short history collapses nothing.
    expect(processor.apply(historyAt(2), 1)).toEqual(historyAt(2));
  });

  it("never mutates the history it is given", () => {
    const history = historyAt(9);
    const before = structuredClone(history);
    run(batchTrim(1, 3), 9);
    batchTrim(1, 3).apply(history, 9);
    expect(history).toEqual(before);
  });

  it("rejects an interval below 1", () => {
    expect(() => batchTrim(2, 0)).toThrow(RangeError);
  });
});

describe("parseHistorySpec", () => {
  it("builds each processor from its CLI string", () => {
    expect(parseHistorySpec("all").name).toBe("all");
    expect(parseHistorySpec("last:5").name).toBe("last:5");
    expect(parseHistorySpec("batch:5:10").name).toBe("batch:5:10");
    expect(parseHistorySpec("last:2").apply(historyAt(6), 0)).toEqual(collapse(historyAt(6), 2));
  });

  it("explains a bad spec and shows a good one", () => {
    expect(() => parseHistorySpec("last:x")).toThrow(
      'history spec "last:x": expected last:<k> with k ≥ 1, e.g. last:5',
    );
    expect(() => parseHistorySpec("last:0")).toThrow(/k ≥ 1/);
    expect(() => parseHistorySpec("last")).toThrow(/expected last:<k>/);
    expect(() => parseHistorySpec("last:5:1")).toThrow(/expected last:<k>/);
    expect(() => parseHistorySpec("batch:5")).toThrow(/expected batch:<k>:<every>.*e\.g\. batch:5:10/);
    expect(() => parseHistorySpec("batch:5:0")).toThrow(/every ≥ 1/);
    expect(() => parseHistorySpec("all:3")).toThrow(/takes no arguments/);
    expect(() => parseHistorySpec("window:5")).toThrow(/unknown kind "window" — use all, last:<k> or batch/);
  });
});
