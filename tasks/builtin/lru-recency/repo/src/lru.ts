/**
 * A least-recently-used cache. It holds at most `maxSize` entries; adding one more evicts the
 * entry that was used longest ago. Reading with `get` and writing with `set` both count as a use;
 * `peek` and `has` look without touching the order.
 */

export type EvictReason = "capacity" | "expired";

export interface LruOptions<K, V> {
  /** Most entries held at once; a positive integer. */
  maxSize: number;
  /** If set, an entry expires this many milliseconds after it was last written. */
  ttlMs?: number;
  /** Clock in milliseconds, for tests; defaults to Date.now. */
  now?: () => number;
  /** Called for every entry the cache drops by itself (not for delete or clear). */
  onEvict?: (key: K, value: V, reason: EvictReason) => void;
}

export interface LruStats {
  hits: number;
  misses: number;
  evictions: number;
}

interface Entry<V> {
  value: V;
  /** Clock time after which the entry is dead; Infinity without a ttl. */
  expiresAt: number;
}

export class LruCache<K, V> {
  readonly maxSize: number;
  readonly #ttlMs: number | undefined;
  readonly #now: () => number;
  readonly #onEvict: LruOptions<K, V>["onEvict"];
  /** Map iteration order is insertion order: the first entry is the least recently used. */
  readonly #entries = new Map<K, Entry<V>>();
  readonly #stats: LruStats = { hits: 0, misses: 0, evictions: 0 };

  constructor(options: LruOptions<K, V>) {
    if (!Number.isInteger(options.maxSize) || options.maxSize < 1) {
      throw new RangeError(`maxSize must be a positive integer, got ${options.maxSize}`);
    }
    if (options.ttlMs !== undefined && !(options.ttlMs > 0)) {
      throw new RangeError(`ttlMs must be a positive number, got ${options.ttlMs}`);
    }
    this.maxSize = options.maxSize;
    this.#ttlMs = options.ttlMs;
    this.#now = options.now ?? Date.now;
    this.#onEvict = options.onEvict;
  }

  /** Number of entries that have not expired. */
  get size(): number {
    this.prune();
    return this.#entries.size;
  }

  #expired(entry: Entry<V>): boolean {
    return this.#now() >= entry.expiresAt;
  }

  #drop(key: K, entry: Entry<V>, reason: EvictReason): void {
    this.#entries.delete(key);
    this.#stats.evictions++;
    this.#onEvict?.(key, entry.value, reason);
  }

  /** The value for key, marking it as the most recently used; undefined if absent or expired. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || this.#expired(entry)) {
      if (entry !== undefined) this.#drop(key, entry, "expired");
      this.#stats.misses++;
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.#stats.hits++;
    return entry.value;
  }

  /** The value for key without marking it as used. */
  peek(key: K): V | undefined {
    const entry = this.#entries.get(key);
    return entry === undefined || this.#expired(entry) ? undefined : entry.value;
  }

  /** Whether key has a live entry; does not mark it as used. */
  has(key: K): boolean {
    const entry = this.#entries.get(key);
    return entry !== undefined && !this.#expired(entry);
  }

  /** Store value under key as the most recently used entry, evicting the least recent if full. */
  set(key: K, value: V): this {
    const expiresAt = this.#ttlMs === undefined ? Infinity : this.#now() + this.#ttlMs;
    const existing = this.#entries.get(key);
    if (existing !== undefined) {
      existing.value = value;
      existing.expiresAt = expiresAt;
      return this;
    }
    this.#entries.set(key, { value, expiresAt });
    if (this.#entries.size > this.maxSize) {
      this.prune();
    }
    while (this.#entries.size > this.maxSize) {
      const [oldestKey, oldest] = this.#entries.entries().next().value as [K, Entry<V>];
      this.#drop(oldestKey, oldest, "capacity");
    }
    return this;
  }

  /** Remove key; true if it had a live entry. */
  delete(key: K): boolean {
    const live = this.has(key);
    this.#entries.delete(key);
    return live;
  }

  /** Remove every entry. Statistics are kept. */
  clear(): void {
    this.#entries.clear();
  }

  /** Drop every expired entry now and return how many there were. */
  prune(): number {
    let dropped = 0;
    for (const [key, entry] of this.#entries) {
      if (this.#expired(entry)) {
        this.#drop(key, entry, "expired");
        dropped++;
      }
    }
    return dropped;
  }

  /** Live keys, most recently used first. */
  keys(): K[] {
    return this.entries().map(([key]) => key);
  }

  /** Live [key, value] pairs, most recently used first. */
  entries(): [K, V][] {
    const live: [K, V][] = [];
    for (const [key, entry] of this.#entries) {
      if (!this.#expired(entry)) live.push([key, entry.value]);
    }
    return live.reverse();
  }

  /** A copy of the hit, miss and eviction counters. */
  stats(): LruStats {
    return { ...this.#stats };
  }
}
