import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import { git } from "../workspace/index.js";
import { leak } from "./issue.js";
import type { BuildReport } from "./mirror.js";
import { runInstance } from "./verify.js";

/** Write files (null deletes) into a repository and commit them; returns the commit id. */
export async function commitFiles(
  repo: string,
  files: Record<string, string | null>,
  message: string,
): Promise<string> {
  for (const [path, text] of Object.entries(files)) {
    const full = join(repo, path);
    if (text === null) rmSync(full, { force: true });
    else {
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, text);
    }
  }
  await git(repo, ["add", "-A"]);
  await git(repo, ["commit", "-q", "-m", message]);
  return (await git(repo, ["rev-parse", "HEAD"])).trim();
}

export async function initRepo(repo: string): Promise<void> {
  mkdirSync(repo, { recursive: true });
  await git(repo, ["init", "-q", "-b", "main"]);
}

/** Each synthesized instance: tests fail on its base, its patch makes them pass, its issue leaks nothing. */
export async function checkMutants(report: BuildReport, dir: string): Promise<void> {
  expect(report.instances.length).toBeGreaterThanOrEqual(2);
  for (const instance of report.instances) {
    expect(instance.FAIL_TO_PASS.length).toBeGreaterThan(0);
    expect(leak(instance.problem_statement, instance.patch)).toBeUndefined();
    const mutant = await runInstance(instance, dir, null);
    for (const id of instance.FAIL_TO_PASS) expect(mutant.statuses.get(id), id).not.toBe("PASSED");
    const fixed = await runInstance(instance, dir, instance.patch);
    for (const id of [...instance.FAIL_TO_PASS, ...instance.PASS_TO_PASS])
      expect(fixed.statuses.get(id), id).toBe("PASSED");
  }
}
