/** Finding programs on the host by name: the sandbox's own tools (runsc) and the interpreters it runs. */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/** A regular file this process may execute. */
export function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** PATH's folders, in order, empty entries left out. */
export function pathDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.PATH ?? "").split(delimiter).filter((d) => d !== "");
}

/** The first `dir/name` among `dirs` that is an executable file. */
export function executableIn(name: string, dirs: readonly string[]): string | undefined {
  return dirs.map((d) => join(d, name)).find(isExecutableFile);
}
