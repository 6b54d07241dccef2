/*
 * Element lists that name what a person sees, on pages of our own, one per pattern that left 13 of
 * MiniWoB++'s 130 pages with an empty list (or a wrong one): a click handler without a pointer
 * cursor, an SVG shape, a label without `for`, date and time inputs, a spinner's aria-hidden arrow,
 * an open dropdown, icon buttons whose box centre is the neighbour's, a row scrolled out of its
 * panel. For each: what the list says, and a scripted episode (the page's task file, its script naming
 * elements by role and name, clicked by number) that the page grades 1. One Chromium for the whole
 * file, each page in a fresh context of it (SharedBrowser), as a folder run does.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import {
  createEnvironment,
  loadTaskFile,
  RENDERER_HEAP_MB,
  SharedBrowser,
  startApp,
  type UiElement,
} from "../../src/cua/index.js";
import { actorOf, cuaRun, runKind } from "../../src/run/index.js";
import { needing } from "../../src/testing/needs.js";
import { serveHtml } from "../../src/testing/page-server.js";
import { HANG_GUARD_MS } from "../../src/testing/time.js";

const SCREEN = { width: 800, height: 500 };
const chromium = needing("chromium", !existsSync("/usr/bin/chromium") && "no /usr/bin/chromium");
const root = mkdtempSync(join(tmpdir(), "acilab-cua-elements-"));
const browsers = new SharedBrowser();
afterAll(async () => {
  await browsers.close();
  rmSync(root, { recursive: true, force: true });
});

/** A page that sets the reward when the task is done (1), or wrong (-1). */
const page = (body: string, script: string) =>
  `<!doctype html><html><body style="margin:0;font:14px sans-serif">${body}
<script>window.REWARD = 0; const reward = (r) => { window.REWARD = r; window.DONE = true; };
${script}</script></body></html>`;

const PAGES: Record<string, { html: string; steps: string[] }> = {
  // d3 and jQuery bind clicks with addEventListener; no cursor says so.
  "click-handler": {
    html: page(
      `<div id="go" style="margin:20px;width:60px">Launch</div><div style="margin:20px">Not this</div>`,
      `document.getElementById("go").addEventListener("click", () => reward(1));`,
    ),
    steps: ["- click: { role: clickable, name: Launch }"],
  },
  "svg-shape": {
    html: page(
      `<svg width="200" height="100"><circle id="red" cx="30" cy="50" r="20" fill="red"/><circle id="blue" cx="90" cy="50" r="20" fill="blue"/></svg>`,
      `document.getElementById("red").addEventListener("click", () => reward(1));
document.getElementById("blue").addEventListener("click", () => reward(-1));`,
    ),
    steps: ['- click: { role: clickable, name: "red circle" }'],
  },
  "label-without-for": {
    html: page(
      `<div style="margin:20px"><label>Username</label> <input id="u"></div>
<div style="margin:20px"><span>Password:</span> <input id="p" type="password"></div>
<button style="margin:20px" onclick="reward(document.getElementById('u').value === 'ada' && document.getElementById('p').value === 'lovelace' ? 1 : -1)">Log in</button>`,
      "",
    ),
    steps: [
      "- type: ada",
      "  into: { role: textbox, name: Username }",
      "- type: lovelace",
      "  into: { role: textbox, name: Password }",
      '- click: { role: button, name: "Log in" }',
    ],
  },
  "date-time": {
    html: page(
      `<div style="margin:20px">Departure <input id="d" type="date" value="2025-07-01"></div>
<div style="margin:20px">At <input id="t" type="time" value="09:00"></div>
<button style="margin:20px" onclick="reward(document.getElementById('d').value === '2025-07-03' && document.getElementById('t').value === '09:00' ? 1 : -1)">Book</button>`,
      "",
    ),
    // A click on a date lands on its first field (month), where the whole date is typed.
    steps: [
      '- type: "07032025"',
      "  into: { role: date, name: Departure }",
      "- click: { role: button, name: Book }",
    ],
  },
  // jQuery UI's spinner: the arrows are empty aria-hidden <a>s showing a sprite, named only by their
  // classes; the mousedown delegated to the wrapper.
  "aria-hidden-arrow": {
    html: page(
      `<span id="spinner" style="display:inline-block;margin:20px"><input id="n" value="1" style="width:40px"><a class="ui-spinner-button ui-spinner-up" aria-hidden="true" tabindex="-1" style="display:inline-block"><span class="ui-icon" style="display:block;width:16px;height:10px;background:#ccc"></span></a><a class="ui-spinner-button ui-spinner-down" aria-hidden="true" tabindex="-1" style="display:inline-block"><span class="ui-icon" style="display:block;width:16px;height:10px;background:#ccc"></span></a></span>
<button style="margin:20px" onclick="reward(document.getElementById('n').value === '3' ? 1 : -1)">Save</button>`,
      `document.getElementById("spinner").addEventListener("mousedown", (e) => {
  const n = document.getElementById("n"); const a = e.target.closest("a"); if (!a) return;
  n.value = String(Number(n.value) + (a.classList.contains("ui-spinner-up") ? 1 : -1)); e.preventDefault();
});`,
    ),
    steps: [
      "- click: { role: button, name: up }",
      "- click: { role: button, name: up }",
      "- click: { role: button, name: Save }",
    ],
  },
  // A dropdown whose list has the pointer cursor and one delegated click for its options.
  "open-dropdown": {
    html: page(
      `<button id="open" style="margin:20px">Choose a fruit</button>
<ul id="menu" style="display:none;cursor:pointer;list-style:none;margin:0 20px;padding:0;border:1px solid #888;width:120px"><li>Apple</li><li>Banana</li><li>Cherry</li></ul>`,
      `document.getElementById("open").onclick = () => { document.getElementById("menu").style.display = "block"; };
document.getElementById("menu").addEventListener("click", (e) => reward(e.target.textContent === "Cherry" ? 1 : -1));`,
    ),
    steps: [
      '- click: { role: button, name: "Choose a fruit" }',
      "- click: { role: clickable, name: Cherry }",
    ],
  },
  // Icons with no text: "Archive"'s box is wider than its picture, and "Star" sits over its middle.
  "icon-button": {
    html: page(
      `<div style="position:relative;margin:20px;height:24px;width:200px">
<span id="archive" title="Archive" style="position:absolute;left:0;top:0;width:64px;height:24px;text-align:right">🗄</span>
<span id="star" title="Star" style="position:absolute;left:20px;top:0;width:24px;height:24px;background:#fc0;z-index:1"></span></div>`,
      `document.getElementById("archive").addEventListener("click", () => reward(1));
document.getElementById("star").addEventListener("click", () => reward(-1));`,
    ),
    steps: ["- click: { role: clickable, name: Archive }"],
  },
  "scrolled-out-row": {
    html: page(
      `<div id="panel" style="margin:20px;height:100px;width:200px;overflow-y:auto;border:1px solid #888">${Array.from(
        { length: 20 },
        (_, i) => `<div class="row" style="height:24px">Order ${i + 1}</div>`,
      ).join("")}</div>`,
      `for (const row of document.querySelectorAll(".row"))
  row.addEventListener("click", () => reward(row.textContent === "Order 17" ? 1 : -1));`,
    ),
    steps: ['- click: { role: clickable, name: "Order 17" }'],
  },
};

