import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Sandbox } from "../../sandbox/index.js";
import { EVENTUALLY, HANG_GUARD_MS, startedBeforeTimeout } from "../../testing/time.js";
import { newEditorState } from "../types.js";
import { createSearchTools } from "./index.js";
import { MAX_RG_RECORD_BYTES } from "./limits.js";
import { runRg } from "./rg.js";

let dir: string;

/** A stand-in for rg: a shell script, so the runner's limits can be tested without a huge tree. */
function fakeRg(script: string): string {
  const path = join(dir, "fake-rg");
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "acilab-rg-")));
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(
  rgPath: string,
  onRecord: (path: string, rest: string) => boolean = () => true,
  timeoutMs = HANG_GUARD_MS,
) {
  return runRg({ rgPath, cwd: dir, args: [], shape: "path+rest", timeoutMs, onRecord });
}

describe("runRg", () => {
  it("parses NUL-separated records split across chunks and strips ./", async () => {
    const seen: string[] = [];
    const rg = fakeRg(
      `printf './a b.txt\\0001:x\\n'; sleep 0.05; printf './c'; sleep 0.05; printf '.txt\\0002:y:z\\r\\n'`,
    );
    const outcome = await run(rg, (path, rest) => seen.push(`${path}|${rest}`) > 0);
    expect(outcome).toMatchObject({ kind: "exited", code: 0 });
    expect(seen).toEqual(["a b.txt|1:x", "c.txt|2:y:z"]);
  });

  it("stops rg as soon as the caller has enough", async () => {
    const rg = fakeRg(`i=0; while true; do printf './f\\0001:x\\n'; done`);
    let n = 0;
    const outcome = await run(rg, () => ++n < 3);
    expect(outcome.kind).toBe("stopped");
    expect(n).toBe(3);
  });

  it("stops a stream that never ends a record instead of buffering it", async () => {
    const rg = fakeRg("yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    const outcome = await run(rg);
    expect(outcome.kind).toBe("output_cap");
    expect(MAX_RG_RECORD_BYTES).toBeLessThan(16 * 1024 * 1024);
  });

  it("kills rg at the timeout", async () => {
    const pidFile = join(dir, "rg.pid");
    // Outlives vitest's hang guard: had runRg waited for it, the test would fail rather than pass slowly.
    const rg = fakeRg(`echo $$ > ${pidFile}; exec sleep 600`);
    const outcome = await startedBeforeTimeout(
      200,
      (timeoutMs) => run(rg, () => true, timeoutMs),
      () => existsSync(pidFile),
    );
    expect(outcome.kind).toBe("timeout");
    const pid = Number(readFileSync(pidFile, "utf8"));
    await vi.waitFor(() => expect(() => process.kill(pid, 0)).toThrow(), EVENTUALLY);
  });

  it("reports a missing binary and rg's exit code with stderr", async () => {
    expect((await run(join(dir, "nope"))).kind).toBe("missing");
    const outcome = await run(fakeRg("echo 'regex parse error: oops' >&2; exit 2"));
    expect(outcome).toEqual({ kind: "exited", code: 2, stderr: "regex parse error: oops", notes: [] });
  });

  it("stops when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const pending = runRg({
      rgPath: fakeRg("sleep 5"),
      cwd: dir,
      args: [],
      shape: "path",
      timeoutMs: HANG_GUARD_MS,
      signal: controller.signal,
      onRecord: () => true,
    });
    controller.abort();
    expect((await pending).kind).toBe("aborted");
  });

  it("turns a timeout into a tool error that says how to narrow the search", async () => {
    const { grep } = createSearchTools({ rgPath: fakeRg("sleep 5"), timeoutMs: 200 });
    const sandbox: Sandbox = {
      backend: "none",
      workspace: dir,
      exec: () => Promise.reject(new Error("unused")),
      close: async () => {},
      networkLog: () => [],
    };
    const ctx = {
      root: dir,
      sandbox,
      editor: newEditorState(),
      testCommand: undefined,
      commandTimeoutMs: 1_000,
    };
    const result = await grep.execute({ pattern: "x" }, ctx);
    expect(result.error).toBe("timeout");
    expect(result.output).toContain("200 ms");
    expect(result.output).toContain("more specific pattern");
  });
});
