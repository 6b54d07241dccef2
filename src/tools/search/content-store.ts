import { countLines, lastAtOrBefore, readFile } from "./bytes.js";
import { MAX_ON_DEMAND_BYTES, MAX_STORED_FILE_BYTES } from "./index-limits.js";
import {
  FILE_HAS_NUL,
  FILE_UNREADABLE,
  FILE_UNSTORED,
  FILE_UTF16_BOM,
  type ReadResult,
} from "./watch-protocol.js";

/** Where one file's bytes are: slot `slot` of segment `segment`, a buffer of its own, or only on disk. */
interface Entry {
  flags: number;
  segment: number;
  slot: number;
  own?: Buffer;
}

/** The files packed into one buffer: slot `i` holds `owners[i]` in `[starts[i], ends[i])`. */
interface Segment {
  bytes: Buffer;
  starts: Int32Array;
  ends: Int32Array;
  owners: string[];
  /** 0 once the file was dropped (changed or deleted): its bytes are stale and must not match. */
  live: Uint8Array;
  /** 1 where the file holds a NUL byte: rg treats it as binary, which a byte scan cannot mirror. */
  binary: Uint8Array;
}

/** What a scan found among the files a query may search. */
export type ScanResult =
  /** Some file the query must search is one we cannot judge from raw bytes: let rg do it. */
  | { kind: "unsure"; why: string }
  /**
   * `files` files contain a literal; with counting, `lines` of their lines contain `literals[0]`.
   * `paths` lists them (built on demand: a flood is only counted).
   */
  | { kind: "hits"; files: number; lines: number; paths: () => string[] };

const parentOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf("/")));

/**
 * Literals whose hits are remembered. Agents repeat and refine searches; each entry costs 8 bytes per
 * file containing the literal (400 KB for a word in every other file of a 100,000-file tree).
 */
const MAX_CACHED_LITERALS = 32;

/**
 * The files a query may search: the paths of one listing (an object that keeps its identity while it
 * changes, with a version and a log of the directories whose membership changed), narrowed by `keep`.
 */
export interface Universe {
  key: object;
  version: number;
  changedSince(version: number): readonly string[] | "all";
  has(path: string): boolean;
  keep?: (path: string) => boolean;
}

/**
 * Where one literal occurs in one segment: the slots holding it and, per slot, the lines holding it.
 * Segment bytes never change (a changed file's slot is only marked dead), so this stays true.
 */
interface SegmentHits {
  slots: Int32Array;
  lines: Int32Array;
}

/** Per universe, per segment slot: 0 not yet known, 1 a member, 2 not. Saves a set lookup per hit. */
interface Membership {
  version: number;
  slots: Uint8Array[];
}

/**
 * The bytes of every indexed file, as they were when last read. Freshness is the caller's job: the
 * workspace index drops an entry as soon as the watcher reports a change, and re-reads it before a
 * query that needs it.
 */
export class ContentStore {
  private segments: Segment[] = [];
  private entries = new Map<string, Entry>();
  /** Entries whose bytes are not in a segment or cannot be judged by a byte scan. */
  private irregular = new Set<string>();
  private byDir = new Map<string, Set<string>>();
  private memberships = new WeakMap<object, Membership>();
  /** Per literal (latin1 key), most recent last: its hits in each segment. */
  private hitCache = new Map<string, SegmentHits[]>();
  /** Bytes held, stale copies included (a changed file's old bytes stay in their segment). */
  bytes = 0;

