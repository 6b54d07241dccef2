/** One frame of the headless browser: pixels, and the elements or the DOM the observation asks for. */
import type { CDPSession, Page } from "playwright-core";
import type { Capture, ObserveKind, Size } from "../types.js";
import { collectElements } from "./a11y.js";
import { cleanDom } from "./dom.js";
import { drawMarks } from "./som.js";

export async function captureFrame(
  { page, cdp }: { page: Page; cdp: CDPSession },
  screen: Size,
  domBudget: number,
  observe: ObserveKind,
): Promise<Capture> {
  const started = performance.now();
  const placement = { offset: { x: 0, y: 0 }, viewport: screen };
  const wantElements = observe === "a11y" || observe === "som";
  // Pixels and elements in parallel, so the boxes describe the frame the model sees.
  const [shot, elements, dom] = await Promise.all([
    cdp.send("Page.captureScreenshot", { format: "png", optimizeForSpeed: true }),
    wantElements ? collectElements(cdp, placement) : undefined,
    observe === "dom" ? cleanDom(page, domBudget) : undefined,
  ]);
  let png: Buffer = Buffer.from(shot.data, "base64");
  if (observe === "som" && elements) png = await drawMarks(png, screen, elements);
  const capture: Capture = { png, size: { ...screen }, captureMs: 0 };
  if (elements) capture.elements = elements;
  if (dom !== undefined) capture.dom = dom;
  capture.captureMs = performance.now() - started;
  return capture;
}
