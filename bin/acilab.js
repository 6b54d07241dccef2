#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (make does it for you).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const entry = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "src", "cli", "main.js");
if (!existsSync(entry)) {
  process.stderr.write(`acilab is not built yet (${entry} is missing) — run "make build" or "npm run build" in the checkout.\n`);
  process.exit(2);
}
// Output piped into a reader that stops early (`acilab env list | head`): the reader has what it
// wanted, so stop quietly rather than crash on the broken pipe.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (err) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw err;
  });
const { main } = await import(entry);
process.exitCode = await main(process.argv.slice(2));