  constructor(private readonly root: string) {}

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /** Take over what the watcher thread read for `paths`. */
  addRead(paths: string[], read: ReadResult): void {
    const base = this.segments.length;
    const members = read.segments.map(() => [] as number[]);
    for (let i = 0; i < paths.length; i++) {
      const flags = read.flags[i] ?? FILE_UNREADABLE;
      if ((flags & (FILE_UNSTORED | FILE_UNREADABLE)) === 0) members[read.seg[i] ?? 0]?.push(i);
      else this.put(paths[i] as string, { flags, segment: -1, slot: -1 });
    }
    read.segments.forEach((ab, s) => {
      const indexes = (members[s] ?? []).sort((a, b) => (read.start[a] ?? 0) - (read.start[b] ?? 0));
      const starts = Int32Array.from(indexes, (i) => read.start[i] ?? 0);
      const ends = Int32Array.from(indexes, (i) => (read.start[i] ?? 0) + (read.length[i] ?? 0));
      const owners = indexes.map((i) => paths[i] as string);
      const binary = Uint8Array.from(indexes, (i) => ((read.flags[i] ?? 0) & FILE_HAS_NUL ? 1 : 0));
      this.segments.push({
        bytes: Buffer.from(ab),
        starts,
        ends,
        owners,
        live: new Uint8Array(indexes.length),
        binary,
      });
      this.bytes += ab.byteLength;
      for (const [slot, i] of indexes.entries()) {
        this.put(paths[i] as string, { flags: read.flags[i] ?? 0, segment: base + s, slot });
      }
    });
  }

  /** Read one file now (after a change), keeping its bytes in a buffer of its own. */
  readNow(path: string): void {
    const { flags, bytes } = readFile(`${this.root}/${path}`, MAX_STORED_FILE_BYTES);
    if (bytes !== undefined) this.bytes += bytes.length;
    this.put(path, { flags, segment: -1, slot: -1, ...(bytes && { own: bytes }) });
  }

  drop(path: string): void {
    const entry = this.entries.get(path);
    if (entry === undefined) return;
    if (entry.own !== undefined) this.bytes -= entry.own.length;
    const segment = this.segments[entry.segment];
    if (segment !== undefined) segment.live[entry.slot] = 0;
    this.entries.delete(path);
    this.irregular.delete(path);
    this.byDir.get(parentOf(path))?.delete(path);
  }

  /** Drop `path` and, if it was a directory, every file below it. */
  dropTree(path: string): void {
    this.drop(path);
    for (const [dir, files] of this.byDir) {
      if (dir === path || dir.startsWith(`${path}/`)) for (const file of [...files]) this.drop(file);
    }
  }

  /**
   * The files in `universe` that contain any of `literals`, with line counts for `literals[0]` when
   * `count` is set. A file rg would decode (UTF-16 BOM) or could not read makes the answer "unsure";
   * so does a candidate with a NUL byte, which rg handles as binary in ways a byte scan cannot mirror.
   */
  scan(literals: Buffer[], within: Universe, count: boolean): ScanResult {
    const hitSegment: number[] = [];
    const hitSlot: number[] = [];
    const others: string[] = [];
    let lines = 0;
    const membership = this.membership(within);
    const seenBySegment: Uint8Array[] = [];
    for (const literal of literals) {
      const perSegment = this.hits(literal);
      for (const [s, { owners, live, binary }] of this.segments.entries()) {
        const known = membership.slots[s] as Uint8Array;
        const { slots, lines: slotLines } = perSegment[s] as SegmentHits;
        // With several literals a file may contain more than one: count it once.
        if (literals.length > 1) seenBySegment[s] ??= new Uint8Array(owners.length);
        const seen = seenBySegment[s];
        for (let h = 0; h < slots.length; h++) {
          const slot = slots[h] as number;
          if (live[slot] !== 1 || seen?.[slot] === 1) continue;
          const path = owners[slot] as string;
          if (known[slot] === 0) known[slot] = within.has(path) ? 1 : 2;
          if (known[slot] !== 1 || !(within.keep?.(path) ?? true)) continue;
          if (binary[slot] === 1) return { kind: "unsure", why: `${path} is binary` };
          if (seen !== undefined) seen[slot] = 1;
          hitSegment.push(s);
          hitSlot.push(slot);
          if (count) lines += slotLines[h] as number;
        }
      }
    }
    let onDemand = 0;
    for (const path of this.irregular) {
      if (!within.has(path) || !(within.keep?.(path) ?? true)) continue;
      const entry = this.entries.get(path) as Entry;
      let bytes = entry.own;
      let flags = entry.flags;
      if (flags & FILE_UNSTORED) {
        const read = readFile(`${this.root}/${path}`, MAX_ON_DEMAND_BYTES - onDemand);
        flags = read.flags;
        bytes = read.bytes;
        onDemand += bytes?.length ?? 0;
      }
      if (flags & (FILE_UNSTORED | FILE_UNREADABLE | FILE_UTF16_BOM) || bytes === undefined) {
        return { kind: "unsure", why: `${path} cannot be judged from its bytes` };
      }
      const at = literals.map((literal) => bytes.indexOf(literal));
      if (at.every((a) => a === -1)) continue;
      if (flags & FILE_HAS_NUL) return { kind: "unsure", why: `${path} is binary` };
      others.push(path);
      if (count && literals[0] !== undefined && at[0] !== undefined && at[0] !== -1) {
        lines += countLines(bytes, literals[0], at[0], bytes.length);
      }
    }
    const paths = () => [
      ...hitSlot.map((slot, i) => this.segments[hitSegment[i] as number]?.owners[slot] as string),
      ...others,
    ];
    return { kind: "hits", files: hitSlot.length + others.length, lines, paths };
  }

