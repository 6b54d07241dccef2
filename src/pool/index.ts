/**
 * The one worker pool: run `work` on each item with at most `workers` at once, in order of the
 * items, starting nothing new once `signal` fires (what is running finishes or is aborted by its own
 * use of the signal). Used by `acilab suite` (tasks) and `acilab grade` (instances); p-limit does the
 * counting.
 */
import pLimit from "p-limit";

export async function forEachLimited<T>(
  items: readonly T[],
  options: { workers: number; signal?: AbortSignal },
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  const limit = pLimit(Math.max(1, Math.floor(options.workers)));
  await Promise.all(
    items.map((item, index) =>
      limit(async () => {
        if (!options.signal?.aborted) await work(item, index);
      }),
    ),
  );
}
