import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ExpectStatic } from "vitest";
import { LOG_PARSERS, suiteRan } from "../../src/parsers/index.js";
import { CAPTURES, type Capture, FIXTURES_DIR, runCapture } from "./capture.js";

/**
 * What every parser test checks, on the committed fixture and on a live capture alike: the statuses
 * the sample project must produce, the ids that must not appear, and whether the suite ran.
 * `expect` is passed in so this file needs vitest only as a type.
 */
export function expectCapture(expect: ExpectStatic, capture: Capture, log: string): void {
  const statuses = Object.fromEntries(LOG_PARSERS[capture.parser](log));
  expect(statuses).toMatchObject(capture.project.expected);
  for (const id of capture.project.absent) expect(statuses).not.toHaveProperty([id]);
  const ran = suiteRan(capture.parser, log);
  expect(ran.ran, ran.why).toBe(capture.project.ran);
  expect(ran.why).not.toBe("");
}

export function captureNamed(name: string): Capture {
  const capture = CAPTURES.find((c) => c.name === name);
  if (!capture) throw new Error(`no capture named "${name}" in capture.ts`);
  return capture;
}

export function readFixture(name: string): string {
  return readFileSync(join(FIXTURES_DIR, `${name}.txt`), "utf8");
}

/** The live test's title says why it is skipped on this machine, if it is. */
export function liveTitle(capture: Capture): string {
  const missing = capture.missing();
  return missing ? `live capture (skipped: ${missing})` : "live capture from the real runner";
}

export { runCapture };
