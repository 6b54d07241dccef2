export { type EvictReason, LruCache, type LruOptions, type LruStats } from "./lru.ts";
export { type Memoized, type MemoizeOptions, memoize } from "./memoize.ts";