mkdirSync(join(root, "site"));
for (const [name, { html, steps }] of Object.entries(PAGES)) {
  writeFileSync(join(root, "site", `${name}.html`), html);
  writeFileSync(
    join(root, `${name}.yaml`),
    [
      `id: ${name}`,
      "instruction: Do what the page asks.",
      "app: { static: ./site }",
      `start: /${name}.html`,
      "grade: { js: window.REWARD, done_js: window.DONE === true }",
      "observe: [a11y]",
      "script:",
      ...steps.map((s) => `  ${s}`),
      "  - done: finished",
      "",
    ].join("\n"),
  );
}

/** The element list of a page's first frame, as the model reads it (`role "name" (states)`), and as data. */
async function listOf(name: string): Promise<{ lines: string[]; elements: UiElement[] }> {
  const task = loadTaskFile(join(root, `${name}.yaml`));
  const app = await startApp(task);
  const env = createEnvironment("browser", SCREEN, {}, browsers);
  try {
    await env.reset({ url: `${app.origin}/${name}.html`, allowHosts: [app.host] });
    const { elements = [] } = await env.capture("a11y");
    const lines = elements.map((e) => `${e.role} "${e.name}"${e.states ? ` (${e.states.join(", ")})` : ""}`);
    return { lines, elements };
  } finally {
    await env.close();
    await app.close();
  }
}

async function episode(name: string) {
  const task = loadTaskFile(join(root, `${name}.yaml`));
  const options = {
    observe: "a11y" as const,
    screen: SCREEN,
    limits: { wallClockMs: HANG_GUARD_MS },
    browsers,
  };
  return runKind(cuaRun(task, options), { actor: actorOf("scripted"), out: join(root, "runs", name) });
}

