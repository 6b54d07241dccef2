/**
 * Ranges in the npm style: comparators (">=1.2.3 <2.0.0"), caret and tilde ranges, x-ranges,
 * hyphen ranges and alternatives joined by "||".
 */
import { compare, parse, SemverError, type Version, valid } from "./version.ts";

type Operator = "<" | "<=" | ">" | ">=" | "=";

export interface Comparator {
  readonly operator: Operator;
  readonly version: Version;
}

/** Alternatives of comparator sets; a version matches a set when it passes every comparator in it. */
export type Range = readonly (readonly Comparator[])[];

export interface MatchOptions {
  /** Let prerelease versions match any set they fall into, not only sets that name one. */
  includePrerelease?: boolean;
}

const OPERATOR = /^(<=|>=|<|>|=)/;
const PARTIAL = /^[v=]?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?$/;
const HYPHEN = /^(\S+)\s+-\s+(\S+)$/;

const isWild = (part: string | undefined): boolean => part === undefined || /^[xX*]$/.test(part);

function bound(operator: Operator, major: number, minor: number, patch: number, pre: string[] = []): Comparator {
  return { operator, version: { major, minor, patch, prerelease: pre, build: [] } };
}

/** An exclusive upper bound that also keeps out the prereleases of that version. */
const below = (major: number, minor: number, patch: number): Comparator => bound("<", major, minor, patch, ["0"]);

function parseComparators(token: string): Comparator[] {
  const op = OPERATOR.exec(token);
  if (op !== null) {
    return [{ operator: op[1] as Operator, version: parse(token.slice(op[1]!.length)) }];
  }
  const kind = token[0] === "^" || token[0] === "~" ? token[0] : "";
  const body = token.slice(kind.length);
  if (valid(body)) {
    const v = parse(body);
    if (kind === "") return [{ operator: "=", version: v }];
    return expand(kind, v.major, v.minor, v.patch, v);
  }
  const partial = PARTIAL.exec(body);
  if (partial === null) throw new SemverError(`invalid comparator: ${JSON.stringify(token)}`);
  const [, m, n, p] = partial;
  if (isWild(m)) return [];
  const major = Number(m);
  const minor = isWild(n) ? undefined : Number(n);
  const patch = isWild(p) ? undefined : Number(p);
  return expand(kind, major, minor, patch);
}

/** Turn "^", "~" or a bare partial version into a lower and an upper bound. */
function expand(kind: string, major: number, minor?: number, patch?: number, exact?: Version): Comparator[] {
  const low: Comparator = exact ? { operator: ">=", version: exact } : bound(">=", major, minor ?? 0, patch ?? 0);
  if (kind === "^") {
    if (minor === undefined || major > 0) return [low, below(major + 1, 0, 0)];
    if (patch === undefined || minor > 0) return [low, below(0, minor + 1, 0)];
    return [low, below(0, 0, patch + 1)];
  }
  if (minor === undefined) return [low, below(major + 1, 0, 0)];
  if (kind === "~" || patch === undefined) return [low, below(major, minor + 1, 0)];
  return [{ operator: "=", version: low.version }];
}

/** Parse range text; throws SemverError if any part of it is malformed. */
export function parseRange(text: string): Range {
  return text.split("||").map((alternative) => {
    const set = alternative.trim().replace(/(<=|>=|<|>|=|\^|~)\s+/g, "$1");
    const hyphen = HYPHEN.exec(set);
    if (hyphen !== null) {
      return [
        { operator: ">=", version: parse(hyphen[1]!) },
        { operator: "<=", version: parse(hyphen[2]!) },
      ] satisfies Comparator[];
    }
    return set === "" ? [] : set.split(/\s+/).flatMap(parseComparators);
  });
}

function passes(c: Comparator, v: Version): boolean {
  const order = compare(v, c.version);
  switch (c.operator) {
    case "<":
      return order < 0;
    case "<=":
      return order <= 0;
    case ">":
      return order > 0;
    case ">=":
      return order >= 0;
    case "=":
      return order === 0;
  }
}

function matchesSet(set: readonly Comparator[], v: Version, options: MatchOptions): boolean {
  if (!set.every((c) => passes(c, v))) return false;
  if (v.prerelease.length === 0 || options.includePrerelease) return true;
  // By default a prerelease only matches a set that names a prerelease of the same
  // major.minor.patch, so "^1.2.0" never pulls in "1.3.0-beta" by accident.
  return set.some(
    (c) =>
      c.version.prerelease.length > 0 &&
      c.version.major === v.major &&
      c.version.minor === v.minor &&
      c.version.patch === v.patch,
  );
}

/** True if the version falls within the range. */
export function satisfies(version: string | Version, range: string | Range, options: MatchOptions = {}): boolean {
  const v = typeof version === "string" ? parse(version) : version;
  const sets = typeof range === "string" ? parseRange(range) : range;
  return sets.some((set) => matchesSet(set, v, options));
}

function pick(versions: readonly string[], range: string, options: MatchOptions, sign: 1 | -1): string | null {
  const sets = parseRange(range);
  let best: string | null = null;
  for (const candidate of versions) {
    if (!valid(candidate) || !satisfies(candidate, sets, options)) continue;
    if (best === null || compare(candidate, best) === sign) best = candidate;
  }
  return best;
}

/** The highest version in the list that satisfies the range, or null. Invalid entries are skipped. */
export function maxSatisfying(versions: readonly string[], range: string, options: MatchOptions = {}): string | null {
  return pick(versions, range, options, 1);
}

/** The lowest version in the list that satisfies the range, or null. Invalid entries are skipped. */
export function minSatisfying(versions: readonly string[], range: string, options: MatchOptions = {}): string | null {
  return pick(versions, range, options, -1);
}
