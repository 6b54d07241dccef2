import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { LOG_PARSERS, type TestStatusMap } from "../parsers/index.js";
import type { BackendChoice } from "../sandbox/index.js";
import type { Instance } from "../swebench/index.js";
import {
  instanceEnvironment,
  openTaskSandbox,
  resolvePlaceholders,
  runSetupCommands,
} from "../tasks/index.js";
import { git } from "../workspace/index.js";
import { BUILDER_TEST_TIMEOUT_MS } from "./workdir.js";

export interface InstanceRun {
  statuses: TestStatusMap;
  log: string;
  /** The checkout at base_commit, before any patch: which files the agent would see. */
  visibleFiles: string[];
}

/**
 * Check out an instance's base commit from its repo_path (a directory or a bundle), apply `patch`
 * (the gold patch, or none) and the test patch, and run its test command in a sandbox — what a
 * grader does, used to check that a built instance is solvable.
 */
export async function runInstance(
  instance: Instance,
  instancesDir: string,
  patch: string | null,
  backend?: BackendChoice,
): Promise<InstanceRun> {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "acilab-check-")));
  chmodSync(scratch, 0o755);
  const dir = join(scratch, "repo");
  try {
    const source = isAbsolute(instance.repo_path)
      ? instance.repo_path
      : resolve(instancesDir, instance.repo_path);
    await git(scratch, ["init", "-q", dir]);
    await git(dir, ["fetch", "-q", source, `+refs/tags/*:refs/tags/*`]);
    await git(dir, ["-c", "advice.detachedHead=false", "checkout", "-q", instance.base_commit]);
    const visibleFiles = (await git(dir, ["ls-files", "-z"])).split("\0").filter(Boolean);
    for (const [name, diff] of [
      ["patch", patch],
      ["test_patch", instance.test_patch],
    ] as const) {
      if (!diff) continue;
      const file = join(scratch, `${name}.diff`);
      writeFileSync(file, diff);
      await git(dir, ["apply", file]);
    }
    const environment = await instanceEnvironment(
      { ...instance, repo_path: source },
      backend ? { backend } : {},
    );
    const { sandbox } = await openTaskSandbox({ language: instance.language }, dir, backend, { environment });
    try {
      const failed = await runSetupCommands(sandbox, [
        ...(environment?.setup ?? []),
        ...(instance.setup_commands ?? []),
      ]);
      if (failed) throw new Error(failed);
      const run = await sandbox.exec({
        argv: resolvePlaceholders(instance.test_command),
        timeoutMs: BUILDER_TEST_TIMEOUT_MS,
        env: { PYTHONDONTWRITEBYTECODE: "1" },
      });
      return { statuses: LOG_PARSERS[instance.log_parser](run.stdout), log: run.stdout, visibleFiles };
    } finally {
      await sandbox.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
