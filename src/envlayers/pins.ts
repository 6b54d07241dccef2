/**
 * What a recipe's environment does when the package indexes cannot give a requirement: pip names
 * it ("No matching distribution found for attrs==23.1.0", with the versions it could see for this
 * Python), and this decides — the environment is unavailable and the verdict names the pin; or,
 * with pins relaxed (`--pins available`), the nearest version the indexes have is used and said so;
 * or an `optional` requirement (tooling no test imports) is left out and said so. Pure.
 */
import type { PinPolicy, PythonEnvironmentSpec } from "../swebench/index.js";

/** A requirement pip could not find, and the versions it listed (null when it listed none). */
export interface MissingRequirement {
  requirement: string;
  versions: string[] | null;
  /** Why no version fits, when pip said it is the Python version ("it requires Python >=3.10"). */
  python?: string;
  /** The requirement that needs it, when what is missing is a dependency ("pytest" for tomli). */
  neededBy?: string;
}

/** The requirement pip's output says it could not find, if that is why it failed. */
export function missingRequirement(output: string): MissingRequirement | undefined {
  const found =
    /Could not find a version that satisfies the requirement (.+?)(?: \(from versions: ([^)]*)\))?\s*$/m.exec(
      output,
    );
  const none = /No matching distribution found for (\S+)/.exec(output);
  // A distribution found, but only for other Pythons: `Package 'flake8' requires a different Python`.
  const python = /Package '([^']+)' requires a different Python: (\S+) not in '([^']*)'/.exec(output);
  if (!found && !none && python)
    return { requirement: python[1] as string, versions: null, python: `it requires Python ${python[3]}` };
  const requirement = (found?.[1] ?? none?.[1])?.trim();
  if (requirement === undefined) return conflictingDependency(output);
  const listed = found?.[2]?.trim();
  return {
    requirement,
    versions: listed === undefined || listed === "none" || listed === "" ? null : listed.split(/,\s*/),
  };
}

/**
 * pip's ResolutionImpossible when every candidate of a requirement needs the same dependency and no
 * version of that installs here ("pytest 9.1.1 depends on tomli>=1; python_version < \"3.11\"", for
 * each pytest): that dependency is what is missing.
 */
function conflictingDependency(output: string): MissingRequirement | undefined {
  if (!/ResolutionImpossible/.test(output)) return undefined;
  const causes = [...output.matchAll(/^\s+(\S+) \S+ depends on ([^;\s]+)/gm)].map((m) => ({
    by: m[1] as string,
    needs: m[2] as string,
  }));
  const needs = new Set(causes.map((c) => c.needs));
  if (causes.length === 0 || needs.size !== 1) return undefined;
  const by = causes[0]?.by as string;
  return { requirement: `${[...needs][0]} (which ${by} needs)`, versions: null, neededBy: by };
}

/** PEP 503's name: lower case, runs of `-`, `_`, `.` as one `-`. */
export function packageName(requirement: string): string {
  const name = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(requirement)?.[1] ?? requirement;
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/** The version a requirement pins exactly (`name==1.2.3`, `name[extra]==1.2`), or undefined. */
export function pinnedVersion(requirement: string): string | undefined {
  return /^[^=<>!~;]+==\s*([^,;\s*]+)\s*(?:;.*)?$/.exec(requirement)?.[1];
}

/** A version as numbers to compare (`2023.3.post1` → [2023, 3, 1]; pre-releases sort low). */
function versionKey(version: string): number[] {
  return version.split(/[.+-]/).map((part) => {
    const n = /^(\d+)/.exec(part);
    return n ? Number(n[1]) : /^(post|rev|r)/.test(part) ? 0 : -1;
  });
}

/**
 * The version of `versions` nearest to `pinned`: the one sharing the longest leading run of release
 * numbers with it, then the smallest step at the first number that differs; on a tie, the newer.
 */
export function nearestVersion(pinned: string, versions: readonly string[]): string | undefined {
  const want = versionKey(pinned);
  let best: { version: string; shared: number; step: number; key: number[] } | undefined;
  for (const version of versions) {
    const key = versionKey(version);
    let shared = 0;
    while (shared < want.length && shared < key.length && want[shared] === key[shared]) shared++;
    const step = Math.abs((key[shared] ?? 0) - (want[shared] ?? 0));
    const better =
      !best ||
      shared > best.shared ||
      (shared === best.shared && step < best.step) ||
      (shared === best.shared && step === best.step && compare(key, best.key) > 0);
    if (better) best = { version, shared, step, key };
  }
  return best?.version;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** What to do about one missing requirement: a changed spec and the change in words, or why not. */
export type PinDecision =
  | { spec: PythonEnvironmentSpec; change: string; relaxed: boolean }
  | { unavailable: string };

/** The decision for `missing` in `spec`'s requirement groups under `policy`. */
export function decideMissing(
  spec: PythonEnvironmentSpec,
  missing: MissingRequirement,
  policy: PinPolicy,
  python: string,
): PinDecision {
  const name = packageName(missing.requirement);
  const have = missing.versions
    ? `the indexes have ${missing.versions.join(", ")} for Python ${python}`
    : missing.python
      ? `the version the indexes have does not install on Python ${python}: ${missing.python}`
      : `the indexes have no version of it for Python ${python}`;
  const groups = spec.packages ?? [];
  const find = (n: string) =>
    groups.flatMap((g, gi) => g.map((r, ri) => ({ r, gi, ri }))).find((x) => packageName(x.r) === n);
  const optional = (n: string) => (spec.optional ?? []).some((o) => packageName(o) === n);
  // A dependency that cannot be had, of a requirement the tests do without: leave that requirement out.
  // (A decision recorded before neededBy existed still names it in the requirement's words.)
  const neededBy = missing.neededBy ?? /\(which (\S+) needs\)$/.exec(missing.requirement)?.[1];
  const needer = neededBy !== undefined ? find(packageName(neededBy)) : undefined;
  if (!find(name) && needer && neededBy !== undefined && optional(packageName(neededBy)))
    return {
      spec: {
        ...spec,
        packages: groups
          .map((g, gi) => (gi !== needer.gi ? g : g.filter((_, ri) => ri !== needer.ri)))
          .filter((g) => g.length > 0),
      },
      change: `${needer.r} left out: it needs ${missing.requirement.replace(/ \(which .*\)$/, "")}, which cannot be installed (${have}), and no test imports it`,
      relaxed: false,
    };
  // The requirement that needs it is gone already, and others pull it in again (pytest's plugins pull
  // pytest): every requirement the tests do without is left out at once.
  const optionals = groups.flat().filter((r) => optional(packageName(r)));
  if (!find(name) && neededBy !== undefined && !needer && optionals.length > 0)
    return {
      spec: {
        ...spec,
        packages: groups.map((g) => g.filter((r) => !optional(packageName(r)))).filter((g) => g.length > 0),
      },
      change: `${optionals.join(", ")} left out: one of them needs ${neededBy}, which needs ${missing.requirement.replace(/ \(which .*\)$/, "")}, which cannot be installed (${have}), and no test imports them`,
      relaxed: false,
    };
  const at = find(name);
  if (!at)
    return {
      unavailable: `${missing.requirement.includes("(which") ? missing.requirement : `${missing.requirement}, which the environment's packages or install line need,`} cannot be installed: ${have}`,
    };
  const replace = (next: string | null): PythonEnvironmentSpec => ({
    ...spec,
    packages: groups
      .map((g, gi) =>
        gi !== at.gi ? g : g.flatMap((r, ri) => (ri !== at.ri ? [r] : next === null ? [] : [next])),
      )
      .filter((g) => g.length > 0),
  });
  if (optional(name))
    return {
      spec: replace(null),
      change: `${at.r} left out: ${have}, and the row's tests do not import it`,
      relaxed: false,
    };
  const pinned = pinnedVersion(at.r);
  if (policy === "exact")
    return {
      unavailable: pinned
        ? `pin ${at.r} is not in the package indexes: ${have} (--pins available takes the nearest)`
        : `${at.r} is not in the package indexes: ${have}`,
    };
  const nearest = missing.versions
    ? nearestVersion(pinned ?? missing.versions.at(-1) ?? "0", missing.versions)
    : undefined;
  if (nearest === undefined) return { unavailable: `${at.r} is not in the package indexes: ${have}` };
  const used = `${at.r.split(/[=<>!~;[\s]/)[0]}==${nearest}`;
  return { spec: replace(used), change: `${at.r} → ${used} (pins relaxed)`, relaxed: true };
}
