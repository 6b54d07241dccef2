// Copies the files compiled modules read at run time into dist/: model-facing prose (.txt) and the
// report page's stylesheet and browser script (.css, .browser.js), none of which tsc emits.
import { cpSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const ASSET = /\.(txt|css|browser\.js)$/;
// SWE-bench's per-repository recipes are data files the swebench area reads at run time.
const RECIPE = /(^|\/)swebench\/recipes\/[^/]+\.yaml$/;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (ASSET.test(name) || RECIPE.test(path)) cpSync(path, join("dist", path));
  }
}
walk("src");
