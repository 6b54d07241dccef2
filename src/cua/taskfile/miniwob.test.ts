import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadTaskFiles } from "./load.js";
import { findMiniwobCheckout, givesUtteranceObject, writeMiniwobTasks } from "./miniwob.js";

/** A checkout's shape, small: core/core.js and two pages, one overriding getUtterance as the -nl pages do. */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-miniwob-"));
  const html = join(dir, "checkout", "miniwob", "html");
  mkdirSync(join(html, "core"), { recursive: true });
  mkdirSync(join(html, "miniwob"));
  writeFileSync(join(html, "core", "core.js"), "var core = {};");
  writeFileSync(
    join(html, "miniwob", "click-button.html"),
    "<script>var genProblem = function () {};</script>",
  );
  writeFileSync(
    join(html, "miniwob", "email-inbox-nl-turk.html"),
    `<script>core.getUtterance = (function (orig) {
  return function () { return { 'utterance': orig(), 'fields': core.currentFields }; };
})(core.getUtterance);</script>`,
  );
  writeFileSync(join(html, "miniwob", "notes.txt"), "not a page");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("acilab tasks miniwob's files", () => {
  it("finds the pages from the repository's root or from its miniwob/html folder", () => {
    const fromRoot = findMiniwobCheckout(join(dir, "checkout"));
    expect(fromRoot.pages).toEqual(["click-button", "email-inbox-nl-turk"]);
    expect(findMiniwobCheckout(join(dir, "checkout", "miniwob", "html")).html).toBe(fromRoot.html);
  });

  it("refuses a folder that is not a checkout, saying what it looked for", () => {
    expect(() => findMiniwobCheckout(dir)).toThrow(
      /not a MiniWoB\+\+ checkout — looked for miniwob\/html\/core\/core.js/,
    );
    expect(() => findMiniwobCheckout(join(dir, "nowhere"))).toThrow(/no such folder/);
  });

  it("writes one loadable task file per page, the seed recorded, {utterance} pages reading .utterance", () => {
    const out = join(dir, "tasks");
    const written = writeMiniwobTasks(join(dir, "checkout"), { out, seed: "it's 7", commit: "3f461ff" });
    expect(written.files.map((f) => f.slice(out.length + 1))).toEqual([
      "click-button.yaml",
      "email-inbox-nl-turk.yaml",
    ]);
    const tasks = loadTaskFiles(out);
    const [button, nl] = tasks;
    expect(button).toMatchObject({
      id: "miniwob-click-button",
      instruction: { js: "core.getUtterance()" },
      app: { kind: "static", dir: `${out}/../checkout/miniwob/html` },
      start: "/miniwob/click-button.html",
      grade: { js: "WOB_RAW_REWARD_GLOBAL", doneJs: "WOB_DONE_GLOBAL" },
    });
    // The seed reaches the page as a JavaScript string, quotes and all.
    expect(button?.setupJs).toContain(`Math.seedrandom("it's 7");`);
    expect(button?.setupJs).toMatch(/core\.setDataMode\("train"\);.*core\.startEpisodeReal\(\);$/);
    expect(nl?.instruction).toEqual({ js: "core.getUtterance().utterance" });
    expect(readFileSync(written.files[0] as string, "utf8")).toContain("at 3f461ff");
  });

  it("tells the {utterance, fields} override from a plain getUtterance override", () => {
    expect(givesUtteranceObject("core.getUtterance = function () { return 'Click on the ' + color; }")).toBe(
      false,
    );
    expect(givesUtteranceObject("<p>no override</p>")).toBe(false);
  });
});
