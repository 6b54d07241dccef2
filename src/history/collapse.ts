/**
 * Collapsing old tool results. Providers reject a request in which a call has lost its result or a
 * result has lost its call, so an old result is shortened to a one-line placeholder in place, never
 * dropped: every message keeps its position, role and ids.
 */
import { describeCall, estimateTokens, type Message, type ToolCall } from "../messages/index.js";

/**
 * Line terminators as Python's `str.splitlines()` knows them (`\r\n` counts once). Line counts in
 * placeholders follow Python so they match the reference episode and SWE-agent's own numbers.
 */
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;
const ENDS_WITH_BREAK = /[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]$/;

/** Lines in `text` the way `len(text.splitlines())` counts them: "" has 0, a final newline adds none. */
export function countLines(text: string): number {
  if (text === "") return 0;
  const breaks = text.match(LINE_BREAK)?.length ?? 0;
  // A break at the very end closes the last line instead of starting a new one.
  return ENDS_WITH_BREAK.test(text) ? breaks : breaks + 1;
}

/** What an old result becomes. */
export function placeholder(call: Pick<ToolCall, "name" | "input">, content: string): string {
  return `(output of ${describeCall(call)} omitted, ${countLines(content)} lines)`;
}

/** Length in code points, so "shorter" means the same thing here as in the Python reference. */
function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The number of tool messages in `messages`. */
export function countToolMessages(messages: readonly Message[]): number {
  let n = 0;
  for (const m of messages) if (m.role === "tool") n++;
  return n;
}

/**
 * Collapses the oldest `count` tool messages (counted in order of appearance) and leaves the rest
 * as they are. This is the one rule both `collapse` and the batch trimmer apply, so a result that
 * was collapsed once is collapsed to the very same text every time after.
 *
 * Calls are looked up by id among the messages seen so far, never by position: parallel calls may
 * be answered in any order. A result whose id matches no earlier call throws, because a request
 * holding it would be rejected by the provider anyway and the history is already corrupt.
 */
export function collapseOldest(messages: readonly Message[], count: number): Message[] {
  const calls = new Map<string, ToolCall>();
  const out: Message[] = [];
  let toolIndex = 0;
  for (const [i, m] of messages.entries()) {
    if (m.role === "assistant") {
      for (const call of m.toolCalls) calls.set(call.id, call);
      out.push(m);
      continue;
    }
    if (m.role !== "tool") {
      out.push(m);
      continue;
    }
    const call = calls.get(m.toolCallId);
    if (call === undefined) {
      throw new Error(
        `history: tool message ${i} answers call id "${m.toolCallId}", but no earlier assistant message ` +
          "made a call with that id — the result is orphaned and a provider would reject the request; " +
          "fix whatever built this history so every result follows the call it answers",
      );
    }
    const collapseThis = toolIndex < count;
    toolIndex++;
    if (!collapseThis) {
      out.push(m);
      continue;
    }
    const short = placeholder(call, m.content);
    // A one-line result can be shorter than its placeholder; replacing it would cost tokens.
    out.push(codePoints(short) < codePoints(m.content) ? { ...m, content: short } : m);
  }
  return out;
}

/**
 * SWE-agent's history rule: the newest `k` tool results stay exactly as they are (a `k` below 1 is
 * taken as 1, so the newest result is always visible) and every older one becomes
 * `(output of <cmd> omitted, <n> lines)` when that is shorter. System, user and assistant messages
 * are untouched. Returns a new array; unchanged messages are the input's own (unmutated) objects.
 */
export function collapse(messages: readonly Message[], k: number): Message[] {
  if (Number.isNaN(k))
    throw new RangeError("history: collapse(k) needs a number of results to keep, got NaN");
  const keep = Math.max(1, Math.floor(k));
  return collapseOldest(messages, countToolMessages(messages) - keep);
}

/** A rough token count of one message as it would be sent (its JSON, 4 characters a token). */
export function estimateMessageTokens(message: Message): number {
  return estimateTokens(JSON.stringify(message));
}

/** The token total of a request, by `count` per message (a rough estimate unless a tokenizer is given). */
export function tokensOf(
  messages: readonly Message[],
  count: (message: Message) => number = estimateMessageTokens,
): number {
  let total = 0;
  for (const m of messages) total += count(m);
  return total;
}
