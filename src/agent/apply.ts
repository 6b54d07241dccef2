/**
 * The only write to the user's real tree: the session's changes, applied when the user says so, and
 * only if every file they touch is still as it was when the session started. Otherwise nothing is
 * written, the conflicting files are named, and the patch stays in the session for later.
 */
import { existsSync, lstatSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Checkout, git } from "../workspace/index.js";

export interface ApplyConflictFile {
  path: string;
  /** What changed in the real tree meanwhile. */
  why:
    | "changed since the session started"
    | "created since the session started"
    | "deleted since the session started";
}

export class ApplyConflict extends Error {
  override name = "ApplyConflict";
  constructor(
    readonly files: ApplyConflictFile[],
    readonly patchFile: string,
  ) {
    const listed = files.map((f) => `  ${f.path}: ${f.why}`).join("\n");
    super(
      `not applied: ${files.length} file(s) the agent changed were also changed in your tree while it worked:\n${listed}\n` +
        `Nothing was written. The agent's changes are kept in ${patchFile}; merge them yourself ` +
        `(git apply --3way ${patchFile}) or put those files back and apply again.`,
    );
  }
}

/** What the session changed, for the user to look at: the patch and its files. */
export interface SessionChanges {
  patch: string;
  files: string[];
}

export async function sessionChanges(checkout: Checkout): Promise<SessionChanges> {
  const [{ diff }, changed] = await Promise.all([checkout.patch(), checkout.diff()]);
  return { patch: diff, files: [...changed.added, ...changed.modified, ...changed.deleted].sort() };
}

/**
 * Apply the changes to `repo`. `baseDir` holds the tree as the session found it; a file whose real
 * state differs from it is a conflict. The patch is written to `patchFile` first, whatever happens.
 */
export async function applyToTree(
  ws: { repo: string; baseDir: string; checkout: Checkout },
  patchFile: string,
): Promise<string[]> {
  const changes = await sessionChanges(ws.checkout);
  writeFileSync(patchFile, changes.patch);
  if (changes.patch === "") return [];
  const conflicts = changes.files.flatMap((path) => {
    const why = drift(join(ws.baseDir, path), join(ws.repo, path));
    return why ? [{ path, why }] : [];
  });
  if (conflicts.length > 0) throw new ApplyConflict(conflicts, patchFile);
  // A plain folder inside someone else's repository: paths are the folder's, so git must not climb.
  const env = existsSync(join(ws.repo, ".git")) ? {} : { GIT_CEILING_DIRECTORIES: dirname(ws.repo) };
  // --check first: a patch git would apply only in part is refused whole, before anything is written.
  await git(ws.repo, ["apply", "--check", "--binary", "--whitespace=nowarn", patchFile], { env });
  await git(ws.repo, ["apply", "--binary", "--whitespace=nowarn", patchFile], { env });
  return changes.files;
}

/** How the real file moved away from the base, or undefined when it is as it was. */
function drift(base: string, real: string): ApplyConflictFile["why"] | undefined {
  const b = lstatSync(base, { throwIfNoEntry: false });
  const r = lstatSync(real, { throwIfNoEntry: false });
  if (!b && !r) return undefined;
  if (!b) return "created since the session started";
  if (!r) return "deleted since the session started";
  if (b.isSymbolicLink() || r.isSymbolicLink())
    return b.isSymbolicLink() === r.isSymbolicLink() ? undefined : "changed since the session started";
  if (!b.isFile() || !r.isFile())
    return b.isFile() === r.isFile() ? undefined : "changed since the session started";
  if (b.size !== r.size) return "changed since the session started";
  return readFileSync(base).equals(readFileSync(real)) ? undefined : "changed since the session started";
}
