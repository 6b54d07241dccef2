import { mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { BwrapSandbox, probeBwrap } from "../../src/sandbox/index.js";
import { needing, unless } from "../../src/testing/needs.js";
import { HANG_GUARD_MS } from "../../src/testing/time.js";
import { createFileTools, newEditorState, type ToolContext } from "../../src/tools/index.js";

const probe = await probeBwrap();
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
});

needing("bwrap", unless(probe)).describe("files the host's tools create in a sandboxed workspace", () => {
  it("stay writable in place by the sandbox user", async () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), "acilab-hostfiles-")));
    const sandbox = new BwrapSandbox({ workspace: ws });
    cleanup.push(
      () => sandbox.close(),
      () => rmSync(ws, { recursive: true, force: true }),
    );
    const ctx: ToolContext = {
      root: ws,
      sandbox,
      editor: newEditorState(),
      testCommand: undefined,
      commandTimeoutMs: HANG_GUARD_MS,
    };
    const tools = createFileTools({ lint: false });
    const created = await tools.create_file.execute({ path: "pkg/deep/new.py", content: "x = 1\n" }, ctx);
    expect(created.error).toBeUndefined();
    const r = await sandbox.exec({
      argv: ["bash", "-c", "echo 'y = 2' >> pkg/deep/new.py && touch pkg/deep/other && cat pkg/deep/new.py"],
      timeoutMs: HANG_GUARD_MS,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("x = 1\ny = 2\n");
    if (process.getuid?.() === 0)
      expect(statSync(join(ws, "pkg", "deep", "new.py")).uid).toBe(statSync(ws).uid);
  });
});
