/**
 * Which repositories the user trusts to run their own hooks and grant their own allow rules:
 * `trusted.json` in the config folder, keyed by each repository's real path (symlinks resolved, so a
 * link to a trusted repository is that repository). Trusting a folder trusts everything inside it —
 * a monorepo's packages, a repository's sub-folder started from — because whoever can write the
 * sub-folder's settings could write the parent's too. A parent is not trusted by a child's entry.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { z } from "zod";

const TrustFile = z.record(z.string(), z.object({ trusted: z.boolean(), at: z.string() }));
type TrustEntries = z.infer<typeof TrustFile>;

export class TrustStoreError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(
      `${file}: ${problem} — fix it or delete it (every repository is then untrusted until \`acilab agent trust\`)`,
    );
    this.name = "TrustStoreError";
  }
}

/** A path's real path, or its absolute form when it does not exist (yet): nothing to resolve. */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function inside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !rel.startsWith("/"));
}

export class TrustStore {
  readonly file: string;

  constructor(readonly configDir: string) {
    this.file = join(configDir, "trusted.json");
  }

  private read(): TrustEntries {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw new TrustStoreError(this.file, `cannot be read (${(error as Error).message})`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new TrustStoreError(this.file, `is not valid JSON (${(error as Error).message})`);
    }
    const parsed = TrustFile.safeParse(json);
    if (!parsed.success)
      throw new TrustStoreError(
        this.file,
        'is not a trust list ({"/path/to/repo": {"trusted": true, "at": "2026-01-01T00:00:00.000Z"}})',
      );
    return parsed.data;
  }

  /** Write-then-rename, so a crash or a second writer never leaves a half-written list behind. */
  private write(entries: TrustEntries): void {
    mkdirSync(this.configDir, { recursive: true });
    const tmp = `${this.file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      writeFileSync(tmp, `${JSON.stringify(entries, null, 2)}\n`, { mode: 0o600 });
      renameSync(tmp, this.file);
    } finally {
      rmSync(tmp, { force: true });
    }
  }

  /** The trusted entry that covers `repo` (itself or a folder it is in), if any. */
  trustedBy(repo: string): string | undefined {
    const path = real(repo);
    return Object.entries(this.read())
      .filter(([p, e]) => e.trusted && inside(path, p))
      .map(([p]) => p)
      .sort((a, b) => b.length - a.length)[0];
  }

  isTrusted(repo: string): boolean {
    return this.trustedBy(repo) !== undefined;
  }

  /** Trust `repo` (by its real path); returns the path recorded. */
  trust(repo: string, now: Date = new Date()): string {
    const path = real(repo);
    const entries = this.read();
    entries[path] = { trusted: true, at: now.toISOString() };
    this.write(entries);
    return path;
  }

  /**
   * Forget `repo`'s own entry. Returns false when it had none; it may still be trusted through a
   * folder it is in (`trustedBy` says which).
   */
  revoke(repo: string): boolean {
    const path = real(repo);
    const entries = this.read();
    if (!(path in entries)) return false;
    delete entries[path];
    this.write(entries);
    return true;
  }

  list(): Array<{ path: string; at: string }> {
    return Object.entries(this.read())
      .filter(([, e]) => e.trusted)
      .map(([path, e]) => ({ path, at: e.at }))
      .sort((a, b) => a.path.localeCompare(b.path));
  }
}
