import { describe, expect, it } from "vitest";
import type { ToolTarget } from "../tools/index.js";
import {
  type ConfirmRequest,
  confirmationGate,
  DESTRUCTIVE_VOCABULARY,
  denyAll,
  destructiveMatch,
  targetAt,
} from "./gate.js";
import type { UiElement } from "./types.js";

const el = (
  index: number,
  role: string,
  name: string,
  x: number,
  y: number,
  width = 120,
  height = 32,
): UiElement => ({
  index,
  role,
  name,
  box: { x, y, width, height },
});

// The delete-account task's layout: the wanted button right next to the dangerous one.
const ELEMENTS = [
  el(1, "button", "Export data", 100, 200),
  el(2, "button", "Delete account", 240, 200),
  el(3, "link", "Help", 900, 20, 40, 20),
];

describe("destructiveMatch", () => {
  it("matches the destructive vocabulary (delete, remove, revoke …) as whole words, case-insensitively", () => {
    expect(destructiveMatch("Delete account")).toBe("delete");
    expect(destructiveMatch("REVOKE key")).toBe("revoke");
    expect(destructiveMatch("Cancel   subscription")).toBe("cancel subscription");
    expect(destructiveMatch("Transfer funds")).toBe("transfer");
  });

  it("leaves harmless labels alone: a dialog's Cancel, words that merely contain a verb", () => {
    expect(destructiveMatch("Cancel")).toBeUndefined();
    expect(destructiveMatch("Save")).toBeUndefined();
    expect(destructiveMatch("Undeleted items")).toBeUndefined();
    expect(destructiveMatch("Removed from view")).toBeUndefined();
    expect(destructiveMatch("Place order")).toBeUndefined();
  });
});

describe("targetAt", () => {
  it("takes the element under the point, then the nearest one within reach", () => {
    expect(targetAt({ x: 300, y: 216 }, ELEMENTS)?.name).toBe("Delete account");
    expect(targetAt({ x: 300, y: 240 }, ELEMENTS)?.name).toBe("Delete account"); // 8 px below it
    expect(targetAt({ x: 600, y: 600 }, ELEMENTS)).toBeUndefined();
  });

  it("prefers the smaller box when one contains the other (a button inside a card)", () => {
    const nested = [el(1, "link", "Account card", 0, 0, 500, 500), el(2, "button", "Delete", 10, 10, 50, 20)];
    expect(targetAt({ x: 20, y: 15 }, nested)?.name).toBe("Delete");
  });
});

const target = (element: UiElement, point = { x: 300, y: 216 }): ToolTarget => ({
  kind: "element",
  role: element.role,
  name: element.name,
  states: element.states ?? [],
  point,
});
const [EXPORT, DELETE] = ELEMENTS as [UiElement, UiElement];

describe("confirmationGate", () => {
  it("denies a destructive click by default, says what would have been hit, and records it", async () => {
    const gate = confirmationGate();
    const decision = await gate("click", {}, target(DELETE));
    expect(decision).toEqual({
      allow: false,
      reason: expect.stringMatching(
        /^that click would hit button "Delete account".*matched "delete".*nothing was clicked/,
      ),
    });
    expect(gate.blocked).toEqual([
      {
        tool: "click",
        element: { role: "button", name: "Delete account", states: [] },
        matched: "delete",
        point: { x: 300, y: 216 },
        summary: 'click on button "Delete account" (matched "delete")',
      },
    ]);
  });

  it("lets calls without a target and harmless clicks through without asking, and asks for a destructive one", async () => {
    const asked: ConfirmRequest[] = [];
    const gate = confirmationGate((r) => {
      asked.push(r);
      return true;
    });
    expect(await gate("type", { text: "hi" })).toEqual({ allow: true });
    expect(await gate("click", {}, target(EXPORT, { x: 150, y: 216 }))).toEqual({ allow: true });
    expect(asked).toHaveLength(0);
    expect(await gate("click", {}, target(DELETE))).toEqual({ allow: true });
    expect(asked[0]?.summary).toBe('click on button "Delete account" (matched "delete")');
    expect(gate.blocked).toEqual([]); // approved clicks are not refusals
  });

  it("refuses a click whose target could not be read, and uses a custom vocabulary", async () => {
    const unreadable = await confirmationGate()(
      "click",
      {},
      {
        kind: "unreadable",
        reason: "its element capture failed: boom",
        point: { x: 1, y: 1 },
      },
    );
    expect(unreadable).toMatchObject({
      allow: false,
      reason: expect.stringMatching(/could not be checked.*boom/),
    });
    const custom = confirmationGate(denyAll, ["export"]);
    expect(await custom("click", {}, target(EXPORT))).toMatchObject({ allow: false });
    expect(await custom("click", {}, target(DELETE))).toEqual({ allow: true });
  });
});

