import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HANG_GUARD_MS } from "../testing/time.js";
import { applyCandidate } from "./steps.js";
import { gradingSandbox } from "./testing.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const grading = () => gradingSandbox(cleanups);

describe("grading steps in the sandbox", () => {
  it("GNU patch, tried last, cannot write into .git even when a patch slips past the path check", async () => {
    const { repo, runner } = await grading();
    // Spelled so no check by name sees it: a path through a symlink the patch itself creates.
    const patch = [
      "diff --git a/hooks b/hooks",
      "new file mode 120000",
      "--- /dev/null",
      "+++ b/hooks",
      "@@ -0,0 +1 @@",
      "+.git/hooks",
      "\\ No newline at end of file",
      "diff --git a/hooks/post-checkout b/hooks/post-checkout",
      "new file mode 100755",
      "--- /dev/null",
      "+++ b/hooks/post-checkout",
      "@@ -0,0 +1,2 @@",
      "+#!/bin/sh",
      "+touch /tmp/acilab-pwned-by-hook",
      "",
    ].join("\n");
    // The checkout's .git is read-only for everything in the grading sandbox.
    const touch = await runner.sandbox.exec({
      argv: ["bash", "-c", "touch .git/hooks/x"],
      timeoutMs: HANG_GUARD_MS,
    });
    expect(touch.exitCode).not.toBe(0);
    expect(touch.stderr).toMatch(/Read-only file system/);
    const result = await applyCandidate(runner, patch, () => repo.checkout.reset());
    expect(existsSync(join(repo.checkout.root, ".git/hooks/post-checkout"))).toBe(false);
    expect(existsSync("/tmp/acilab-pwned-by-hook")).toBe(false);
    if (result.applied) expect(result.strategy).not.toBe("patch --fuzz=5");
  });
});
