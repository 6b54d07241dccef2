import { LruCache } from "./lru.ts";

export interface MemoizeOptions<A extends unknown[]> {
  /** Most results kept; default 100. */
  maxSize?: number;
  /** Forget a result this many milliseconds after it was computed. */
  ttlMs?: number;
  /** Clock for the ttl, for tests. */
  now?: () => number;
  /**
   * Cache key for a call. The default uses a single primitive argument as it is and
   * JSON.stringify(args) for anything else.
   */
  key?: (...args: A) => unknown;
}

export type Memoized<A extends unknown[], R> = ((...args: A) => R) & { readonly cache: LruCache<unknown, R> };

function defaultKey(...args: unknown[]): unknown {
  const [first] = args;
  const primitive = first === null || (typeof first !== "object" && typeof first !== "function");
  return args.length === 1 && primitive ? first : JSON.stringify(args);
}

/**
 * Wrap fn so that calls with the same key return the cached result. Results are kept in an
 * LruCache, so the least recently used ones are forgotten first. Thrown errors are not cached.
 */
export function memoize<A extends unknown[], R>(fn: (...args: A) => R, options: MemoizeOptions<A> = {}): Memoized<A, R> {
  const cache = new LruCache<unknown, R>({
    maxSize: options.maxSize ?? 100,
    ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const keyOf = options.key ?? (defaultKey as (...args: A) => unknown);
  const memoized = (...args: A): R => {
    const key = keyOf(...args);
    if (cache.has(key)) return cache.get(key) as R;
    const result = fn(...args);
    cache.set(key, result);
    return result;
  };
  return Object.assign(memoized, { cache });
}
