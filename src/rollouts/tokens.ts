/**
 * The conversation rendered to text and tokenised with a per-token source mask. Each message becomes
 * pieces (a role header, the body, an end marker); each piece is tokenised on its own and carries the
 * mask of whoever wrote it, so a token never straddles the policy's text and the harness's.
 */
import type { ChatMessage, ChatTool } from "./schema.js";

export interface Tokenizer {
  name: string;
  encode(text: string): number[];
}

/** What `tokens.render` says in every line, so a trainer can rebuild the text. */
export const RENDER =
  "chatml: per message '<|im_start|>ROLE\\n' (0), the body, '<|im_end|>' (1 on assistant turns, else 0), '\\n' (0); " +
  "the system body ends with '\\n\\n# Tools\\n<tools>\\n' + one JSON tool per line + '</tools>'; an assistant body is its text, " +
  "then per call '\\n<tool_call>\\n{\"name\": NAME, \"arguments\": ARGS}\\n</tool_call>'; an image is the line '[image WxH: REF]'; " +
  "pieces are tokenised one at a time and the ids concatenated";

/** The tiktoken encodings js-tiktoken ships; `bytes` needs no package. */
export const TIKTOKEN_ENCODINGS = ["cl100k_base", "o200k_base", "p50k_base", "r50k_base"] as const;
export const TOKENIZER_NAMES = ["bytes", ...TIKTOKEN_ENCODINGS] as const;
/** The package the tiktoken encodings load from, on first use only: `bytes` works without it. */
export const TIKTOKEN_PACKAGE = "js-tiktoken";

export class TokenizerError extends Error {
  override name = "TokenizerError";
}

/** UTF-8 bytes as ids 0–255: needs nothing installed, and every text round-trips. */
const BYTES: Tokenizer = { name: "bytes", encode: (text) => [...Buffer.from(text, "utf8")] };

interface TiktokenModule {
  getEncoding(name: string): {
    encode(text: string, allowed?: string[] | "all", disallowed?: string[] | "all"): number[];
  };
}

/** `bytes`, or a tiktoken encoding loaded from js-tiktoken (an error that says how to add it when absent). */
export async function loadTokenizer(
  name: string,
  importer: (pkg: string) => Promise<unknown> = (pkg) => import(pkg),
): Promise<Tokenizer> {
  if (name === "bytes") return BYTES;
  if (!(TIKTOKEN_ENCODINGS as readonly string[]).includes(name))
    throw new TokenizerError(
      `unknown tokenizer "${name}" — use one of ${TOKENIZER_NAMES.join(", ")} (bytes needs no package)`,
    );
  let mod: TiktokenModule;
  try {
    mod = (await importer(TIKTOKEN_PACKAGE)) as TiktokenModule;
  } catch (e) {
    throw new TokenizerError(
      `tokenizer "${name}" needs the npm package ${TIKTOKEN_PACKAGE}, which is not installed (${e instanceof Error ? e.message.split("\n")[0] : String(e)}) — run "npm install ${TIKTOKEN_PACKAGE}" in acilab's folder, or use --tokenizer bytes`,
    );
  }
  const encoding = mod.getEncoding(name);
  // No special tokens: a tool's output that contains "<|endoftext|>" is text the harness read, not
  // a control token, and must not end the sequence a trainer sees.
  return { name, encode: (text) => encoding.encode(text, [], []) };
}

interface Piece {
  text: string;
  mask: 0 | 1;
}

function imageLines(m: { images?: { ref: string; width: number; height: number }[] | undefined }): string {
  return (m.images ?? []).map((i) => `\n[image ${i.width}x${i.height}: ${i.ref}]`).join("");
}

function body(message: ChatMessage, tools: readonly ChatTool[]): string {
  switch (message.role) {
    case "system":
      return tools.length === 0
        ? message.content
        : `${message.content}\n\n# Tools\n<tools>\n${tools.map((t) => JSON.stringify(t.function)).join("\n")}\n</tools>`;
    case "assistant":
      return (
        (message.content ?? "") +
        (message.tool_calls ?? [])
          .map(
            (c) =>
              `\n<tool_call>\n{"name": ${JSON.stringify(c.function.name)}, "arguments": ${c.function.arguments}}\n</tool_call>`,
          )
          .join("")
      );
    case "user":
    case "tool":
      return message.content + imageLines(message);
  }
}

/** The pieces of the rendered conversation; the tools go into the system message (one is made if none). */
export function renderPieces(messages: readonly ChatMessage[], tools: readonly ChatTool[]): Piece[] {
  const all: ChatMessage[] =
    tools.length > 0 && messages[0]?.role !== "system"
      ? [{ role: "system", content: "" }, ...messages]
      : [...messages];
  const pieces: Piece[] = [];
  for (const message of all) {
    const policy = message.role === "assistant" ? 1 : 0;
    pieces.push({ text: `<|im_start|>${message.role}\n`, mask: 0 });
    pieces.push({ text: body(message, tools), mask: policy });
    // The policy ends its own turn (the stop token is sampled); the newline after it is layout.
    pieces.push({ text: "<|im_end|>", mask: policy });
    pieces.push({ text: "\n", mask: 0 });
  }
  return pieces;
}

export function tokenize(
  messages: readonly ChatMessage[],
  tools: readonly ChatTool[],
  tokenizer: Tokenizer,
): { ids: number[]; mask: (0 | 1)[] } {
  const ids: number[] = [];
  const mask: (0 | 1)[] = [];
  for (const piece of renderPieces(messages, tools)) {
    if (piece.text === "") continue;
    for (const id of tokenizer.encode(piece.text)) {
      ids.push(id);
      mask.push(piece.mask);
    }
  }
  return { ids, mask };
}
