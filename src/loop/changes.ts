import { dirtyPaths } from "../workspace/index.js";

/**
 * Which files a turn changed. Edit tools report their own writes; a shell command can write anything,
 * so after each command we ask git which paths became dirty since the last look. One `git status` per
 * command (not per step): spawning git from node costs 10–25 ms here, so read-only steps pay nothing.
 * A file that was already dirty and is changed again by a command is not reported a second time.
 */
export class ChangeTracker {
  private known = new Set<string>();

  /** `gitDir`: a repository the host trusts for this workspace (see ToolContext.gitDir). */
  constructor(
    private readonly root: string,
    private readonly gitDir?: string,
  ) {}

  /** Record paths an edit tool wrote, so a later command is not credited with them. */
  noteEdited(paths: readonly string[]): void {
    for (const p of paths) this.known.add(p);
  }

  /** Paths that became dirty since the last call. Returns [] if git cannot tell (not a repository). */
  async afterCommand(): Promise<string[]> {
    const now = await dirtyPaths(this.root, this.gitDir).catch(() => undefined);
    if (!now) return [];
    const fresh = [...now].filter((p) => !this.known.has(p));
    this.known = new Set([...this.known, ...now]);
    return fresh;
  }
}
