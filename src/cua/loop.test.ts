import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "../messages/index.js";
import type { PolicyRequest } from "../policies/index.js";
import { MemoryTrajectory } from "../trajectory/index.js";
import type { CuaOutcome } from "./episode.js";
import type { ConfirmRequest } from "./gate.js";
import { pngSize } from "./image.js";
import { runCuaEpisode } from "./loop.js";
import type { CuaTurnRecord } from "./records.js";
import { ScriptedCuaPolicy, type ScriptedCuaStep } from "./scripted.js";
import { STALL_WARNING } from "./stall.js";
import { MemorySettingsApp } from "./testing/memory-env.js";
import type { ObserveKind } from "./types.js";

const TASK = { id: "settings", instruction: "Save the settings.", start: { url: "http://127.0.0.1:9/" } };
const OPEN: ScriptedCuaStep = { click: { role: "button", name: "Open settings" } };
const SAVE: ScriptedCuaStep = { click: { role: "button", name: "Save" } };

/** Most tests run on a screen that needs no downscale (fast); the scaling tests use 1080p. */
const small = () => new MemorySettingsApp({ width: 800, height: 450 });
const hd = () => new MemorySettingsApp({ width: 1920, height: 1080 });

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A scripted policy that also keeps every request it was sent. */
class Recording extends ScriptedCuaPolicy {
  readonly requests: PolicyRequest[] = [];
  override async next(request: PolicyRequest) {
    this.requests.push(request);
    return super.next(request);
  }
}

async function run(
  steps: ScriptedCuaStep[],
  options: { observe?: ObserveKind; env?: MemorySettingsApp; frames?: boolean } & Record<
    string,
    unknown
  > = {},
) {
  const { observe = "screenshot", env = small(), frames, ...rest } = options;
  const policy = new Recording("scripted:test", steps, (rest.scripted as object) ?? {});
  const trajectory = new MemoryTrajectory();
  let framesDir: string | undefined;
  if (frames) {
    const dir = mkdtempSync(join(tmpdir(), "acilab-cua-"));
    dirs.push(dir);
    framesDir = join(dir, "frames");
  }
  const outcome: CuaOutcome = await runCuaEpisode({
    env,
    policy,
    task: TASK,
    observe,
    trajectory,
    ...(framesDir ? { framesDir } : {}),
    settleMs: 0,
    ...(rest as object),
  });
  const turns = trajectory.records.filter((r): r is CuaTurnRecord => r.type === "turn");
  return { outcome, env, policy, trajectory, turns };
}

