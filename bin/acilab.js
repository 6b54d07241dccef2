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
const { main } = await import(entry);
process.exitCode = await main(process.argv.slice(2));
