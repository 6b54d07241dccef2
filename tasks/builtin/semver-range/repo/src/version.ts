/**
 * Semantic versions (https://semver.org, version 2.0.0): parsing, precedence, increments.
 */

/** A parsed version. Prerelease and build identifiers are kept as the strings they were written as. */
export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly prerelease: readonly string[];
  readonly build: readonly string[];
}

export type ReleaseType = "major" | "minor" | "patch" | "prerelease";

/** Thrown for text that is not a version or a range, with the offending text in the message. */
export class SemverError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SemverError";
  }
}

const NUMBER = "0|[1-9]\\d*";
const PRE_ID = `(?:${NUMBER}|\\d*[A-Za-z-][0-9A-Za-z-]*)`;
const VERSION = new RegExp(
  `^[v=]?(${NUMBER})\\.(${NUMBER})\\.(${NUMBER})` +
    `(?:-(${PRE_ID}(?:\\.${PRE_ID})*))?` +
    `(?:\\+([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?$`,
);
const NUMERIC = /^\d+$/;

/** Parse a version such as "1.4.0-rc.1+build.7"; a leading "v" or "=" is allowed. */
export function parse(text: string): Version {
  const match = VERSION.exec(text.trim());
  if (match === null) {
    throw new SemverError(`invalid version: ${JSON.stringify(text)}`);
  }
  const [, major, minor, patch, pre, build] = match;
  return {
    major: Number(major),
    minor: Number(minor),
    patch: Number(patch),
    prerelease: pre === undefined ? [] : pre.split("."),
    build: build === undefined ? [] : build.split("."),
  };
}

/** True if the text parses as a version. */
export function valid(text: string): boolean {
  return VERSION.test(text.trim());
}

/** The canonical text of a version: no leading "v", build metadata kept. */
export function format(version: Version): string {
  let text = `${version.major}.${version.minor}.${version.patch}`;
  if (version.prerelease.length > 0) text += `-${version.prerelease.join(".")}`;
  if (version.build.length > 0) text += `+${version.build.join(".")}`;
  return text;
}

function toVersion(v: string | Version): Version {
  return typeof v === "string" ? parse(v) : v;
}

function compareNumbers(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Precedence of two prerelease identifiers: numeric ones sort before alphanumeric ones. */
function compareIdentifiers(a: string, b: string): number {
  const aNumeric = NUMERIC.test(a);
  const bNumeric = NUMERIC.test(b);
  if (aNumeric !== bNumeric) return aNumeric ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparePrerelease(a: readonly string[], b: readonly string[]): number {
  // A version without a prerelease outranks any prerelease of the same core version.
  if (a.length === 0 || b.length === 0) return compareNumbers(b.length, a.length);
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) {
    const order = compareIdentifiers(a[i] as string, b[i] as string);
    if (order !== 0) return order;
  }
  // Equal so far: the version with more identifiers is the later one.
  return compareNumbers(a.length, b.length);
}

/**
 * -1, 0 or 1 as a has lower, equal or higher precedence than b.
 * Build metadata never affects precedence.
 */
export function compare(a: string | Version, b: string | Version): -1 | 0 | 1 {
  const x = toVersion(a);
  const y = toVersion(b);
  const order =
    compareNumbers(x.major, y.major) ||
    compareNumbers(x.minor, y.minor) ||
    compareNumbers(x.patch, y.patch) ||
    comparePrerelease(x.prerelease, y.prerelease);
  return order as -1 | 0 | 1;
}

export const lt = (a: string | Version, b: string | Version): boolean => compare(a, b) < 0;
export const gt = (a: string | Version, b: string | Version): boolean => compare(a, b) > 0;
export const eq = (a: string | Version, b: string | Version): boolean => compare(a, b) === 0;

/** A new array of the versions in ascending precedence; equal versions keep their order. */
export function sort(versions: readonly string[]): string[] {
  return [...versions].sort(compare);
}

/**
 * The next version of the given kind.
 *
 * "major", "minor" and "patch" bump that field and drop any prerelease, except that a
 * prerelease of exactly that release just loses its tag ("2.0.0-rc.1" -> major -> "2.0.0").
 * "prerelease" bumps the last numeric identifier ("1.0.0-rc.1" -> "1.0.0-rc.2"), appends
 * ".0" if there is none, or starts "<patch + 1>-<preid>.0" on a release. A preid that
 * differs from the current one restarts the count at 0.
 */
export function inc(version: string | Version, release: ReleaseType, preid?: string): string {
  const v = toVersion(version);
  const isPre = v.prerelease.length > 0;
  const core = (major: number, minor: number, patch: number): Version => ({
    major,
    minor,
    patch,
    prerelease: [],
    build: [],
  });
  switch (release) {
    case "major":
      return format(isPre && v.minor === 0 && v.patch === 0 ? core(v.major, 0, 0) : core(v.major + 1, 0, 0));
    case "minor":
      return format(isPre && v.patch === 0 ? core(v.major, v.minor, 0) : core(v.major, v.minor + 1, 0));
    case "patch":
      return format(isPre ? core(v.major, v.minor, v.patch) : core(v.major, v.minor, v.patch + 1));
    case "prerelease": {
      if (!isPre) {
        const prerelease = preid === undefined ? ["0"] : [preid, "0"];
        return format({ ...core(v.major, v.minor, v.patch + 1), prerelease });
      }
      if (preid !== undefined && v.prerelease[0] !== preid) {
        return format({ ...core(v.major, v.minor, v.patch), prerelease: [preid, "0"] });
      }
      const ids = [...v.prerelease];
      const last = ids.findLastIndex((id) => NUMERIC.test(id));
      if (last === -1) ids.push("0");
      else ids[last] = String(Number(ids[last]) + 1);
      return format({ ...core(v.major, v.minor, v.patch), prerelease: ids });
    }
  }
}
