/**
 * Arms: `base` merged under each arm's own fields, a hash of what results in, and the checks that
 * need the whole list (names unique, fields some task reads).
 */
import { createHash } from "node:crypto";
import { FIELD_KINDS, KIND_NAMES, RUN_FIELD_NAMES, type RunFields, type TaskKind } from "./fields.js";
import type { Path } from "./source.js";

export interface ResolvedArm {
  name: string;
  /** base, then the arm's own fields over it (a list such as allow_net is replaced, not appended). */
  fields: RunFields;
  /**
   * sha256 of the fields' canonical JSON (keys sorted): what a stored result was run with. Only what
   * the file says counts, so writing out a default changes it and a changed default in acilab does not.
   */
  hash: string;
}

/** JSON with every object's keys sorted, so equal definitions give equal bytes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

export function armHash(fields: RunFields): string {
  return createHash("sha256").update(canonicalJson(fields)).digest("hex");
}

export function resolveArms(base: RunFields, arms: readonly ({ name: string } & RunFields)[]): ResolvedArm[] {
  return arms.map(({ name, ...own }) => {
    const fields: RunFields = {};
    // In the schema's field order, so printed plans read the same for every arm.
    for (const key of RUN_FIELD_NAMES) {
      const value = own[key] ?? base[key];
      if (value !== undefined) Object.assign(fields, { [key]: value });
    }
    return { name, fields, hash: armHash(fields) };
  });
}

export interface ArmProblem {
  path: Path;
  message: string;
}

export function duplicateNames(arms: readonly { name: string }[]): ArmProblem[] {
  const first = new Map<string, number>();
  const problems: ArmProblem[] = [];
  for (const [i, arm] of arms.entries()) {
    const at = first.get(arm.name);
    if (at === undefined) first.set(arm.name, i);
    else
      problems.push({
        path: ["arms", i, "name"],
        message: `arm "${arm.name}" is defined twice (first as arms[${at}]) — give each arm its own name`,
      });
  }
  return problems;
}

/**
 * A field that no task of the experiment reads (observe on coding-only tasks, tools on computer-use
 * ones) is an error, not a warning: arms that differ only in it would be one arm under two names.
 */
export function unreadFields(
  base: RunFields,
  arms: readonly RunFields[],
  kinds: ReadonlySet<TaskKind>,
): ArmProblem[] {
  const problems: ArmProblem[] = [];
  const present = [...kinds].map((k) => KIND_NAMES[k]).join(" and ");
  const check = (fields: RunFields, at: Path) => {
    for (const key of RUN_FIELD_NAMES) {
      if (fields[key] === undefined || FIELD_KINDS[key].some((k) => kinds.has(k))) continue;
      const readers = FIELD_KINDS[key].map((k) => KIND_NAMES[k]).join(" and ");
      problems.push({
        path: [...at, key],
        message: `${key} is read by ${readers} tasks, but this experiment's tasks are ${present} only — no attempt would use it; drop it or add ${readers} tasks`,
      });
    }
  };
  check(base, ["base"]);
  for (const [i, arm] of arms.entries()) check(arm, ["arms", i]);
  return problems;
}
