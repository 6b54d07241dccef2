import { patchPaths } from "../swebench/index.js";

/**
 * Refuse what no strategy may do: write inside .git (every spelling — C-quoted `\\056git`, `./.git`,
 * a nested repository's `sub/.git`), or carry a binary change git cannot apply for want of content.
 * The checkout's .git is read-only in the grading sandbox as well; this says why up front.
 */
export function patchProblem(patch: string): string | undefined {
  const intoGit = patchPaths(patch).find((p) =>
    p
      .split("/")
      .filter((part) => part !== "" && part !== ".")
      .some((part) => part === ".git"),
  );
  if (intoGit) return `the patch writes inside .git (${intoGit}); a patch may change only the work tree`;
  if (/^Binary files .* differ$/m.test(patch))
    return 'the patch has a binary change without its content ("Binary files … differ"); make it with git diff --binary';
  return undefined;
}
