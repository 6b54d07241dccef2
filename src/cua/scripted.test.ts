import { describe, expect, it } from "vitest";
import type { PolicyRequest } from "../policies/index.js";
import type { PolicyFrame } from "./episode.js";
import { estimateCuaUsage, ScriptedCuaPolicy, type ScriptedCuaStep } from "./scripted.js";

const FRAME: PolicyFrame = {
  step: 0,
  observe: "screenshot",
  screen: { width: 1920, height: 1080 },
  model: { width: 1456, height: 819 },
  elements: [
    { index: 1, role: "textbox", name: "Display  name", box: { x: 100, y: 100, width: 200, height: 30 } },
    { index: 2, role: "button", name: "Submit", box: { x: 910, y: 521, width: 100, height: 40 } },
  ],
  numbered: 0,
};

const REQUEST: PolicyRequest = { system: "", tools: [], memory: "", messages: [], maxOutputTokens: 100 };

async function calls(steps: ScriptedCuaStep[], frame = FRAME, options = {}) {
  const policy = new ScriptedCuaPolicy("scripted:t", steps, options);
  policy.seeFrame(frame);
  const out: Array<{ name: string; input: unknown }> = [];
  for (;;) {
    const reply = await policy.next(REQUEST).catch((err: Error) => err);
    if (reply instanceof Error) return { out, error: reply };
    const call = reply.message.toolCalls[0];
    if (call) out.push({ name: call.name, input: call.input });
    if (call?.name === "done") return { out, error: undefined };
  }
}

describe("ScriptedCuaPolicy", () => {
  it("clicks a named element at its centre in MODEL coordinates (Submit at (728, 410) in the 1456×819 image)", async () => {
    const { out } = await calls([{ click: { role: "button", name: "Submit" } }, { done: "ok" }]);
    expect(out[0]).toEqual({ name: "click", input: { x: 728, y: 410 } });
  });

  it("clicks a field before typing into it, and matches names loosely or by RegExp", async () => {
    const { out } = await calls([
      { type: "Ada", into: { role: "textbox", name: "display name" } },
      { done: "ok" },
    ]);
    expect(out.map((c) => c.name)).toEqual(["click", "type", "done"]);
    expect(out[1]?.input).toEqual({ text: "Ada" });
    const regex = await calls([{ click: { role: "button", name: /^sub/i } }, { done: "ok" }]);
    expect(regex.out[0]?.name).toBe("click");
  });

  it("uses click_element on numbered observations when asked to", async () => {
    const { out } = await calls(
      [{ click: { role: "button", name: "Submit" } }, { done: "ok" }],
      { ...FRAME, observe: "a11y", numbered: 2 },
      { useElementNumbers: true },
    );
    expect(out[0]).toEqual({ name: "click_element", input: { index: 2 } });
  });

  it("waits for a target that has not appeared, then fails naming what it saw", async () => {
    const { out, error } = await calls([{ click: { role: "button", name: "Save" } }], FRAME, {
      findRetries: 2,
    });
    expect(out).toEqual([
      { name: "wait", input: { seconds: 0.5 } },
      { name: "wait", input: { seconds: 0.5 } },
    ]);
    expect(error?.message).toMatch(
      /step 1: no button named Save among the 2 elements on screen \(textbox "Display {2}name", button "Submit"\)/,
    );
  });

  it("says so when the script ends without done", async () => {
    const { error } = await calls([{ key: "Tab" }]);
    expect(error?.message).toMatch(/no more steps .* never called done/);
  });

  it("estimates image tokens from the picture's size, never from its base64", () => {
    const data = "A".repeat(400_000);
    const usage = estimateCuaUsage(
      {
        ...REQUEST,
        messages: [
          {
            role: "user",
            content: "",
            images: [{ type: "image", mediaType: "image/png", data, width: 1456, height: 819 }],
          },
        ],
      },
      [],
    );
    expect(usage.inputTokens).toBe(1560 + 1); // the image, plus "[]" for the empty tool list
    expect(usage.estimated).toBe(true);
  });
});
