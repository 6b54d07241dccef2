/**
 * Each sample project run by its real runner now (pytest, node --test, vitest, go test, cargo test)
 * and read by its parser the way the committed fixture is. src/parsers/*.test.ts read the fixtures,
 * fast; this file proves the fixtures still say what today's runners print. A runner missing here is
 * skipped with its reason, and fails under CI=true (src/testing/needs.ts).
 */
import { describe, expect } from "vitest";
import { needing } from "../../src/testing/needs.js";
import { CAPTURES } from "./capture.js";
import { expectCapture, runCapture } from "./capture-expect.js";

describe("live captures from the real runners", () => {
  for (const capture of CAPTURES)
    needing(capture.need, capture.missing()).it(
      capture.name,
      () => expectCapture(expect, capture, runCapture(capture)),
      120_000,
    );
});
