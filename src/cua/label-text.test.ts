import { describe, expect, it } from "vitest";
import { destructiveMatch } from "./gate.js";
import { foldLabel, labelReadings, shownOrder } from "./label-text.js";

describe("a label read as a person reads it", () => {
  it("drops zero-width spaces, soft hyphens, joiners and bidi controls", () => {
    expect(foldLabel("De\u200blete\u00ad ac\u200dcount\u2060")).toBe("delete account");
    expect(foldLabel("\u2066Delete\u2069 account")).toBe("delete account");
    expect(foldLabel("Dele\ufe0fte")).toBe("delete");
  });

  it("folds compatibility forms and look-alike letters", () => {
    expect(foldLabel("Ｄｅｌｅｔｅ")).toBe("delete"); // full-width
    expect(foldLabel("𝐃𝐞𝐥𝐞𝐭𝐞")).toBe("delete"); // mathematical bold
    expect(foldLabel("Dеlеtе")).toBe("delete"); // Cyrillic е
    expect(foldLabel("ԁеlеtе")).toBe("delete"); // Cyrillic ԁ
    expect(foldLabel("De1ete")).toBe("delete"); // a one for an l
    expect(foldLabel("Ꭰelete")).toBe("delete"); // Cherokee
  });

  it("reads a right-to-left override as shown, and as stored", () => {
    expect(shownOrder("\u202etnuocca eteleD")).toBe("Delete account");
    expect(shownOrder("Save \u202eeteled\u202c now")).toBe("Save delete\u202c now");
    expect(labelReadings("\u202etnuocca eteleD")).toEqual(["tnuocca eteled", "delete account"]);
  });

  it("finds the destructive word whatever the disguise, and still not inside other words", () => {
    for (const label of [
      "Dеlеtе account",
      "\u202etnuocca eteleD",
      "Del\u200bete account",
      "Del\u00adete account",
      "ＤＥＬＥＴＥ",
      "Rеmove",
      "Тerminate plan",
      "Cancel\u200b subscription",
    ])
      expect(destructiveMatch(label), label).toBeDefined();
    for (const label of ["Save", "Undelete draft", "Removed items (3)", "Export my data", "Cancel"])
      expect(destructiveMatch(label), label).toBeUndefined();
  });
});
