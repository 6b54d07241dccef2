import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { git } from "../workspace/index.js";

const run = promisify(execFile);

export interface ApplyResult {
  applied: boolean;
  /** Which method worked, or the log of every try when none did. */
  method: "git-apply" | "patch-fuzz" | "empty" | null;
  log: string;
}

/**
 * Apply a model patch the way SWE-bench does: `git apply` first, then GNU patch with fuzz; the tree is
 * reset to HEAD between tries so a half-applied attempt never leaks into the next one.
 */
export async function applyPatch(dir: string, patch: string): Promise<ApplyResult> {
  if (patch.trim() === "") return { applied: true, method: "empty", log: "empty patch: nothing to apply" };
  const scratch = mkdtempSync(join(tmpdir(), "acilab-patch-"));
  const file = join(scratch, "model.patch");
  writeFileSync(file, patch.endsWith("\n") ? patch : `${patch}\n`);
  const logs: string[] = [];
  try {
    try {
      await git(dir, ["apply", "--verbose", "--whitespace=nowarn", file]);
      return { applied: true, method: "git-apply", log: "applied with git apply" };
    } catch (err) {
      logs.push(`git apply: ${(err as Error).message}`);
    }
    await resetTree(dir);
    try {
      const { stdout } = await run("patch", ["--batch", "--fuzz=5", "-p1", "--forward", "-i", file], {
        cwd: dir,
      });
      return { applied: true, method: "patch-fuzz", log: `applied with patch --fuzz=5:\n${stdout}` };
    } catch (err) {
      const e = err as { code?: string; stdout?: string; message: string };
      logs.push(
        e.code === "ENOENT"
          ? "patch: GNU patch is not installed (apt-get install patch)"
          : `patch --fuzz=5: ${e.stdout ?? e.message}`,
      );
    }
    await resetTree(dir);
    return { applied: false, method: null, log: logs.join("\n") };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function resetTree(dir: string): Promise<void> {
  await git(dir, ["reset", "-q", "--hard", "HEAD"]);
  await git(dir, ["clean", "-q", "-fd"]);
}
