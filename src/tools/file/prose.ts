import { readFileSync } from "node:fs";

/** A tool's model-facing description, kept as prose in `<name>.txt` beside its code (the build copies it). */
export function prose(fileName: string): string {
  return readFileSync(new URL(`./${fileName}`, import.meta.url), "utf8").trim();
}
