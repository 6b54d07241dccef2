import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ChangeTracker } from "../../src/loop/index.js";
import { checkoutAt, openTaskSandbox } from "../../src/tasks/index.js";
import { HANG_GUARD_MS } from "../../src/testing/time.js";
import { commitAll } from "../../src/workspace/index.js";

/**
 * The sandboxed program owns the workspace, its .git included. The host's own git later reads that
 * workspace (per-turn change tracking, the final diff): it must never run a program the sandbox named
 * in .git/config — fsmonitor, an external diff, a filter driver — nor follow core.worktree out.
 */
const scratch = mkdtempSync(join(tmpdir(), "acilab-hostgit-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("host-side git never trusts the workspace's .git", () => {
  it("ignores fsmonitor, external diff, filter drivers and core.worktree planted from inside", async () => {
    const repo = join(scratch, "repo");
    rmSync(repo, { recursive: true, force: true });
    const { mkdirSync } = await import("node:fs");
    mkdirSync(repo);
    writeFileSync(join(repo, "a.txt"), "one\n");
    const base = await commitAll(repo, "base");
    const marker = join(tmpdir(), `acilab-pwned-${process.pid}-${Date.now()}`);
    const { checkout, gitDir } = await checkoutAt(repo, base);
    const { sandbox } = await openTaskSandbox({ language: "python" }, checkout.root, undefined, {
      fromSnapshot: true,
    });
    try {
      const evil = [
        "[core]",
        `\tfsmonitor = touch ${marker}-fsmonitor`,
        "\tworktree = /etc",
        "[diff]",
        `\texternal = /bin/sh -c 'touch ${marker}-diff'`,
        '[filter "x"]',
        `\tclean = sh -c 'touch ${marker}-filter; cat'`,
      ].join("\n");
      const r = await sandbox.exec({
        argv: [
          "bash",
          "-c",
          `printf '%s\\n' "$EVIL" >> .git/config && echo '* filter=x' > .gitattributes && echo two >> a.txt`,
        ],
        env: { EVIL: evil },
        timeoutMs: HANG_GUARD_MS,
      });
      expect(r.exitCode).toBe(0);
      const changed = await new ChangeTracker(checkout.root, gitDir).afterCommand();
      expect(changed.sort()).toEqual([".gitattributes", "a.txt"]);
      const diff = await checkout.gitDiff();
      expect(diff).toContain("+two");
      expect(diff).not.toContain("passwd"); // core.worktree = /etc was not followed
      for (const kind of ["fsmonitor", "diff", "filter"])
        expect(existsSync(`${marker}-${kind}`), kind).toBe(false);
    } finally {
      await sandbox.close();
      await checkout.dispose();
      for (const kind of ["fsmonitor", "diff", "filter"]) rmSync(`${marker}-${kind}`, { force: true });
    }
  });
});
