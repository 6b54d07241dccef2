/**
 * Capture latency per step, browser and X11, at the benchmark's 1400×800: what one `capture()` costs
 * the loop for each observation kind, plus the X11 screenshot paths compared (frame-buffer read vs
 * `xwd -root`). bench/run.ts prints the rows.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Environment, ObserveKind, Size } from "../src/cua/index.js";
import { BrowserEnvironment, decodeXwd, encodeRaw, X11Environment } from "../src/cua/testing/internals.js";
import { summarise as summariseRow } from "./stats.js";

export interface CaptureBenchRow {
  name: string;
  n: number;
  medianMs: number;
  p95Ms: number;
  /** A step's capture should stay well under the model's own latency (seconds). */
  targetMs: number | undefined;
}

export const BENCH_SCREEN: Size = { width: 1400, height: 800 };
/** Budget for one screenshot capture: a tenth of a fast model turn (~1 s). */
export const CAPTURE_TARGET_MS = 100;
/** Element observations add the accessibility tree; som also draws and re-encodes. */
const ELEMENT_CAPTURE_TARGET_MS = 150;

/** A settings-like page with ~60 interactive elements: a realistic a11y tree for the timing. */
function benchPage(): string {
  const rows = Array.from(
    { length: 20 },
    (_, i) =>
      `<div><label><input type="checkbox"> Option ${i}</label> <a href="#r${i}">Details ${i}</a> <button>Edit ${i}</button></div>`,
  ).join("\n");
  return `<!doctype html><body style="font:15px sans-serif"><h1>Notification settings</h1><input aria-label="Search"><select aria-label="Digest"><option>Daily</option><option>Weekly digest</option></select>${rows}</body>`;
}

const summarise = (name: string, samples: number[], targetMs: number | undefined): CaptureBenchRow =>
  summariseRow(name, samples, targetMs);

async function timeCaptures(env: Environment, kind: ObserveKind, n: number): Promise<number[]> {
  const samples: number[] = [];
  await env.capture(kind); // warm-up: fonts, libvips, first paint
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await env.capture(kind);
    samples.push(performance.now() - started);
  }
  return samples;
}

/** Rows for every environment whose programs are installed; missing ones are skipped, not failed. */
/**
 * The confirmation gate's live reading per action: for a pointer action the pointer is moved there
 * and the page gets a frame to react before it is read (so a page that swaps a control on hover
 * is judged on what the press meets); keys read the focus at once. Both must stay small next to a
 * capture.
 */
async function timeGateReadings(env: BrowserEnvironment, n: number): Promise<CaptureBenchRow[]> {
  const point: number[] = [];
  const focus: number[] = [];
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    await env.probe({ kind: "point", x: 40 + (i % 10) * 30, y: 120 + (i % 8) * 24 });
    point.push(performance.now() - t);
    t = performance.now();
    await env.probe({ kind: "focus" });
    focus.push(performance.now() - t);
  }
  return [
    summarise("cua gate reading, pointer action (move, a frame, read)", point, CAPTURE_TARGET_MS),
    summarise("cua gate reading, key on the focus", focus, CAPTURE_TARGET_MS / 10),
  ];
}

export async function benchCapture(options: { n?: number; screen?: Size } = {}): Promise<CaptureBenchRow[]> {
  const n = options.n ?? 20;
  const screen = options.screen ?? BENCH_SCREEN;
  const label = `${screen.width}x${screen.height}`;
  const server = createServer((_req, res) =>
    res.writeHead(200, { "content-type": "text/html" }).end(benchPage()),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const rows: CaptureBenchRow[] = [];
  try {
    if (existsSync("/usr/bin/chromium")) {
      const env = new BrowserEnvironment({ screen });
      try {
        await env.reset({ url });
        for (const kind of ["screenshot", "a11y", "som", "dom"] as const) {
          const target = kind === "screenshot" ? CAPTURE_TARGET_MS : ELEMENT_CAPTURE_TARGET_MS;
          rows.push(
            summarise(`cua capture browser ${kind} ${label}`, await timeCaptures(env, kind, n), target),
          );
        }
        rows.push(...(await timeGateReadings(env, n)));
      } finally {
        await env.close();
      }
    }
    if (existsSync("/usr/bin/Xvfb") && existsSync("/usr/bin/xdotool")) {
      const env = new X11Environment({ screen });
      try {
        await env.reset({ url });
        for (const kind of ["screenshot", "a11y", "som"] as const) {
          const target = kind === "screenshot" ? CAPTURE_TARGET_MS : ELEMENT_CAPTURE_TARGET_MS;
          rows.push(summarise(`cua capture x11 ${kind} ${label}`, await timeCaptures(env, kind, n), target));
        }
        rows.push(...(await x11ScreenshotPaths(env, n, label)));
      } finally {
        await env.close();
      }
    }
  } finally {
    await new Promise((r) => server.close(r));
  }
  return rows;
}

/** The X11 screenshot paths side by side: read Xvfb's frame buffer, or spawn `xwd -root` (no target). */
async function x11ScreenshotPaths(env: X11Environment, n: number, label: string): Promise<CaptureBenchRow[]> {
  const display = env.displayName;
  if (!display || !existsSync("/usr/bin/xwd")) return [];
  const xwdSamples: number[] = [];
  const decodeSamples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const { stdout } = await runBinary("xwd", ["-root", "-silent"], display);
    const t1 = performance.now();
    const { size, rgb } = decodeXwd(stdout);
    await encodeRaw(rgb, size, 3);
    const t2 = performance.now();
    xwdSamples.push(t2 - started);
    decodeSamples.push(t2 - t1);
  }
  return [
    summarise(`cua x11 screenshot via xwd -root ${label}`, xwdSamples, undefined),
    summarise(`cua x11 xwd decode+png encode ${label}`, decodeSamples, undefined),
  ];
}

function runBinary(cmd: string, args: string[], display: string): Promise<{ stdout: Buffer }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, DISPLAY: display };
    execFile(cmd, args, { env, encoding: "buffer", maxBuffer: 256 << 20 }, (err, stdout) =>
      err ? reject(err) : resolve({ stdout }),
    );
  });
}
