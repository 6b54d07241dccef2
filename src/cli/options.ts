/**
 * One table per command declares its options once; the `node:util` parseArgs config and the option
 * lines of its `--help` are both derived from it, so the two cannot drift apart.
 */
import { parse } from "./args.js";

export interface OptionSpec {
  readonly type: "string" | "boolean";
  /** Repeatable: the values arrive as a list. */
  readonly multiple?: true;
  /** One-letter alias, e.g. "j" for -j. */
  readonly short?: string;
  /** The value's placeholder in help, e.g. "<dir>" or "HOST[:PORT]"; string options only. */
  readonly value?: string;
  /** What the option does, as one paragraph; the help wraps it to the description column. */
  readonly help: string;
  /** Given to the parser when the option is absent, and shown as "(default …)". */
  readonly default?: string;
  /**
   * Shown as "(default …)" instead of `default`: for a default the parser cannot apply (decided by
   * the environment, by another module, or derived from other options) or that needs a word of why.
   */
  readonly defaultHelp?: string;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

/** parseArgs's view of a table, typed so `values` knows each option's type and which have defaults. */
export type ParseConfig<T extends OptionTable> = {
  -readonly [K in keyof T]: {
    type: T[K]["type"];
    multiple: T[K]["multiple"] extends true ? true : false;
    short?: string;
  } & (T[K] extends { readonly default: string } ? { default: string } : unknown);
};

export function parseConfig<const T extends OptionTable>(table: T): ParseConfig<T> {
  const config: Record<
    string,
    { type: "string" | "boolean"; multiple: boolean; short?: string; default?: string }
  > = {};
  for (const [name, spec] of Object.entries(table))
    config[name] = {
      type: spec.type,
      multiple: spec.multiple === true,
      ...(spec.short !== undefined ? { short: spec.short } : {}),
      ...(spec.default !== undefined ? { default: spec.default } : {}),
    };
  return config as ParseConfig<T>;
}

/** Parse `argv` with the table's options (plus -h/--help); bad command lines throw UsageError. */
export function parseOptions<const T extends OptionTable>(command: string, argv: string[], table: T) {
  return parse(command, argv, parseConfig(table));
}

/** Help pages wrap at this width: the widest lines the hand-written pages had, and under Biome's 110. */
export const HELP_WIDTH = 104;
/** Names longer than this put their description after two spaces instead of widening the column. */
const MAX_LABEL = 22;
const INDENT = "  ";
const GAP = "  ";

export function optionLabel(name: string, spec: OptionSpec): string {
  const short = spec.short !== undefined ? `-${spec.short}, ` : "";
  return `${short}--${name}${spec.type === "string" && spec.value ? ` ${spec.value}` : ""}`;
}

export function optionDescription(spec: OptionSpec): string {
  const shown = spec.defaultHelp ?? spec.default;
  return shown === undefined ? spec.help : `${spec.help} (default ${shown})`;
}

/** The option lines of a help page: `  --name <value>  description`, wrapped under the description. */
export function optionLines(table: OptionTable, width = HELP_WIDTH): string {
  const rows = Object.entries(table).map(([name, spec]) => ({
    label: optionLabel(name, spec),
    text: optionDescription(spec),
  }));
  const labelWidth = Math.max(0, ...rows.map((r) => r.label.length).filter((n) => n <= MAX_LABEL));
  const column = INDENT.length + labelWidth + GAP.length;
  return rows
    .map(({ label, text }) => {
      const head = `${INDENT}${label.padEnd(labelWidth)}${GAP}`;
      const lines = wrap(text, width - head.length, width - column);
      return [head + (lines[0] ?? ""), ...lines.slice(1).map((l) => " ".repeat(column) + l)]
        .join("\n")
        .trimEnd();
    })
    .join("\n");
}

/**
 * Greedy word wrap: the first line gets `first` columns, the others `rest`; a long word overflows.
 * A word that starts with "-" takes the word before it along to the next line, so that no wrapped
 * line starts like an option line ("--test" of "node --test").
 */
export function wrap(text: string, first: number, rest: number): string[] {
  const lines: string[] = [];
  let line: string[] = [];
  const width = (words: string[]) => words.join(" ").length;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const room = lines.length === 0 ? first : rest;
    if (line.length > 0 && width([...line, word]) > room) {
      const carried = word.startsWith("-") && line.length > 1 ? line.splice(-1) : [];
      lines.push(line.join(" "));
      line = [...carried, word];
    } else line.push(word);
  }
  if (line.length > 0) lines.push(line.join(" "));
  return lines;
}
