import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { escapeHtml, experimentHtml, inspectHtml, scriptJson } from "./html.js";
import { inspectRun } from "./inspect-model.js";

const assets = { css: "body{}", script: "console.log('inspector')" };
const hostile = `</script><script>alert(1)</script><!-- <img onerror=x>`;

function page(task: string, observation: string): string {
  const attempt = inspectRun(
    { key: "run", arm: null, task, repeat: null, status: "done", failure: null, error: null },
    {
      records: [
        {
          type: "turn",
          step: 1,
          request: { message_count: 0, first_change: 0, messages_from_first_change: [] },
          response: { role: "assistant", content: "", toolCalls: [] },
          model: "m",
          finish_reason: "tool_use",
          usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
          cost_usd: 0,
          latency_ms: 0,
          actions: [
            {
              call: { id: "1", name: "bash", input: {} },
              observation,
              error: null,
              duration_ms: 0,
              files_changed: [],
            },
          ],
          format_error: null,
          overhead_ms: 0,
        },
      ],
      trajectory: "ok",
      warnings: [],
      result: null,
      patch: null,
      report: null,
      frames: new Map(),
      framesLeftOut: new Set(),
    },
  );
  return inspectHtml(attempt, "/runs/x", assets);
}

describe("the HTML page", () => {
  it("never lets run text close a tag or open one: titles are escaped, data blocks hold no '<'", () => {
    const html = page(hostile, hostile);
    // The only <script> tags are the data block and the inspector itself.
    expect(html.match(/<script[ >]/g)).toHaveLength(2);
    expect(html).toContain(escapeHtml(hostile));
    const block =
      /<script type="application\/json" id="attempt-data-run">(.*?)<\/script>/s.exec(html)?.[1] ?? "";
    expect(block).not.toContain("<");
    expect(JSON.parse(block).turns[0].actions[0].observation).toBe(hostile);
  });

  it("admits only its own script, by hash, and fetches nothing", () => {
    const html = page("t", "ok");
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? "";
    const hash = createHash("sha256").update(assets.script).digest("base64");
    expect(csp).toContain(`script-src 'sha256-${hash}'`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("img-src data:");
    expect(html).toContain(`<script>${assets.script}</script>`);
  });

  it("writes non-finite numbers as null, which JSON.parse can read", () => {
    expect(JSON.parse(scriptJson({ a: Number.NaN, b: Number.POSITIVE_INFINITY, c: 1 }))).toEqual({
      a: null,
      b: null,
      c: 1,
    });
  });
});

describe("plots in the page", () => {
  const analysis = {
    experiment: "e",
    baseline: "a",
    scripted: true,
    repeats: 1,
    tasks: [],
    arms: [],
    grid: {},
    attempts: [],
    sampling: null,
    warnings: [],
  };
  const withSvg = (svg: string | { error: string }) =>
    experimentHtml(
      { analysis, source: "s", plots: [{ id: "p", title: "P", caption: "c", svg }], attempts: [] },
      assets,
    );

  it("inlines a drawing whose text looks like an attribute (a task id is only text)", () => {
    const html = withSvg('<svg xmlns="http://www.w3.org/2000/svg"><text>median-even onload=x</text></svg>');
    expect(html).toContain("<text>median-even onload=x</text>");
  });

  it("shows a gap with the reason for a plot that is not a plain drawing, or failed, and still renders", () => {
    expect(withSvg('<svg onload="alert(1)"></svg>')).toContain("This plot could not be drawn");
    expect(withSvg("<svg><script>alert(1)</script></svg>")).not.toContain("<script>alert(1)");
    expect(withSvg({ error: "vega broke" })).toContain("This plot could not be drawn: vega broke.");
  });
});
