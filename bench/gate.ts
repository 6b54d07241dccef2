/**
 * What the gate adds to each action, paired with no gate: the same page, the same actions, two
 * browsers — one with the confirmation gate's live reading before each action and the consequence
 * gate holding the page's requests, one with neither. A pointer action is a click on a Save button
 * whose script posts to the page's server (a request the task's rule allows, so it is held, judged
 * and let through); a key action is Enter on the focused field of a form that posts the same way.
 * The added latency per action is the paired difference of the medians' samples, action by action.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Size } from "../src/cua/index.js";
import { BrowserEnvironment } from "../src/cua/testing/internals.js";
import { summarise } from "./stats.js";

/** The bound on what the gate may add to an action (median). */
export const GATE_ADDED_TARGET_MS = 50;

const PAGE = `<!doctype html><body style="font:16px sans-serif;margin:0">
<button id="save" style="position:absolute;left:100px;top:100px;width:200px;height:40px"
  onclick="fetch('/save', { method: 'POST', body: 'x' }).then(() => { document.title = String(Number(document.title || 0) + 1); })">Save</button>
<form style="position:absolute;left:100px;top:200px" onsubmit="event.preventDefault(); fetch('/save', { method: 'POST', body: 'y' })">
<input id="name" aria-label="Name" autofocus></form></body>`;

interface Sample {
  click: number[];
  key: number[];
}

/** One round on one browser: a click on Save (read first when gated), then Enter in the field. */
async function round(env: BrowserEnvironment, gated: boolean, i: number): Promise<[number, number]> {
  const at = { x: 150 + (i % 5) * 20, y: 120 };
  let t = performance.now();
  if (gated) await env.probe({ kind: "point", ...at });
  await env.act({ kind: "click", ...at });
  const click = performance.now() - t;
  await env.act({ kind: "click", x: 150, y: 212 }); // back into the field, untimed
  t = performance.now();
  if (gated) await env.probe({ kind: "focus" });
  await env.act({ kind: "key", keys: "Enter" });
  return [click, performance.now() - t];
}

/** Both browsers side by side, round by round (which goes first alternates), so load hits both alike. */
async function timeActions(
  url: string,
  n: number,
  screen: Size,
): Promise<{ without: Sample; gated: Sample }> {
  const plain = new BrowserEnvironment({ screen, consequenceGate: false });
  const gate = new BrowserEnvironment({ screen });
  const without: Sample = { click: [], key: [] };
  const gated: Sample = { click: [], key: [] };
  try {
    await plain.reset({ url, allowRequests: ["POST /save"] });
    await gate.reset({ url, allowRequests: ["POST /save"] });
    for (let i = 0; i <= n; i++) {
      const order = i % 2 === 0 ? ([false, true] as const) : ([true, false] as const);
      for (const withGate of order) {
        const [click, key] = await round(withGate ? gate : plain, withGate, i);
        // The first round warms both browsers up (fonts, the isolated world, the DOM agent).
        if (i === 0) continue;
        const into = withGate ? gated : without;
        into.click.push(click);
        into.key.push(key);
      }
    }
  } finally {
    await plain.close();
    await gate.close();
  }
  return { without, gated };
}

export async function benchGate(options: { n?: number; screen?: Size } = {}) {
  // Paired differences of two noisy actions: more pairs than a capture row needs.
  const n = options.n ?? 40;
  const screen = options.screen ?? { width: 1400, height: 800 };
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": req.method === "POST" ? "text/plain" : "text/html" });
    res.end(req.method === "POST" ? "saved" : PAGE);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    const { without, gated: withGate } = await timeActions(url, n, screen);
    const added = (a: number[], b: number[]) => a.map((v, i) => v - (b[i] ?? 0));
    return [
      summarise("cua action without the gate, click (posts)", without.click, undefined),
      summarise("cua action with the gate, click (read + held post)", withGate.click, undefined),
      summarise(
        "cua gate added per action, click (paired)",
        added(withGate.click, without.click),
        GATE_ADDED_TARGET_MS,
      ),
      summarise("cua action without the gate, Enter (posts)", without.key, undefined),
      summarise("cua action with the gate, Enter (read + held post)", withGate.key, undefined),
      summarise(
        "cua gate added per action, Enter (paired)",
        added(withGate.key, without.key),
        GATE_ADDED_TARGET_MS,
      ),
    ];
  } finally {
    await new Promise((r) => server.close(r));
  }
}
