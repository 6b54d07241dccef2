import { describe, expect, it, vi } from "vitest";
import type { InspectableEnvironment } from "../env/index.js";
import { PageHazardError } from "../types.js";
import { expression, PAGE_READ_TIMEOUT_MS, PageGrade, toReward } from "./page-grade.js";
import type { TaskFile } from "./schema.js";

/** A page whose globals are a plain object: expressions are run with `window` bound to it. */
function pageEnv(window: Record<string, unknown>): InspectableEnvironment {
  return {
    evaluate: async (script: string) => new Function("window", `return ${script}`)(window),
  } as unknown as InspectableEnvironment;
}

function task(js: string, doneJs?: string): TaskFile {
  return {
    file: "tasks/cua/x/task.yaml",
    id: "x",
    instruction: { text: "x" },
    app: { kind: "url", url: "http://127.0.0.1:1/" },
    start: undefined,
    setupJs: "",
    grade: { js, doneJs },
    allowHosts: [],
    allowRequests: [],
    observe: ["a11y"],
    script: [],
  };
}

describe("a task file's grade, read in the page", () => {
  it("turns numbers into rewards (partial credit) and booleans into 1/0", () => {
    expect([toReward(0.5), toReward(true), toReward(false), toReward(-1)]).toEqual([0.5, 1, 0, -1]);
    expect(toReward("yes")).toMatch(/must give a number .* or a boolean/);
    expect(toReward(undefined)).toContain("undefined");
  });

  it("keeps a trailing semicolon and await working", async () => {
    expect(await pageEnv({}).evaluate(expression("await Promise.resolve(2);"))).toBe(2);
  });

  it("fails a grade that waits on something that never comes, naming the wait, instead of holding the step", async () => {
    vi.useFakeTimers();
    try {
      const grade = new PageGrade(pageEnv({}), task("await new Promise(() => {})"));
      const ended = grade.final();
      await vi.advanceTimersByTimeAsync(PAGE_READ_TIMEOUT_MS + 1);
      await ended;
      expect(grade.verdict()).toMatchObject({ resolved: false, reward: 0 });
      expect(grade.verdict().detail).toMatch(/grade\.js: threw .*did not finish within 10 s/);
    } finally {
      vi.useRealTimers();
    }
  });

  it("records the reward at the end; > 0 is resolved", async () => {
    const window = { REWARD: 0 };
    const grade = new PageGrade(pageEnv(window), task("window.REWARD"));
    expect(await grade.afterStep(1)).toBeUndefined();
    window.REWARD = 0.25;
    await grade.final();
    expect(grade.verdict()).toMatchObject({ resolved: true, reward: 0.25 });
  });

  it("ends the episode when done_js says so, with the reward of that moment", async () => {
    const window = { REWARD: 1, DONE: true };
    const grade = new PageGrade(pageEnv(window), task("window.REWARD", "window.DONE === true"));
    expect(await grade.afterStep(3)).toEqual({
      reason: "submitted",
      detail: "the page says the episode is done after step 3 (grade.done_js: window.DONE === true)",
    });
    window.REWARD = 0; // a benchmark page resets itself once done
    await grade.final();
    expect(grade.verdict()).toMatchObject({ resolved: true, reward: 1 });
  });

  it("makes a grade that throws a verdict naming the file, the field and the fix", async () => {
    const grade = new PageGrade(pageEnv({}), task("window.score.value"));
    await grade.afterStep(1);
    await grade.final();
    const verdict = grade.verdict();
    expect(verdict.resolved).toBe(false);
    expect(verdict.reward).toBe(0);
    expect(verdict.detail).toMatch(
      /^tasks\/cua\/x\/task\.yaml: grade\.js: threw .* at the end — fix the expression/,
    );
  });
});

describe("a grade the page keeps from being read", () => {
  it("blames the page, not the expression, when the page misbehaved or its browser is gone", async () => {
    const hazard = new PageHazardError({ kind: "page_crashed", detail: "the renderer of http://x/ crashed" });
    for (const failure of [
      hazard,
      new Error("page.evaluate: Target crashed"),
      new Error("Target page, context or browser has been closed"),
    ]) {
      const env = { evaluate: async () => Promise.reject(failure) } as unknown as InspectableEnvironment;
      const grade = new PageGrade(env, task("window.REWARD"));
      await grade.final();
      const { detail, resolved } = grade.verdict();
      expect(resolved).toBe(false);
      expect(detail).toMatch(
        /grade\.js: could not be read, the page misbehaved \(.+\) at the end — the page failed, not the expression/,
      );
      expect(detail).not.toMatch(/fix the expression/);
    }
  });

  it("blames the page when the episode ended because the page misbehaved and the read then fails", async () => {
    // A console flood can starve the final read past its in-page timeout: the expression is fine.
    const starved = new Error(
      "page.evaluate: Error: it did not finish within 10 s (it waits on something that never comes)",
    );
    const env = { evaluate: async () => Promise.reject(starved) } as unknown as InspectableEnvironment;
    const grade = new PageGrade(env, task("window.REWARD || 0"));
    await grade.final({ pageMisbehaved: true });
    expect(grade.verdict().detail).toMatch(
      /grade\.js: could not be read after the page misbehaved \(threw .*did not finish within 10 s.*\) at the end — the page failed, not the expression/,
    );
    // The same failure in an episode that ended otherwise is the expression's.
    const own = new PageGrade(env, task("window.REWARD || 0"));
    await own.final({ pageMisbehaved: false });
    expect(own.verdict().detail).toMatch(/fix the expression/);
  });

  it("still asks to fix an expression that throws on its own", async () => {
    const grade = new PageGrade(pageEnv({}), task("window.nope.x"));
    await grade.final();
    expect(grade.verdict().detail).toMatch(/grade\.js: threw .* at the end — fix the expression/);
  });
});
