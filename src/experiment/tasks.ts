/**
 * The `tasks` entries of an experiment file → a concrete, ordered list of task references without
 * duplicates. An entry is a task id, a glob over the ids (`semver-*`), `{ suite: builtin }`,
 * `{ instances: FILE }` (relative to the experiment file), `{ cua: all }`, or a computer-use task file
 * or folder of them (a path relative to the experiment file, or `{ cua: PATH }`).
 */
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { listCuaTasks, loadTaskFolder, looksLikeTaskPath } from "../cua/index.js";
import type { TaskKind } from "../run/index.js";
import { listTaskIds, loadInstanceRows, reposDir, TOOLS_TASKS } from "../tasks/index.js";
import { didYouMean } from "../words/index.js";
import type { Path } from "./source.js";

export interface TaskRef {
  kind: TaskKind;
  id: string;
  /** "builtin" for acilab's own tasks, else the absolute path of the instances file it came from. */
  source: string;
}

export interface TaskProblem {
  path: Path;
  message: string;
}

/** Every task acilab ships, by kind, in `acilab tasks list` order. */
export function builtinCatalog(): TaskRef[] {
  return [
    ...listTaskIds().map((id) => ({ kind: "coding" as const, id, source: "builtin" })),
    ...Object.keys(TOOLS_TASKS).map((id) => ({ kind: "tools" as const, id, source: "builtin" })),
    ...listCuaTasks().map((t) => ({ kind: "cua" as const, id: t.id, source: "builtin" })),
  ];
}

const ENTRY_FORMS =
  "a task id, a glob such as semver-*, {suite: builtin}, {instances: FILE} (with ids: [...] or match: GLOB), {cua: all} or a task file path ({cua: PATH})";
const SEE_LIST = 'see "acilab tasks list"';

function globRegExp(glob: string): RegExp {
  const body = glob
    .split("")
    .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[\\^$.+()|{}[\]]/g, "\\$&")))
    .join("");
  return new RegExp(`^${body}$`);
}

/** One entry → its tasks, or a sentence saying what is wrong with it. */
function expand(entry: unknown, experimentFile: string, catalog: readonly TaskRef[]): TaskRef[] | string {
  if (typeof entry === "string") {
    if (looksLikeTaskPath(entry) && !/[*?]/.test(entry)) return fromTaskFiles(experimentFile, entry);
    if (/[*?]/.test(entry)) {
      const re = globRegExp(entry);
      const matched = catalog.filter((t) => re.test(t.id));
      return matched.length > 0 ? matched : `the glob "${entry}" matches no task — ${SEE_LIST} for the ids`;
    }
    const task = catalog.find((t) => t.id === entry);
    if (task) return [task];
    const guess = didYouMean(
      entry,
      catalog.map((t) => t.id),
    );
    return `no task "${entry}"${guess} (${SEE_LIST}; an instances file is {instances: FILE})`;
  }
  if (typeof entry !== "object" || entry === null || Array.isArray(entry))
    return `a task entry is ${ENTRY_FORMS}`;
  if ("instances" in entry) return instancesEntry(entry as Record<string, unknown>, experimentFile);
  if (Object.keys(entry).length !== 1) return `a task entry is ${ENTRY_FORMS}`;
  const [key, value] = Object.entries(entry)[0] as [string, unknown];
  switch (key) {
    case "suite":
      return value === "builtin"
        ? catalog.filter((t) => t.kind === "coding")
        : `no suite "${String(value)}" — the one suite is builtin`;
    case "cua":
      if (value === "all") return catalog.filter((t) => t.kind === "cua");
      return typeof value === "string" && looksLikeTaskPath(value)
        ? fromTaskFiles(experimentFile, value)
        : `{cua: ${String(value)}}: write {cua: all}, {cua: ./PATH} (task files), or list computer-use ids as plain entries`;
    default:
      return `unknown entry {${key}: …} — a task entry is ${ENTRY_FORMS}`;
  }
}

