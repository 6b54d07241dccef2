import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/testing.js";
import { loadTaskFile, loadTaskFiles, type TaskFile } from "../../src/cua/index.js";
import { actorOf, cuaRun, runKind } from "../../src/run/index.js";
import { browserPool } from "../../src/testing/browsers.js";
import { HANG_GUARD_MS } from "../../src/testing/time.js";

/*
 * The task files acilab ships (tasks/cua/), end to end: each folder served fresh on loopback, Debian's
 * Chromium, the real loop and gate, the file's reference script, the grade read in the page. Two
 * episodes run at once on a two-core machine, each in a fresh context of one of two kept Chromiums
 * (src/testing/browsers.ts), as `acilab cua --task FOLDER` runs them.
 */
const SCREEN = { width: 1024, height: 700 };
const root = mkdtempSync(join(tmpdir(), "acilab-cua-taskfiles-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const pool = browserPool(2);
afterAll(() => pool.close());

async function run(task: TaskFile) {
  const dir = join(root, task.id);
  const result = await pool.run((browsers) =>
    runKind(
      cuaRun(task, { observe: "a11y", screen: SCREEN, limits: { wallClockMs: HANG_GUARD_MS }, browsers }),
      {
        actor: actorOf("scripted"),
        out: dir,
      },
    ),
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

  it("runs against a url app the user runs themselves, whose state is theirs between episodes", async () => {
    // The user's app: a counter that lives as long as its server, not per episode.
    let presses = 0;
    const app = createServer((req, res) => {
      if (req.method === "POST" && req.url === "/press") {
        presses++;
        return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(presses));
      }
      res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><body>
<button onclick="fetch('/press', { method: 'POST' }).then((r) => r.json()).then((n) => { window.REWARD = n; window.DONE = true; })">Press</button></body>`);
    });
    await new Promise<void>((r) => app.listen(0, "127.0.0.1", () => r()));
    try {
      const dir = join(root, "url-app");
      mkdirSync(dir, { recursive: true });
      const port = (app.address() as AddressInfo).port;
      writeFileSync(
        join(dir, "task.yaml"),
        `id: url-app\ninstruction: Press the button.\napp:\n  url: http://127.0.0.1:${port}/\n` +
          "grade: { js: window.REWARD ?? 0, done_js: window.DONE === true }\n" +
          // The press changes the user's app: the task allows that one request, nothing else.
          'allow_requests: ["POST /press"]\n' +
          "script:\n  - click: { role: button, name: Press }\n  - done: pressed\n",
      );
      const task = loadTaskFile(join(dir, "task.yaml"));
      const first = await run(task);
      const second = await run(task);
      // Nobody reset the user's app: the second episode's press was its second.
      expect([first.grade.reward, second.grade.reward]).toEqual([1, 2]);
      expect([first.resolved, second.resolved]).toEqual([true, true]);
      expect(second.egress_refused.filter((r) => r.includes(String(port)))).toEqual([]);
      expect(presses).toBe(2);
    } finally {
      await new Promise((r) => app.close(r));
    }
  });

  it("runs a page in MiniWoB's protocol unchanged: var globals, a START cover, the episode begun by setup_js", async () => {
    // Written here in the shape of MiniWoB++'s core.js (its pages are not shipped): the reward and
    // done flag are top-level vars, the instruction is #query's text, and the episode starts behind a
    // cover until core.startEpisodeReal() is called — what MiniWoB's own Python environment calls.
    const dir = join(root, "wob");
    mkdirSync(join(dir, "html"), { recursive: true });
    writeFileSync(
      join(dir, "html", "core.js"),
      `var WOB_REWARD_GLOBAL = 0; var WOB_RAW_REWARD_GLOBAL = 0; var WOB_DONE_GLOBAL = false;
var core = {};
core.startEpisode = function () { document.getElementById("cover").style.display = "block"; };
core.startEpisodeReal = function () {
  document.getElementById("cover").style.display = "none"; genProblem(); WOB_DONE_GLOBAL = false; WOB_RAW_REWARD_GLOBAL = 0;
};
core.endEpisode = function (r) { WOB_RAW_REWARD_GLOBAL = r; WOB_REWARD_GLOBAL = r; WOB_DONE_GLOBAL = true; core.startEpisode(); };
core.getUtterance = function () { return document.getElementById("query").textContent.trim(); };
window.addEventListener("load", function () { core.startEpisode(); });`,
    );
    writeFileSync(
      join(dir, "html", "click-word.html"),
      `<!doctype html><html><head><script src="core.js"></script>
<style>.alink{cursor:pointer;text-decoration:underline;color:blue}#cover{position:fixed;inset:0;background:#fd0;display:none}</style>
<script>
var genProblem = function () {
  var words = ["Rutrum", "Egestas", "Tortor"];
  document.getElementById("query").textContent = 'Click on the link "' + words[1] + '".';
  var area = document.getElementById("area"); area.innerHTML = "";
  words.forEach(function (w) {
    var s = document.createElement("span"); s.className = "alink"; s.textContent = w;
    s.addEventListener("click", function () { core.endEpisode(w === words[1] ? 1 : -1); });
    area.appendChild(s); area.appendChild(document.createTextNode(" lorem "));
  });
};
</script></head><body><div id="query"></div><div id="area"></div><div id="cover">START</div></body></html>`,
    );
    writeFileSync(
      join(dir, "click-word.yaml"),
      [
        "id: wob-click-word",
        "instruction_js: core.getUtterance()",
        "app: { static: ./html }",
        "start: /click-word.html",
        "setup_js: core.startEpisodeReal();",
        "grade: { js: WOB_RAW_REWARD_GLOBAL, done_js: WOB_DONE_GLOBAL }",
        "script:",
        "  - click: { role: clickable, name: Egestas }",
        "  - done: clicked",
        "",
      ].join("\n"),
    );
    const result = await run(loadTaskFile(join(dir, "click-word.yaml")));
    expect({ resolved: result.resolved, reward: result.grade.reward, stop: result.stop_reason }).toEqual({
      resolved: true,
      reward: 1,
      stop: "submitted",
    });
    const trajectory = readFileSync(join(result.dir, "trajectory.jsonl"), "utf8");
    expect(trajectory).toContain('Click on the link \\"Egestas\\".');
    expect(trajectory).toContain('clickable \\"Egestas\\"');
  });

  it("runs a folder with broken task files: the others run, each broken one is a row with why, exit 1", async () => {
    const dir = join(root, "folder-run");
    mkdirSync(join(dir, "site"), { recursive: true });
    writeFileSync(
      join(dir, "site", "index.html"),
      `<button onclick="window.REWARD = 1; window.DONE = true">Go</button><p id="q">Press Go.</p>`,
    );
    const file = (name: string, lines: string[]) => writeFileSync(join(dir, name), `${lines.join("\n")}\n`);
    const common = [
      "app: { static: ./site }",
      "grade: { js: window.REWARD ?? 0, done_js: window.DONE === true }",
    ];
    file("good.yaml", [
      "id: good",
      "instruction_js: document.getElementById('q').textContent",
      ...common,
      "script:",
      "  - click: { role: button, name: Go }",
      "  - done: pressed",
    ]);
    // MiniWoB's -nl pages in train mode: the instruction is an object, not text.
    file("object-instruction.yaml", [
      "id: object-instruction",
      "instruction_js: \"({ utterance: 'Press Go.' })\"",
      ...common,
      "script:",
      "  - done: x",
    ]);
    file("no-script.yaml", ["id: no-script", "instruction: Press Go.", ...common]);
    file("not-yaml.yaml", ["id: [unclosed", "instruction: x"]);
    const out = join(root, "folder-run-out");
    const r = await runCli(["cua", "--task", dir, "--observe", "a11y", "--out", out]);
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.out).toMatch(/^good +a11y +yes +1 +submitted /m);
    expect(r.out).toMatch(/^object-instruction +a11y +NO +- +task_error /m);
    expect(r.out).toMatch(/^no-script +a11y +NO +- +task_error /m);
    expect(r.out).toMatch(/not-yaml\.yaml +- +NO +- +task_error /m);
    expect(r.out).toContain("1/4 resolved; 1 of 4 started and were graded, 3 task_error");
    expect(r.out).toContain("did not run:\n");
    expect(r.out).toMatch(
      /^ {2}object-instruction \(task_error\): .*instruction_js: gave \{"utterance":"Press Go\."\}, not the instruction's text/m,
    );
    expect(r.out).toMatch(
      / {2}no-script \(task_error\): .*script: is empty, so there is no reference script to play/,
    );
    expect(r.out).toMatch(/ {2}.*not-yaml\.yaml \(task_error\): .*not valid YAML/);
    // The episode that could not start still has its result.json, saying why.
    const written = JSON.parse(readFileSync(join(out, "object-instruction", "a11y", "result.json"), "utf8"));
    expect(written).toMatchObject({ stop_reason: "task_error", resolved: false, steps: 0 });
    expect(written.detail).toMatch(/instruction_js: gave/);
  });
});
