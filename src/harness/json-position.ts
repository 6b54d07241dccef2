/**
 * Where JSON.parse gave up, as a line and column a user can jump to. V8 reports an offset ("… in
 * JSON at position 42"), newer versions add "(line 3 column 7)", and a truncated text just says
 * "Unexpected end of JSON input" — which is the end of the text.
 */

export interface TextPosition {
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

/** The 1-based line and column of a 0-based offset into `text`. */
export function positionAt(text: string, offset: number): TextPosition {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split("\n");
  return { line: lines.length, column: (lines.at(-1) as string).length + 1 };
}

/** Where `error` (thrown by JSON.parse(text)) points, or undefined if its message says nothing. */
export function jsonErrorPosition(text: string, error: unknown): TextPosition | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /at position (\d+)/.exec(message);
  if (position) return positionAt(text, Number(position[1]));
  if (/end of JSON input/i.test(message)) return positionAt(text, text.length);
  return undefined;
}

/** JSON.parse's message without its own position, which the caller restates as line:column. */
export function jsonErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*(?:in JSON )?at position \d+(?: \(line \d+ column \d+\))?/, "").trim();
}
