// Copies the model-facing prose (.txt next to the code) into dist/, where the compiled modules read it.
import { cpSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith(".txt")) cpSync(path, join("dist", path));
  }
}
walk("src");
