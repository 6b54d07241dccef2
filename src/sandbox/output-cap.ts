/**
 * Keeps the head and the tail of a stream and counts what fell in between, in bounded memory: a
 * command that prints gigabytes costs us at most ~2 × limit characters.
 */
export class HeadTailBuffer {
  private head = "";
  private tail = "";
  private dropped = 0;

  constructor(private readonly limit: number) {}

  push(chunk: string): void {
    const headRoom = Math.ceil(this.limit / 2) - this.head.length;
    if (headRoom > 0) {
      this.head += chunk.slice(0, headRoom);
      chunk = chunk.slice(headRoom);
    }
    if (chunk.length === 0) return;
    this.tail += chunk;
    const tailKeep = Math.floor(this.limit / 2);
    // Trim lazily (at 2× the keep size) so small chunks don't cause a copy each time.
    if (this.tail.length > tailKeep * 2) {
      this.dropped += this.tail.length - tailKeep;
      this.tail = this.tail.slice(this.tail.length - tailKeep);
    }
  }

  /** Characters cut so far. */
  get cut(): number {
    const tailKeep = Math.floor(this.limit / 2);
    return this.dropped + Math.max(0, this.tail.length - tailKeep);
  }

  text(): string {
    const tailKeep = Math.floor(this.limit / 2);
    const cut = this.cut;
    const tail = this.tail.length > tailKeep ? this.tail.slice(this.tail.length - tailKeep) : this.tail;
    if (cut === 0) return this.head + tail;
    return `${this.head}\n[... ${cut} characters cut from the middle of the output; narrow the command (e.g. pipe through head, grep or tail) to see that part ...]\n${tail}`;
  }
}
