/**
 * Arms: `base` merged under each arm's own fields, the RunSpec that results, its hash, and the checks
 * that need the whole list (names unique, fields some task reads).
 */
import { createHash } from "node:crypto";
import {
  canonicalJson,
  KIND_NAMES,
  type ResolveOptions,
  RUN_SETTING_NAMES,
  type RunSettings,
  type RunSpec,
  resolveRunSpec,
  runSpecHash,
  settingKinds,
  type TaskKind,
} from "../run/index.js";
import type { Path } from "./source.js";

export interface ResolvedArm {
  name: string;
  /** base, then the arm's own fields over it (a list such as allow_net is replaced, not appended). */
  fields: RunSettings;
  /** The fields as a run takes them: every default filled, `auto` resolved. */
  spec: RunSpec;
  /**
   * runSpecHash(spec): what a stored result was run with. A changed field, a changed default or an
   * `auto` that now picks another model is a changed arm.
   */
  hash: string;
  /** How stores written before RunSpec hashed the same arm (the file's fields alone); see AttemptStore.syncArms. */
  legacyHash: string;
}

/** The fields' own hash, as experiment stores before RunSpec recorded it. */
export function legacyArmHash(fields: RunSettings): string {
  return createHash("sha256").update(canonicalJson(fields)).digest("hex");
}

export function resolveArms(
  base: RunSettings,
  arms: readonly ({ name: string } & RunSettings)[],
  options: ResolveOptions = {},
): ResolvedArm[] {
  return arms.map(({ name, ...own }) => {
    const fields: RunSettings = {};
    // In the schema's field order, so printed plans read the same for every arm.
    for (const key of RUN_SETTING_NAMES) {
      const value = own[key] ?? base[key];
      if (value !== undefined) Object.assign(fields, { [key]: value });
    }
    const { spec } = resolveRunSpec(fields, { defaultPolicy: "auto", ...options });
    return { name, fields, spec, hash: runSpecHash(spec), legacyHash: legacyArmHash(fields) };
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
  base: RunSettings,
  arms: readonly RunSettings[],
  kinds: ReadonlySet<TaskKind>,
): ArmProblem[] {
  const problems: ArmProblem[] = [];
  const present = [...kinds].map((k) => KIND_NAMES[k]).join(" and ");
  const check = (fields: RunSettings, at: Path) => {
    for (const key of RUN_SETTING_NAMES) {
      if (fields[key] === undefined || settingKinds(key).some((k) => kinds.has(k))) continue;
      const readers = settingKinds(key)
        .map((k) => KIND_NAMES[k])
        .join(" and ");
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
