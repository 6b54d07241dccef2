/**
 * The test directives SWE-bench appends to a repository's test command: the files the test patch
 * touches (`diff --git a/… b/PATH`, the b side), less data files, in the patch's order; for Django,
 * each as a dotted module below tests/ (`tests/a/b.py` → `a.b`), which is what runtests.py takes.
 */

/** SWE-bench's NON_TEST_EXTS: endings of files that are data, not tests (`csv` has no dot there). */
const NOT_TESTS = [".json", ".png", "csv", ".txt", ".md", ".jpg", ".jpeg", ".pkl", ".yml", ".yaml", ".toml"];

export type DirectiveStyle = "files" | "django-modules";

export function testDirectives(testPatch: string, style: DirectiveStyle): string[] {
  // SWE-bench's `diff --git a/.* b/(.*)`: greedy, so the b path is what follows the last " b/".
  const files = [...testPatch.matchAll(/diff --git a\/.* b\/(.*)/g)]
    .map((m) => m[1] as string)
    .filter((path) => !NOT_TESTS.some((ext) => path.endsWith(ext)));
  if (style === "files") return files;
  return files.map((path) => {
    let d = path.endsWith(".py") ? path.slice(0, -3) : path;
    if (d.startsWith("tests/")) d = d.slice("tests/".length);
    return d.replaceAll("/", ".");
  });
}