  /** Where `literal` occurs in every segment, from the cache or by scanning the segments not seen yet. */
  private hits(literal: Buffer): SegmentHits[] {
    const key = literal.toString("latin1");
    const cached = this.hitCache.get(key) ?? [];
    this.hitCache.delete(key);
    this.hitCache.set(key, cached);
    const oldest = this.hitCache.keys().next().value;
    if (this.hitCache.size > MAX_CACHED_LITERALS && oldest !== undefined) this.hitCache.delete(oldest);
    for (let s = cached.length; s < this.segments.length; s++) {
      const { bytes, starts, ends } = this.segments[s] as Segment;
      const slots: number[] = [];
      const lines: number[] = [];
      let at = bytes.indexOf(literal);
      while (at !== -1) {
        const slot = lastAtOrBefore(starts, at);
        const end = ends[slot] as number;
        if (at + literal.length <= end) {
          slots.push(slot);
          lines.push(countLines(bytes, literal, at, end));
        }
        const next = Math.max(end, at + 1);
        at = next >= bytes.length ? -1 : bytes.indexOf(literal, next);
      }
      cached.push({ slots: Int32Array.from(slots), lines: Int32Array.from(lines) });
    }
    return cached;
  }

  /** The membership memo for `within`, with the slots whose directories changed since forgotten. */
  private membership(within: Universe): Membership {
    let memo = this.memberships.get(within.key);
    if (memo === undefined) {
      memo = { version: within.version, slots: [] };
      this.memberships.set(within.key, memo);
    } else if (memo.version !== within.version) {
      const dirs = within.changedSince(memo.version);
      if (dirs === "all") memo.slots = [];
      for (const dir of dirs === "all" ? [] : dirs) {
        for (const path of this.byDir.get(dir) ?? []) {
          const entry = this.entries.get(path);
          const known = entry === undefined ? undefined : memo.slots[entry.segment];
          if (known !== undefined && entry !== undefined) known[entry.slot] = 0;
        }
      }
      memo.version = within.version;
    }
    for (let s = memo.slots.length; s < this.segments.length; s++) {
      memo.slots.push(new Uint8Array(this.segments[s]?.owners.length ?? 0));
    }
    return memo;
  }

  private put(path: string, entry: Entry): void {
    this.drop(path);
    this.entries.set(path, entry);
    const segment = this.segments[entry.segment];
    if (segment !== undefined) segment.live[entry.slot] = 1;
    const irregular =
      entry.own !== undefined || (entry.flags & (FILE_UNSTORED | FILE_UNREADABLE | FILE_UTF16_BOM)) !== 0;
    if (irregular) this.irregular.add(path);
    const dir = parentOf(path);
    const set = this.byDir.get(dir) ?? new Set<string>();
    set.add(path);
    this.byDir.set(dir, set);
  }
}
