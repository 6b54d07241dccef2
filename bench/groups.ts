/** Every group `npm run bench <name>` accepts; with no name all of them run, in this order. */
export const BENCHMARKS: readonly string[] = [
  "overhead",
  "file",
  "search",
  "workspace",
  "code",
  "sandbox",
  "runsc",
  "grading",
  "cua",
  "cua-folder",
  "builders",
  "experiment",
  "report",
  "scale",
  "bon",
  "agent",
];
