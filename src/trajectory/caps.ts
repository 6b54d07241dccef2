/**
 * Caps on what a trajectory keeps of a code action's nested tool calls. The model never read those
 * arguments and results (only what the program printed), so they are evidence for a person, not part
 * of the replayable conversation: their head and tail are enough, and keeping them whole let one
 * program write 58 MB into a trajectory (issue 9). A direct tool call's observation is what the model
 * read and is kept whole elsewhere.
 */

/**
 * Characters kept of one nested call's arguments, and of its result: the same as what a program may
 * print into the observation (CODE_OUTPUT_LIMIT), so a person sees as much of a call as the model could
 * have. 1,000 calls (a program's limit) × 2 fields stay under 20 MB.
 */
export const RECORDED_CALL_CHARS = 10_000;

/** One nested call as the trajectory stores it. */
export interface RecordedCall {
  tool: string;
  /** The arguments; when their JSON is longer than the cap, that JSON cut to the cap (a string). */
  input: unknown;
  output: string;
  error: string | null;
  duration_ms: number;
}

/**
 * `text` cut to at most `max` characters: head and tail kept around `… [N characters cut] …`. Text
 * already within the cap comes back unchanged, so capping twice is capping once.
 */
export function capText(text: string, max: number = RECORDED_CALL_CHARS): string {
  if (text.length <= max) return text;
  // The note's length depends on N, which depends on the note's length: size it for the worst case.
  const noteRoom = ` … [${text.length.toLocaleString("en-US")} characters cut] … `.length;
  const keep = Math.max(0, max - noteRoom);
  const head = Math.ceil(keep / 2);
  const tail = keep - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)} … [${cut.toLocaleString("en-US")} characters cut] … ${tail > 0 ? text.slice(-tail) : ""}`;
}

/**
 * The arguments as kept: unchanged when their JSON fits the cap, else that JSON cut (a string).
 * Arguments are an object; a string here is an earlier cut, kept as it is (capping twice = once).
 */
export function capInput(input: unknown, max: number = RECORDED_CALL_CHARS): unknown {
  if (typeof input === "string") return capText(input, max);
  let json: string | undefined;
  try {
    json = JSON.stringify(input);
  } catch {
    return "(arguments that cannot be written as JSON)";
  }
  if (json === undefined || json.length <= max) return input;
  return capText(json, max);
}

/** A nested call as the trajectory keeps it: arguments and result each within RECORDED_CALL_CHARS. */
export function capRecordedCall<C extends RecordedCall>(call: C, max: number = RECORDED_CALL_CHARS): C {
  return { ...call, input: capInput(call.input, max), output: capText(call.output, max) };
}
