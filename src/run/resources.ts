/**
 * What a run holds until it ends — a checkout, a sandbox, an abort listener — released in reverse
 * order, each exactly once, however the run ends. A resource can be released early (the sandbox goes
 * before the host reads the workspace) and is then not released again.
 */
type Release = () => Promise<void> | void;

export class Resources {
  private readonly held: Array<{ key: unknown; release: Release }> = [];

  /** Keep `value` until the end (or `release(value)`); returns it. */
  hold<T>(value: T, release: (value: T) => Promise<void> | void): T {
    this.held.push({ key: value, release: () => release(value) });
    return value;
  }

  /** Run `release` at the end. */
  defer(release: Release): void {
    this.held.push({ key: release, release });
  }

  /** Release a held value now, before the rest. */
  async release(value: unknown): Promise<void> {
    const at = this.held.findIndex((h) => h.key === value);
    if (at < 0) return;
    const [entry] = this.held.splice(at, 1);
    await entry?.release();
  }

  /** Release everything still held, newest first. Every release runs; the first failure is thrown after. */
  async dispose(): Promise<void> {
    let failure: unknown;
    while (this.held.length > 0) {
      const entry = this.held.pop();
      try {
        await entry?.release();
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure !== undefined) throw failure;
  }
}
