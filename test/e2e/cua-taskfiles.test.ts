import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pLimit from "p-limit";
import { afterAll, describe, expect, it } from "vitest";
import { loadTaskFile, loadTaskFiles, type TaskFile } from "../../src/cua/index.js";
import { cuaRun, runAnyTask } from "../../src/run/index.js";
import { HANG_GUARD_MS } from "../../src/testing/time.js";

/*
 * The task files acilab ships (tasks/cua/), end to end: each folder served fresh on loopback, Debian's
 * Chromium, the real loop and gate, the file's reference script, the grade read in the page. The
 * browser environment starts a fresh Chromium per episode (a fresh profile is its reset), so no
 * browser is shared; two episodes run at once on a two-core machine.
 */
const SCREEN = { width: 1024, height: 700 };
const root = mkdtempSync(join(tmpdir(), "acilab-cua-taskfiles-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const PARALLEL = 2;
const slot = pLimit(PARALLEL);

async function run(task: TaskFile) {
  const dir = join(root, task.id);
  const result = await slot(() =>
    runAnyTask(cuaRun(task, { observe: "a11y", screen: SCREEN, limits: { wallClockMs: HANG_GUARD_MS } }), {
      policySpec: "scripted",
      out: dir,
    }),
  );
  return { ...result, dir };
}

const SHIPPED = loadTaskFiles(new URL("../../tasks/cua/", import.meta.url).pathname);
const WIDGETS = [
  "autocomplete",
  "canvas-game",
  "date-picker",
  "drag-reorder",
  "form-validation",
  "iframe-form",
  "keyboard-nav",
  "modal-dialog",
  "multi-select",
  "scroll-container",
  "table-sort",
  "tabs",
];

describe.concurrent("the shipped task files with their reference scripts", () => {
  it("cover the twelve widgets", () => {
    expect(SHIPPED.map((t) => t.id)).toEqual(WIDGETS);
  });

  for (const task of SHIPPED) {
    it(`${task.id} resolves, reward 1, the page saying it is done`, async () => {
      const result = await run(task);
      expect(
        { resolved: result.resolved, reward: result.grade.reward, stop: result.stop_reason },
        `${result.grade.detail} / ${result.detail}`,
      ).toEqual({ resolved: true, reward: 1, stop: "submitted" });
      expect(result.detail).toContain("grade.done_js");
      expect(result.blocked).toEqual([]);
      expect(result.egress_refused.filter((r) => r.includes("127.0.0.1"))).toEqual([]);
      const written = JSON.parse(readFileSync(join(result.dir, "result.json"), "utf8"));
      expect(written.grade.reward).toBe(1);
      if (task.id === "date-picker") {
        // instruction_js: the model was told what the page's #query says.
        const trajectory = readFileSync(join(result.dir, "trajectory.jsonl"), "utf8");
        expect(trajectory).toContain("Book the flight for July 3, 2025");
      }
    });
  }

  it("records a grade expression that throws as an unresolved verdict naming the file and field", async () => {
    const dir = join(root, "broken");
    mkdirSync(join(dir, "site"), { recursive: true });
    writeFileSync(join(dir, "site", "index.html"), "<button>Go</button>");
    writeFileSync(
      join(dir, "task.yaml"),
      "id: broken-grade\ninstruction: Press Go.\napp: { static: ./site }\ngrade: { js: window.score.value }\n" +
        "script:\n  - click: { role: button, name: Go }\n  - done: pressed\n",
    );
    const result = await run(loadTaskFile(join(dir, "task.yaml")));
    expect(result.resolved).toBe(false);
    expect(result.stop_reason).toBe("submitted");
    expect(result.grade.detail).toMatch(/task\.yaml: grade\.js: threw .* at the end — fix the expression/);
  });
});
