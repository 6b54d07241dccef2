/**
 * An experiment file as a YAML document that remembers where each value was written, so a problem
 * found in the parsed data can be reported at its line and column. JSON is YAML, so it parses too.
 */
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";

export type Path = readonly (string | number)[];

/** One thing wrong with the file: where, which field, and a sentence saying what to do. */
export interface Problem {
  file: string;
  line: number;
  column: number;
  /** The field as written in the file, e.g. `arms[1].tools` or `arms.full.tools`; "" for the file. */
  path: string;
  message: string;
}

export interface Source {
  /** The data, or undefined when the YAML itself is broken (then `syntax` says where). */
  data: unknown;
  syntax: Problem[];
  /** Where a path points, and how to name it. `key`: the key's position rather than its value's. */
  locate(path: Path, key?: boolean): { line: number; column: number; path: string };
}

/** YAML error messages end with " at line L, column C:" and a code frame; we print our own position. */
function firstSentence(message: string): string {
  return (message.split(/ at line \d+, column \d+/)[0] ?? message).trim();
}

export function parseSource(file: string, text: string): Source {
  const lineCounter = new LineCounter();
  // uniqueKeys (the default) makes a repeated key — two arms of one name in map form — a syntax error.
  const doc = parseDocument(text, { lineCounter, prettyErrors: true });
  const position = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const syntax = doc.errors.map((e) => ({
    file,
    ...(e.linePos?.[0] ? { line: e.linePos[0].line, column: e.linePos[0].col } : position(e.pos[0])),
    path: "",
    message: `not valid YAML: ${firstSentence(e.message)}`,
  }));
  const locate = (path: Path, key = false) => {
    let node: unknown = doc.contents;
    let at: Node | null | undefined = doc.contents;
    let name = "";
    for (let i = 0; i < path.length; i++) {
      const segment = path[i] as string | number;
      const last = i === path.length - 1;
      if (isSeq(node) && typeof segment === "number") {
        node = node.items[segment];
        name += `[${segment}]`;
      } else if (isMap(node)) {
        // A number on a map is its n-th entry: arms written as a map are checked as a list, and
        // such an arm's `name` is its key.
        const pair =
          typeof segment === "number"
            ? node.items[segment]
            : node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
        const label = pair && isScalar(pair.key) ? String(pair.key.value) : String(segment);
        name += name === "" ? label : `.${label}`;
        const nameOfEntry = typeof segment === "number" && path[i + 1] === "name";
        node = (last && key) || nameOfEntry ? pair?.key : pair?.value;
        if (nameOfEntry) i++;
      } else {
        name += typeof segment === "number" ? `[${segment}]` : name === "" ? segment : `.${segment}`;
        node = undefined;
      }
      if (isNodeWithRange(node)) at = node;
    }
    const offset = isNodeWithRange(at) ? (at.range?.[0] ?? 0) : 0;
    return { ...position(offset), path: name };
  };
  return { data: doc.errors.length > 0 ? undefined : doc.toJS(), syntax, locate };
}

function isNodeWithRange(node: unknown): node is Node {
  return typeof node === "object" && node !== null && "range" in node;
}