describe("runCuaEpisode", () => {
  it("runs a scripted episode on a 1080p screen: clicks land on the elements' centres after downscaling", async () => {
    const { outcome, env, turns, trajectory } = await run([OPEN, SAVE, { done: "saved" }], {
      frames: true,
      env: hd(),
    });
    expect(outcome).toMatchObject({ stopReason: "submitted", summary: "saved", steps: 3 });
    expect(outcome.model).toEqual({ width: 1456, height: 819 });
    expect(env.state).toMatchObject({ saved: true, deleted: false });
    // The model clicked in 1456×819 space; the screen got the element centres back (±1 px of rounding).
    for (const [act, name] of [
      [env.acts[0], "open"],
      [env.acts[1], "save"],
    ] as const) {
      const b = env.box(name);
      expect(act?.kind).toBe("click");
      if (act?.kind !== "click") continue;
      expect(Math.abs(act.x - (b.x + b.width / 2))).toBeLessThanOrEqual(1);
      expect(Math.abs(act.y - (b.y + b.height / 2))).toBeLessThanOrEqual(1);
    }
    // One PNG per step at the model's size, for the contact sheet.
    expect(outcome.frames.map((f) => f.action)).toEqual([
      "start",
      expect.stringMatching(/^click/),
      expect.stringMatching(/^click/),
    ]);
    for (const f of outcome.frames) {
      expect(f.path && existsSync(f.path)).toBe(true);
      expect(pngSize(await import("node:fs").then((fs) => fs.readFileSync(f.path as string)))).toEqual(
        outcome.model,
      );
    }
    expect(outcome.frames[1]?.delta).toBeGreaterThan(0.005);
    // The trajectory keeps refs to the frames, never the base64.
    expect(trajectory.records.map((r) => r.type)).toEqual(["run_start", "turn", "turn", "turn", "run_end"]);
    expect(JSON.stringify(trajectory.records)).not.toMatch(/iVBORw0KGgo/);
    expect(turns[0]?.cua.frame).toBe("frames/step-001.png");
    expect(turns[0]?.cua.screen_action).toMatchObject({ kind: "click" });
    expect(outcome.usage.inputTokens + outcome.usage.cacheReadTokens).toBeGreaterThan(3 * 1560); // each request carried at least one 1,560-token image
  });

  it("sends one image per observation, the instruction first, and screen text wrapped as untrusted data", async () => {
    const { policy } = await run([OPEN, { done: "ok" }], { observe: "a11y", env: hd() });
    const [first, second] = policy.requests;
    expect(first?.messages[0]).toMatchObject({ role: "user", images: [{ width: 1456, height: 819 }] });
    expect(first?.messages[0]?.content).toMatch(/^Save the settings\.[\s\S]*1456×819 pixels/);
    expect(first?.messages[0]?.content).toMatch(
      /<screen_content[^>]*untrusted[^>]*>\n\[1\] button "Open settings" at \(/,
    );
    const observation = second?.messages.at(-1);
    expect(observation).toMatchObject({ role: "tool", images: [{ width: 1456, height: 819 }] });
    expect(observation?.content).toMatch(/\[4\] button "Delete account"/);
    expect(first?.tools.map((t) => t.name)).toContain("click_element");
  });

  it("blocks a click on Delete account by default and tells the model why", async () => {
    const { outcome, env, policy } = await run([
      OPEN,
      { click: { role: "button", name: "Delete account" } },
      SAVE,
      { done: "saved" },
    ]);
    expect(env.state).toMatchObject({ deleted: false, saved: true });
    expect(outcome.blocked.map((b) => ("element" in b ? b.element.name : b.summary))).toEqual([
      "Delete account",
    ]);
    expect(env.acts.filter((a) => a.kind === "click")).toHaveLength(2);
    const blocked = policy.requests[2]?.messages.at(-1) as Extract<Message, { role: "tool" }>;
    expect(blocked.isError).toBe(true);
    expect(blocked.content).toMatch(
      /^error: permission denied for click: that click would hit button "Delete account", which looks destructive \(matched "delete"\), and it was not approved; nothing was clicked\./,
    );
    expect(outcome.frames[2]?.note).toMatch(/blocked click on button "Delete account"/);
  });

  it("lets the confirm hook approve a destructive click", async () => {
    const asked: ConfirmRequest[] = [];
    const { env } = await run(
      [OPEN, { click: { role: "button", name: "Delete account" } }, { done: "deleted" }],
      {
        confirm: (r: ConfirmRequest) => {
          asked.push(r);
          return true;
        },
      },
    );
    expect(env.state.deleted).toBe(true);
    expect(asked[0]?.summary).toMatch(/Delete account/);
  });

  it("warns once at the second unchanged screen and halts at the fourth with stop reason stalled", async () => {
    const nowhere = (x: number): ScriptedCuaStep => ({ click: { x, y: 400 } }); // empty space, varied to dodge the repeat detector
    const { outcome, turns } = await run([
      OPEN,
      nowhere(10),
      nowhere(11),
      nowhere(12),
      nowhere(13),
      { done: "x" },
    ]);
    expect(outcome.stopReason).toBe("stalled");
    expect(outcome.steps).toBe(5);
    expect(turns.map((t) => t.cua.stalls)).toEqual([0, 1, 2, 3, 4]);
    expect(turns.map((t) => t.cua.warnings)).toEqual([[], [], [STALL_WARNING], [], []]);
    expect(turns[2]?.actions[0]?.observation).toContain(STALL_WARNING);
  });

  it("counts a state change the pixels miss (a field gaining focus) as progress, not a stall", async () => {
    const field: ScriptedCuaStep = { click: { role: "textbox", name: "Display name" } };
    const { turns } = await run([OPEN, field, { done: "x" }]);
    expect(turns[1]?.cua).toMatchObject({ delta: 0, stalls: 0 });
  });

  it("halts on the same press asked for again and again while it changes nothing", async () => {
    const tab: ScriptedCuaStep = { key: "Tab" };
    const { outcome, turns } = await run([OPEN, tab, tab, tab, { done: "x" }], {
      repeat: { warnAt: 2, haltAt: 3 },
    });
    expect(outcome.stopReason).toBe("repeated");
    expect(outcome.detail).toMatch(/key Tab asked for 3 times in a row/);
    expect(turns[2]?.cua.warnings.join()).toMatch(/same action 2 times/);
  });

  it("does not halt six presses of a date picker's Prev that each show another month", async () => {
    const env = new MonthPicker({ width: 800, height: 450 });
    const prev: ScriptedCuaStep = { click: { role: "button", name: "Prev" } };
    const { outcome, turns } = await run([prev, prev, prev, prev, prev, prev, { done: "January" }], {
      env,
      observe: "a11y",
    });
    expect({ stop: outcome.stopReason, month: env.month }).toEqual({ stop: "submitted", month: 1 });
    expect(turns.map((t) => t.cua.repeats)).toEqual([1, 1, 1, 1, 1, 1, 0]);
    expect(turns.flatMap((t) => t.cua.warnings)).toEqual([]);
  });

  it("answers an out-of-image click, a click_element it does not offer and a bad wait with errors, and acts on none", async () => {
    const { outcome, env, policy } = await run(
      [
        { call: { name: "click", input: { x: 1500, y: 10 } } }, // inside the 1920-wide screen, outside the 1456-wide image
        { call: { name: "click_element", input: { index: 1 } } },
        { call: { name: "wait", input: { seconds: 60 } } },
        { done: "gave up" },
      ],
      { env: hd() },
    );
    expect(outcome.stopReason).toBe("submitted");
    expect(env.acts).toEqual([]);
    const observations = policy.requests.slice(1).map((r) => r.messages.at(-1)?.content ?? "");
    expect(observations[0]).toMatch(/\(1500, 10\) is outside the screenshot, which is 1456×819/);
    // A screenshot observation numbers no elements, so click_element is not among the tools at all.
    expect(observations[1]).toMatch(/no tool named "click_element". Available tools: click, double_click/);
    expect(policy.requests[0]?.tools.map((t) => t.name)).not.toContain("click_element");
    expect(observations[2]).toMatch(/invalid arguments for wait/);
  });

  it("stops after 3 malformed calls in a row with format_errors, the limit coding runs have", async () => {
    const { outcome, env } = await run([
      { call: { name: "rm_rf", input: {} } },
      { call: { name: "wait", input: { seconds: 60 } } },
      { call: { name: "type", input: {} } },
      { done: "never reached" },
    ]);
    expect(outcome.stopReason).toBe("format_errors");
    expect(outcome.steps).toBe(3);
    expect(outcome.detail).toMatch(/3 malformed responses in a row \(last: invalid type call\)/);
    expect(env.acts).toEqual([]);
  });

  it("asks the history processor with the 0-based index of each request, as coding runs do", async () => {
    const steps: number[] = [];
    const history = {
      name: "spy",
      apply: (messages: readonly Message[], step: number) => {
        steps.push(step);
        return [...messages];
      },
    };
    await run([OPEN, SAVE, { done: "saved" }], { history });
    expect(steps).toEqual([0, 1, 2]);
  });

  it("clicks numbered elements on the a11y observation, re-checked against a fresh snapshot", async () => {
    const { outcome, env } = await run([OPEN, SAVE, { done: "saved" }], {
      observe: "a11y",
      scripted: { useElementNumbers: true },
    });
    expect(outcome.stopReason).toBe("submitted");
    expect(env.state.saved).toBe(true);
    const save = env.box("save");
    const centre = { x: Math.round(save.x + save.width / 2), y: Math.round(save.y + save.height / 2) };
    expect(env.acts[1]).toEqual({ kind: "click", ...centre });
  });

  it("stops on the dollar budget, the step cap and a script that lost its target", async () => {
    const budget = await run([OPEN, SAVE, { done: "x" }], {
      scripted: { priceAs: "claude-opus-4-7" },
      limits: { budgetUsd: 0.001 },
    });
    expect(budget.outcome).toMatchObject({ stopReason: "budget", steps: 1 });
    expect(budget.outcome.costUsd).toBeGreaterThan(0.001);
    const capped = await run([OPEN, SAVE, { done: "x" }], { limits: { maxSteps: 1 } });
    expect(capped.outcome.stopReason).toBe("step_limit");
    const lost = await run([{ click: { role: "button", name: "Nope" } }], { scripted: { findRetries: 1 } });
    expect(lost.outcome.stopReason).toBe("policy_error");
    expect(lost.outcome.detail).toMatch(
      /step 1: no button named Nope among the 1 elements on screen \(button "Open settings"\)/,
    );
  });

  it("ends with env_error when the environment breaks, and falls back to pixels without an a11y tree", async () => {
    const env = small();
    env.captureFailure = "Target page, context or browser has been closed";
    const broken = await run([OPEN], { env });
    expect(broken.outcome).toMatchObject({ stopReason: "env_error" });
    expect(broken.outcome.detail).toMatch(/browser environment failed: Target page/);
    expect(broken.trajectory.records.map((r) => r.type)).toEqual(["run_start", "run_end"]);
    // An action the environment fails to perform ends the run the same way, after that turn.
    class Dying extends MemorySettingsApp {
      override async act(): Promise<void> {
        throw new Error("Target page, context or browser has been closed");
      }
    }
    const dying = await run([OPEN, SAVE], { env: new Dying({ width: 800, height: 450 }) });
    expect(dying.outcome).toMatchObject({ stopReason: "env_error", steps: 1 });
    expect(dying.outcome.detail).toBe(
      "browser environment failed: Target page, context or browser has been closed",
    );
    const x11 = await run([{ click: { x: 100, y: 100 } }, { done: "ok" }], {
      env: new MemorySettingsApp({ width: 800, height: 450 }, { a11y: false }),
    });
    expect(x11.outcome.stopReason).toBe("submitted");
    expect(x11.outcome.detail).toMatch(/confirmation gate cannot read labels/);
  });

  it("refuses a click when one step's element capture failed, and keeps its labels after", async () => {
    // One step's a11y capture fails twice (the perceiver's attempts); the environment does have a tree.
    class Flaky extends MemorySettingsApp {
      failures = 2;
      override async capture(observe: ObserveKind) {
        if (observe === "a11y" && this.state.panelOpen && this.failures > 0) {
          this.failures--;
          throw new Error("Unable to capture screenshot");
        }
        return super.capture(observe);
      }
    }
    const env = new Flaky({ width: 800, height: 450 });
    const del = env.box("delete");
    const onDelete = { click: { x: del.x + del.width / 2, y: del.y + del.height / 2 } };
    const { outcome, policy } = await run([OPEN, onDelete, onDelete, SAVE, { done: "saved" }], { env });
    expect(env.state).toMatchObject({ deleted: false, saved: true });
    const unchecked = policy.requests[2]?.messages.at(-1) as Extract<Message, { role: "tool" }>;
    expect(unchecked.isError).toBe(true);
    expect(unchecked.content).toMatch(
      /^error: permission denied for click: the target of that click could not be checked .*Unable to capture screenshot.*nothing was clicked/,
    );
    // The next frame has its labels again: the gate names the button instead of failing open.
    const gated = policy.requests[3]?.messages.at(-1) as Extract<Message, { role: "tool" }>;
    expect(gated.content).toMatch(
      /^error: permission denied for click: that click would hit button "Delete account"/,
    );
    expect(outcome.detail).not.toMatch(/cannot read labels/);
    expect(env.captures.filter((c) => c === "screenshot")).toHaveLength(1);
  });

  it("keeps only the last screenshot with history last:1", async () => {
    const { policy } = await run([OPEN, SAVE, { done: "x" }], { history: "last:1" });
    const images = (r: PolicyRequest | undefined) =>
      r?.messages.reduce(
        (n, m) => n + (m.role === "tool" || m.role === "user" ? (m.images?.length ?? 0) : 0),
        0,
      );
    expect(policy.requests.map(images)).toEqual([1, 1, 1]);
    expect(policy.requests[2]?.messages[0]?.content).toMatch(/screenshot from an earlier step omitted/);
  });
});

/**
 * A date picker's month paging: "Prev" shows the month before, which only the element list sees
 * (this app's pixels stay the same), as a picker whose heading is text would.
 */
class MonthPicker extends MemorySettingsApp {
  month = 7;
  private readonly prev = { x: 20, y: 300, width: 80, height: 30 };

  override elements() {
    const own = super.elements();
    return [
      ...own,
      { index: own.length + 1, role: "button", name: "Prev", box: this.prev },
      {
        index: own.length + 2,
        role: "textbox",
        name: "Month",
        box: { x: 120, y: 300, width: 120, height: 30 },
        states: [`value="2025-${this.month}"`],
      },
    ];
  }

  override async act(action: Parameters<MemorySettingsApp["act"]>[0]) {
    const p = this.prev;
    if (
      action.kind === "click" &&
      action.x >= p.x &&
      action.x < p.x + p.width &&
      action.y >= p.y &&
      action.y < p.y + p.height
    )
      this.month -= 1;
    return super.act(action);
  }
}
