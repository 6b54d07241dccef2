/** One request line from a program: its text, or — over the cap — its size and how it began. */
export type RequestLine = { text: string } | { tooLong: { bytes: number; head: string } };

/** Bytes kept of the start of an oversized request: enough to name the tool it was calling. */
const HEAD_BYTES = 200;

/**
 * Splits what a program writes to the tool channel into lines without ever holding more than
 * `maxBytes` of one: a line that grows past the cap is dropped as it arrives (only its size and first
 * bytes are kept) and reported once its newline comes, so the program stays in step with the replies.
 * Each chunk is scanned once, from where the last newline was: no quadratic re-scans of a long line.
 */
export class RequestLines {
  private parts: Buffer[] = [];
  private size = 0;
  /** Bytes of the current line seen so far once it is over the cap; 0 while it is within it. */
  private over = 0;
  private head = "";

  constructor(
    private readonly maxBytes: number,
    private readonly emit: (line: RequestLine) => void,
  ) {}

  /** Bytes held for the line being read: never more than maxBytes (tests watch this). */
  get bufferedBytes(): number {
    return this.size;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      this.take(chunk.subarray(start, nl < 0 ? chunk.length : nl));
      if (nl < 0) return;
      this.finish();
      start = nl + 1;
    }
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.over > 0) {
      this.over += piece.length;
      return;
    }
    if (this.size + piece.length <= this.maxBytes) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    this.head = Buffer.concat([...this.parts, piece])
      .subarray(0, HEAD_BYTES)
      .toString("utf8");
    this.over = this.size + piece.length;
    this.parts = [];
    this.size = 0;
  }

  private finish(): void {
    if (this.over > 0) {
      this.emit({ tooLong: { bytes: this.over, head: this.head } });
      this.over = 0;
      this.head = "";
      return;
    }
    if (this.size === 0) return; // a blank line asks nothing
    const text = Buffer.concat(this.parts, this.size).toString("utf8");
    this.parts = [];
    this.size = 0;
    this.emit({ text });
  }
}