/** Task files (a task.yaml or a folder of them) relative to the experiment file; source = the file. */
function fromTaskFiles(experimentFile: string, written: string): TaskRef[] | string {
  const { tasks, problems } = loadTaskFolder(resolve(dirname(experimentFile), written));
  if (problems.length > 0) return problems.map((p) => p.message).join("; ");
  return tasks.map((t) => ({ kind: "cua", id: t.id, source: t.file }));
}

/**
 * `{instances: FILE}`, optionally with `ids: [ID, …]` or `match: GLOB` picking rows: SWE-bench's rows
 * as published too (their repositories from $ACILAB_REPOS). A picked row that cannot run here, or an
 * id the file lacks, is a problem at this entry.
 */
function instancesEntry(entry: Record<string, unknown>, experimentFile: string): TaskRef[] | string {
  const { instances: written, ids, match, ...rest } = entry;
  const extra = Object.keys(rest);
  if (extra.length > 0)
    return `{instances: …} takes ids (a list of instance ids) or match (a glob on them), not ${extra.join(", ")}`;
  if (typeof written !== "string" || written === "")
    return "instances is the path of an instances .jsonl, relative to this file";
  if (ids !== undefined && match !== undefined) return "give ids or match, not both";
  if (
    ids !== undefined &&
    (!Array.isArray(ids) || !ids.every((i) => typeof i === "string") || ids.length === 0)
  )
    return "ids is a non-empty list of instance ids";
  if (match !== undefined && (typeof match !== "string" || match === ""))
    return "match is a glob on instance ids, such as sympy__*";
  const file = resolve(dirname(experimentFile), written);
  if (!existsSync(file) || !statSync(file).isFile())
    return `no instances file "${written}" (looked at ${file}) — write one with "acilab tasks export --out FILE" or "acilab tasks mirror"`;
  const wanted = ids as string[] | undefined;
  let loaded: ReturnType<typeof loadInstanceRows>;
  try {
    loaded = loadInstanceRows(file, {
      repos: reposDir(),
      ...(typeof match === "string" ? { filter: match } : {}),
      ...(wanted ? { only: (id: string) => wanted.includes(id) } : {}),
    });
  } catch (err) {
    return `instances file "${written}" does not load: ${(err as Error).message.replace(/\s*\n\s*/g, "; ")}`;
  }
  const problems = [
    ...loaded.problems,
    ...loaded.unavailable.map((u) => `${u.instance_id} cannot run here: ${u.reason}`),
    ...(wanted ?? [])
      .filter(
        (id) =>
          !loaded.instances.some((i) => i.instance_id === id) &&
          !loaded.unavailable.some((u) => u.instance_id === id),
      )
      .map((id) => `no instance "${id}" in ${written}`),
  ];
  if (problems.length > 0) return `instances file "${written}": ${problems.join("; ")}`;
  return loaded.instances.map((i) => ({ kind: "coding", id: i.instance_id, source: file }));
}

/** Resolve every entry; problems name the entry (`tasks[2]`) and what to write instead. */
export function resolveTasks(
  entries: readonly unknown[],
  experimentFile: string,
  catalog: readonly TaskRef[] = builtinCatalog(),
): { tasks: TaskRef[]; problems: TaskProblem[] } {
  const tasks: TaskRef[] = [];
  const problems: TaskProblem[] = [];
  const seen = new Map<string, TaskRef>();
  for (const [index, entry] of entries.entries()) {
    const path =
      typeof entry === "object" && entry !== null && !Array.isArray(entry)
        ? ["tasks", index, Object.keys(entry)[0] ?? ""]
        : ["tasks", index];
    const expanded = expand(entry, experimentFile, catalog);
    if (typeof expanded === "string") {
      problems.push({ path, message: expanded });
      continue;
    }
    for (const task of expanded) {
      const first = seen.get(task.id);
      if (first === undefined) {
        seen.set(task.id, task);
        tasks.push(task);
      } else if (first.source !== task.source || first.kind !== task.kind) {
        // One id, two different tasks: their attempts would share a row key and mix their results.
        problems.push({
          path,
          message: `task "${task.id}" comes from both ${first.source} and ${task.source} — keep one of them`,
        });
      }
    }
  }
  return { tasks, problems };
}