chromium.describe("element lists name what a person sees, and a scripted episode resolves by element", () => {
  const expected: Record<string, (list: string[], elements: UiElement[]) => void> = {
    "click-handler": (list) => expect(list).toContain('clickable "Launch"'),
    "svg-shape": (list) => expect(list).toEqual(['clickable "red circle"', 'clickable "blue circle"']),
    "label-without-for": (list) =>
      expect(list).toEqual(['textbox "Username"', 'textbox "Password"', 'button "Log in"']),
    "date-time": (list) =>
      expect(list).toEqual([
        'date "Departure" (value="2025-07-01")',
        'time "At" (value="09:00")',
        'button "Book"',
      ]),
    "aria-hidden-arrow": (list) =>
      expect(list).toEqual([
        'textbox "" (value="1")',
        'button "up" (aria-hidden)',
        'button "down" (aria-hidden)',
        'button "Save"',
      ]),
    "open-dropdown": (list) => expect(list).toEqual(['button "Choose a fruit"']),
    "icon-button": (list, [archive, star]) => {
      expect(list).toEqual(['clickable "Archive"', 'clickable "Star"']);
      // Its box's centre is the star's; its click point is the nearest point that is its own.
      const centre = archive!.box.x + archive!.box.width / 2;
      expect(centre).toBeGreaterThan(star!.box.x);
      expect(archive?.point?.x).toBeLessThan(star!.box.x);
    },
    "scrolled-out-row": (list) => {
      expect(list.slice(0, 4)).toEqual([
        'clickable "Order 1"',
        'clickable "Order 2"',
        'clickable "Order 3"',
        'clickable "Order 4"',
      ]);
      expect(list).toContain('clickable "Order 17" (offscreen)');
    },
  };

  for (const name of Object.keys(PAGES)) {
    it(name, async () => {
      const { lines, elements } = await listOf(name);
      expected[name]?.(lines, elements);
      const result = await episode(name);
      expect(
        { resolved: result.resolved, reward: result.grade.reward, stop: result.stop_reason },
        `${result.grade.detail} / ${result.detail}`,
      ).toEqual({ resolved: true, reward: 1, stop: "submitted" });
      // Every click went by number: the script named elements, never a point.
      const clicks = result.frames.map((f) => f.action).filter((a) => /^click/.test(a));
      expect(clicks.length).toBeGreaterThan(0);
      expect(clicks.every((a) => a.startsWith("click_element"))).toBe(true);
      if (name === "open-dropdown") {
        // Once open, the list the model read named each option on its own, not one run-together row.
        const trajectory = readFileSync(join(root, "runs", name, "trajectory.jsonl"), "utf8");
        for (const fruit of ["Apple", "Banana", "Cherry"])
          expect(trajectory).toMatch(new RegExp(`\\[\\d+\\] clickable \\\\"${fruit}\\\\" at`));
      }
    });
  }
});

chromium.describe("one browser for a folder's episodes", () => {
  it("gives each episode a fresh context, and starts the browser again after a page that misbehaved", async () => {
    const site = await serveHtml("<!doctype html><p>a page that remembers</p>");
    const visit = async (script: string) => {
      const env = createEnvironment("browser", SCREEN, {}, browsers);
      try {
        await env.reset({ url: site.url });
        return { seen: await env.evaluate<unknown>(script), launched: env.lastStartup?.launched };
      } finally {
        await env.close();
      }
    };
    try {
      await visit("localStorage.setItem('k', 'left'); document.cookie = 'c=left; max-age=3600'; 1");
      const launches = browsers.launches;
      // The same browser, a context of its own: nothing the last episode's page stored is there.
      const next = await visit("[localStorage.getItem('k'), document.cookie]");
      expect(next).toEqual({ seen: [null, ""], launched: false });
      expect(browsers.launches).toBe(launches);
      // An episode whose page misbehaved gives the browser up; the next starts a new one.
      const episode = await browsers.open({ heapMb: RENDERER_HEAP_MB, context: {}, allowHosts: [] });
      await episode.close({ discard: true });
      expect((await visit("1")).launched).toBe(true);
      expect(browsers.launches).toBe(launches + 1);
    } finally {
      await site.close();
    }
  });

  it("waits, before an episode's first look, for the pictures its setup asked for", async () => {
    // A 1×1 PNG, answered late: a CSS content:url() icon does not hold the page's load event.
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      "base64",
    );
    const site = await serveHtml((req, res) => {
      if (req.url?.endsWith(".png"))
        return void setTimeout(() => res.writeHead(200, { "content-type": "image/png" }).end(png), 300);
      res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><body><div id="row"></div>
<script>window.setup = () => { const s = document.createElement("span");
s.style.cssText = "content: url(/icons/delete.png); height: 12px; cursor: pointer";
s.onclick = () => {}; document.getElementById("row").appendChild(s); };</script></body>`);
    });
    const env = createEnvironment("browser", SCREEN, {}, browsers);
    try {
      await env.reset({ url: site.url });
      await env.evaluate("setup()"); // what a task file's setup_js does before the first look
      const { elements = [] } = await env.capture("a11y");
      expect(elements.map((e) => `${e.role} "${e.name}"`)).toEqual(['clickable "delete"']);
    } finally {
      await env.close();
      await site.close();
    }
  });

  it("judges each episode's requests by its own rules only: the last episode's hold is let go", async () => {
    const saved: string[] = [];
    const site = await serveHtml((req, res) => {
      if (req.method === "POST") saved.push(req.url ?? "");
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><p>notes</p>");
    });
    const post = async (allowRequests: string[]) => {
      const env = createEnvironment("browser", SCREEN, {}, browsers);
      try {
        await env.reset({ url: site.url, allowRequests });
        return await env.evaluate<string>(
          "fetch('/save', { method: 'POST', body: 'x' }).then(() => 'sent', () => 'refused')",
        );
      } finally {
        await env.close();
      }
    };
    try {
      // No rule: the gate refuses the post, and the server sees nothing.
      expect(await post([])).toBe("refused");
      expect(saved).toEqual([]);
      // The next episode, in the same browser, allows it: the refusing hold of the last one is gone.
      expect(await post(["POST /save"])).toBe("sent");
      expect(saved).toEqual(["/save"]);
    } finally {
      await site.close();
    }
  });
});
