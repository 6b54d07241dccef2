/** `acilab inspect RUN_DIR`: the trajectory inspector of one run folder, as one offline HTML file. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { inspectRunHtml, NotARunFolder } from "../report/index.js";
import { UsageError } from "./args.js";
import { INSPECT_HELP, INSPECT_OPTIONS } from "./experiment-options.js";
import { parseOptions } from "./options.js";

type Out = (line: string) => void;

export async function inspectCommand(argv: string[], out: Out, err: Out): Promise<number> {
  const { values, positionals } = parseOptions("inspect", argv, INSPECT_OPTIONS);
  if (values.help) {
    out(INSPECT_HELP);
    return 0;
  }
  const dir = positionals[0];
  if (dir === undefined || positionals.length > 1)
    throw new UsageError("inspect takes one RUN_DIR, the --out of acilab run or acilab cua", "inspect");
  let html: string;
  try {
    html = await inspectRunHtml(dir);
  } catch (e) {
    if (!(e instanceof NotARunFolder)) throw e;
    err(`acilab inspect: ${e.message}`);
    return 1;
  }
  const file = values.out ?? join(dir, "inspect.html");
  writeFileSync(file, html);
  out(`wrote ${file} (open it in a browser, it needs no network)`);
  return 0;
}
