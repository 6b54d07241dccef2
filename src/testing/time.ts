/**
 * Time in tests. The suite runs on busy 2-core machines, and a test must never fail because the
 * machine is slow: every limit a test sets is either the thing under test (a short timeout the test
 * expects to fire — load only makes it fire more surely) or a hang guard far above any honest
 * duration. Speed targets live in the benchmarks (npm run bench), never here.
 */

/**
 * Timeout of a command, request or worker start a test merely waits on. The slowest honest one (a
 * sandboxed test suite) takes ~5 s on a quiet machine: 120 s survives a machine twenty times slower,
 * and a real hang still fails.
 */
export const HANG_GUARD_MS = 120_000;

/**
 * vitest's own limit per test and per hook (vitest.config.ts). Above HANG_GUARD_MS, so a hung command
 * is reported by its own guard, with its output, before vitest gives up on the test.
 */
export const TEST_HANG_GUARD_MS = 300_000;

/**
 * `expect.poll` / `vi.waitFor` options for something bound to happen soon (a page paints, a killed
 * process is reaped): their 1 s default is a wall-clock bound that load breaks.
 */
export const EVENTUALLY = { timeout: 60_000, interval: 50 } as const;

/** How much longer each attempt of `startedBeforeTimeout` may take than the one before. */
const TIMEOUT_GROWTH = 4;

/**
 * Run something a short timeout must cut off after it got going (it prints "started", then sleeps).
 * On a busy machine the timeout can fire before the program even started, which proves nothing, so
 * an attempt that did not start is repeated with a four times longer timeout, up to HANG_GUARD_MS.
 * Returns the first attempt that started, or the last one (whose assertions then fail, rightly).
 */
export async function startedBeforeTimeout<R>(
  firstTimeoutMs: number,
  run: (timeoutMs: number) => Promise<R>,
  started: (result: R) => boolean,
): Promise<R> {
  for (let timeoutMs = firstTimeoutMs; ; timeoutMs *= TIMEOUT_GROWTH) {
    const result = await run(Math.min(timeoutMs, HANG_GUARD_MS));
    if (started(result) || timeoutMs >= HANG_GUARD_MS) return result;
  }
}
