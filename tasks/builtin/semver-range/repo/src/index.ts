export { type Comparator, type MatchOptions, maxSatisfying, minSatisfying, parseRange, type Range, satisfies } from "./range.ts";
export { compare, eq, format, gt, inc, lt, parse, type ReleaseType, SemverError, sort, valid, type Version } from "./version.ts";