describe("confirmationGate on every kind of action", () => {
  const press = (name: string, via: string, label = name): ToolTarget => ({
    kind: "element",
    role: "button",
    name,
    states: [],
    point: { x: 5, y: 5 },
    label,
    via,
  });

  it("judges each end of a drag and names which one was destructive", async () => {
    const gate = confirmationGate();
    const drag: ToolTarget = {
      kind: "several",
      targets: [press("Export data", "press"), press("Delete account", "release")],
    };
    expect(await gate("drag", {}, drag)).toEqual({
      allow: false,
      reason:
        'that drag would activate button "Delete account" (release), which looks destructive (matched "delete"), and it was not approved; nothing was done',
    });
    expect(gate.blocked.map((b) => b.summary)).toEqual([
      'drag on button "Delete account" (release; matched "delete")',
    ]);
    // A person is asked once per control, however many ways the action reaches it.
    const asked: ConfirmRequest[] = [];
    const approving = confirmationGate((r) => asked.push(r) > 0);
    const both: ToolTarget = {
      kind: "several",
      targets: [press("Delete account", "press"), press("Delete account", "release")],
    };
    expect(await approving("drag", {}, both)).toEqual({ allow: true });
    expect(asked.map((r) => r.via)).toEqual(["press"]);
  });

  it("reads every label, not only the name: a harmless name whose form deletes is destructive", async () => {
    const gate = confirmationGate();
    const exportInDeleteForm = press(
      "Export my data",
      "focused",
      "Export my data submits the form action settings account delete",
    );
    const keyInput = { asked: { kind: "key", keys: "Enter" } };
    expect(await gate("key", keyInput, exportInDeleteForm)).toMatchObject({
      allow: false,
      reason: expect.stringMatching(/^that key press would activate button "Export my data" \(focused\)/),
    });
    expect(gate.blocked[0]?.summary).toBe('key Enter on button "Export my data" (focused; matched "delete")');
  });

  it("refuses any unreadable part of an action first, lists it in blocked, and never asks about it", async () => {
    const asked: ConfirmRequest[] = [];
    const gate = confirmationGate((r) => {
      asked.push(r);
      return true;
    });
    const overCanvas: ToolTarget = {
      kind: "several",
      targets: [
        press("Delete account", ""),
        { kind: "unreadable", reason: "the point is on a canvas, whose pixels name no controls" },
      ],
    };
    const typed = { asked: { kind: "type", text: "x\n" } };
    expect(await gate("type", typed, overCanvas)).toMatchObject({
      allow: false,
      reason: expect.stringMatching(
        /^the target of that typing could not be checked .*canvas.*nothing was done/,
      ),
    });
    expect(asked).toEqual([]);
    // Whoever knows the page may vouch for what cannot be read; the destructive part is still judged.
    const vouched = confirmationGate(denyAll, DESTRUCTIVE_VOCABULARY, () => true);
    expect(await vouched("type", typed, overCanvas)).toMatchObject({
      allow: false,
      reason: expect.stringMatching(/^that typing would activate button "Delete account"/),
    });
    expect(gate.blocked).toEqual([
      {
        tool: "type",
        unreadable: "the point is on a canvas, whose pixels name no controls",
        summary:
          'type "x\\n": what it would activate could not be read (the point is on a canvas, whose pixels name no controls)',
      },
    ]);
  });
});
