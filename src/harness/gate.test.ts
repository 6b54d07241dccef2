import { describe, expect, it } from "vitest";
import type { ToolKind } from "../tools/index.js";
import { type GateOptions, makeGate } from "./gate.js";
import type { Approval, RuleDecision } from "./types.js";

const KINDS: Record<string, ToolKind> = { view: "read", str_replace: "edit", shell: "execute" };

function gate(over: Partial<GateOptions> & { answers?: Approval[] } = {}) {
  const checkpoints: string[] = [];
  const denied: string[] = [];
  const asked: string[] = [];
  const answers = [...(over.answers ?? [])];
  const approve = async (r: { summary: string }): Promise<Approval> => {
    asked.push(r.summary);
    return answers.shift() ?? "no";
  };
  const hook = makeGate({
    kindOf: (t) => KINDS[t],
    rules: (_tool, kind): RuleDecision =>
      kind === "read"
        ? { behavior: "allow", reason: "reads are allowed" }
        : { behavior: "ask", reason: "mode default" },
    interactive: true,
    approve,
    checkpoint: async (label) => {
      checkpoints.push(label);
    },
    denied: (d) => denied.push(d.reason),
    ...over,
  });
  return { hook, checkpoints, denied, asked };
}

describe("the permission gate", () => {
  it("allows reads without asking and without a checkpoint", async () => {
    const g = gate();
    expect(await g.hook("view", { path: "a.py" })).toEqual({ allow: true });
    expect(g.asked).toEqual([]);
    expect(g.checkpoints).toEqual([]);
  });

  it("asks for an edit, checkpoints it when allowed, and remembers 'always' per command word", async () => {
    const g = gate({ answers: ["yes", "always", "no"] });
    expect(await g.hook("str_replace", { path: "a.py" })).toEqual({ allow: true });
    expect(g.checkpoints).toEqual(["str_replace a.py"]);
    expect(await g.hook("shell", { command: "npm test" })).toEqual({ allow: true });
    expect(await g.hook("shell", { command: "npm run lint" })).toEqual({ allow: true }); // npm: always
    const rm = await g.hook("shell", { command: "rm -rf build" });
    expect(rm).toMatchObject({ allow: false, reason: expect.stringMatching(/declined shell: rm -rf build/) });
    expect(g.asked).toEqual(["str_replace a.py", "shell: npm test", "shell: rm -rf build"]);
    expect(g.denied).toHaveLength(1);
  });

  it("denies 'ask' in a headless run and tells the model why and what to do", async () => {
    const g = gate({ interactive: false });
    const d = await g.hook("shell", { command: "make" });
    expect(d).toMatchObject({ allow: false });
    expect(d.allow === false && d.reason).toMatch(/headless \(-p\).*settings\.json or --permission-mode/);
    expect(g.asked).toEqual([]);
    expect(g.checkpoints).toEqual([]);
  });

  it("lets a hook block, and never lets a hook's allow beat a deny rule", async () => {
    const blocked = gate({ preToolUse: async () => ({ block: "no rm here" }) });
    const b = await blocked.hook("view", { path: "x" });
    expect(b).toEqual({ allow: false, reason: "blocked by a PreToolUse hook: no rm here" });
    const denyRule = gate({
      rules: () => ({ behavior: "deny", reason: "deny rule Bash(rm:*)" }),
      preToolUse: async () => ({ decision: "allow", reason: "hook says fine" }),
    });
    expect(await denyRule.hook("shell", { command: "rm x" })).toEqual({
      allow: false,
      reason: "deny rule Bash(rm:*)",
    });
    // A hook's allow skips the question for an "ask" rule.
    const hookAllows = gate({ preToolUse: async () => ({ decision: "allow" }) });
    expect(await hookAllows.hook("shell", { command: "ls" })).toEqual({ allow: true });
    expect(hookAllows.asked).toEqual([]);
  });
});
