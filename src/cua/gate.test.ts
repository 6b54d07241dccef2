import { describe, expect, it } from "vitest";
import { type ConfirmRequest, denyAll, destructiveMatch, gateClick, targetAt } from "./gate.js";
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
  it("matches the seed's vocabulary as whole words, case-insensitively", () => {
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

describe("gateClick", () => {
  it("denies a destructive click by default and says so in the observation", async () => {
    const decision = await gateClick({ x: 300, y: 216 }, ELEMENTS, denyAll);
    expect(decision.allow).toBe(false);
    if (!decision.allow) {
      expect(decision.observation).toMatch(
        /blocked: .*button "Delete account".*matched "delete".*Nothing was clicked/,
      );
    }
  });

  it("lets a harmless click through without asking, and a destructive one when a person approves", async () => {
    const asked: ConfirmRequest[] = [];
    const approve = (r: ConfirmRequest) => {
      asked.push(r);
      return true;
    };
    expect(await gateClick({ x: 150, y: 216 }, ELEMENTS, approve)).toEqual({ allow: true });
    expect(asked).toHaveLength(0);
    const decision = await gateClick({ x: 300, y: 216 }, ELEMENTS, approve);
    expect(decision.allow).toBe(true);
    expect(asked[0]?.summary).toBe('click on button "Delete account" (matched "delete")');
  });

  it("uses a custom vocabulary", async () => {
    const decision = await gateClick({ x: 150, y: 216 }, ELEMENTS, denyAll, ["export"]);
    expect(decision.allow).toBe(false);
  });
});
