import { cpSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commitAll } from "../workspace/index.js";
import type { Task } from "./task.js";

export interface PreparedWorkspace {
  root: string;
  /** The commit holding the task's base state; the agent's patch is the diff against it. */
  base: string;
}

/**
 * A fresh copy of the task's repository at its base state, committed so the agent's changes can be
 * diffed. Hidden tests are not copied: the agent must never see them.
 */
export async function prepareWorkspace(task: Task, parent?: string): Promise<PreparedWorkspace> {
  const root = realpathSync(mkdtempSync(join(parent ?? tmpdir(), `acilab-${task.id}-`)));
  cpSync(task.repoDir, root, { recursive: true });
  const base = await commitAll(root, `${task.id}: base`);
  return { root, base };
}
