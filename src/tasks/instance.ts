import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import type { Instance } from "../swebench/index.js";
import { commitAll, git } from "../workspace/index.js";
import { buildLibraryRepo, cacheDir, resolveBase } from "./library.js";
import type { Task } from "./task.js";

/** A task's repository as a grader needs it: where it is, which commit, and the hidden tests as a patch. */
export interface TaskRepository {
  repoPath: string;
  baseCommit: string;
  testPatch: string;
}

const built = new Map<string, Promise<TaskRepository>>();

/** Build (or find in the cache) the task's repository; once per task per process. */
export function taskRepository(task: Task): Promise<TaskRepository> {
  let made = built.get(task.dir);
  if (!made) {
    made = buildTaskRepository(task);
    made.catch(() => built.delete(task.dir));
    built.set(task.dir, made);
  }
  return made;
}

async function buildTaskRepository(task: Task): Promise<TaskRepository> {
  const { source } = task;
  if (source.kind === "instance")
    return {
      repoPath: source.instance.repo_path,
      baseCommit: source.instance.base_commit,
      testPatch: source.instance.test_patch,
    };
  if (source.kind === "library") {
    const repoPath = await buildLibraryRepo(source.library);
    return {
      repoPath,
      baseCommit: await resolveBase(repoPath, source.library, source.base),
      testPatch: readFileSync(join(task.dir, "test.patch"), "utf8"),
    };
  }
  return folderRepository(task.id, source.repoDir, source.hiddenDir);
}

/** Every file under `dir` with its content, hashed: the cache key of a folder task. */
function hashTree(hash: ReturnType<typeof createHash>, dir: string): void {
  if (!existsSync(dir)) return;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) hash.update(relative(dir, p)).update("\0").update(readFileSync(p)).update("\0");
    }
  };
  walk(dir);
}

/**
 * A folder task as a repository: repo/ committed once (the base), and hidden/ laid over it and diffed,
 * which gives the test patch. Cached under a hash of both folders.
 */
async function folderRepository(id: string, repoDir: string, hiddenDir: string): Promise<TaskRepository> {
  const hash = createHash("sha256");
  hashTree(hash, repoDir);
  hash.update("\0hidden\0");
  hashTree(hash, hiddenDir);
  const target = join(cacheDir(), "folders", `${id}-${hash.digest("hex").slice(0, 12)}`);
  const patchFile = `${target}.test.patch`;
  if (!existsSync(join(target, ".git")) || !existsSync(patchFile)) {
    mkdirSync(join(cacheDir(), "folders"), { recursive: true });
    const work = `${target}.tmp-${process.pid}-${Date.now()}`;
    try {
      cpSync(repoDir, work, { recursive: true });
      const base = await commitAll(work, `${id}: base`);
      let testPatch = "";
      if (existsSync(hiddenDir)) {
        cpSync(hiddenDir, work, { recursive: true, force: true });
        await git(work, ["add", "-A"]);
        testPatch = await git(work, ["diff", "--cached", "--binary", base]);
        await git(work, ["reset", "-q", "--hard", base]);
      }
      writeFileSync(`${work}.test.patch`, testPatch);
      rmSync(target, { recursive: true, force: true });
      renameSync(work, target);
      renameSync(`${work}.test.patch`, patchFile);
    } finally {
      rmSync(work, { recursive: true, force: true });
      rmSync(`${work}.test.patch`, { force: true });
    }
  }
  const baseCommit = (await git(target, ["rev-parse", "HEAD"])).trim();
  return { repoPath: target, baseCommit, testPatch: readFileSync(patchFile, "utf8") };
}

/** The task as a SWE-bench instance (plus our fields): what `acilab grade` and `tasks export` use. */
export async function taskInstance(task: Task): Promise<Instance> {
  // An instance is graded exactly as its file says (setup_commands, environment fields and all).
  if (task.source.kind === "instance") return task.source.instance;
  const repo = await taskRepository(task);
  const library = task.source.kind === "library" ? task.source.library.name : task.id;
  return {
    instance_id: task.id,
    repo: `acilab/${library}`,
    base_commit: repo.baseCommit,
    patch: task.goldPatch,
    test_patch: repo.testPatch,
    problem_statement: task.issue,
    hints_text: "",
    created_at: task.createdAt ?? "",
    version: "1.0",
    environment_setup_commit: repo.baseCommit,
    FAIL_TO_PASS: task.failToPass,
    PASS_TO_PASS: task.passToPass,
    test_command: task.testCommandTemplate,
    log_parser: task.logParser,
    language: task.language,
    repo_path: repo.repoPath,
    ...(task.impossible ? { impossible: true } : {}),
  };
}
