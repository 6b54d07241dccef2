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
  "swebench",
  "cua",
  "builders",
  "experiment",
  "report",
  "scale",
  "bon",
  "agent",
];
