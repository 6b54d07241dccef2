import { execFile } from "node:child_process";
import { realpathSync } from "node:fs";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A Python interpreter of this machine, as the venv will be made from it. */
export interface Interpreter {
  /** As the spec named it ("python3", "python3.9", "/usr/bin/python3"). */
  named: string;
  /** Its real path (symlinks and pyenv shims resolved): what the venv's python links to. */
  executable: string;
  /** Its installation (`sys.base_prefix`, real path): stdlib and shared library live below it. */
  prefix: string;
  /** "3.9.18". */
  version: string;
}

/** Oldest Python whose `venv` module makes environments acilab can use. */
const OLDEST = [3, 6];

const PROBE =
  "import json, os, sys; print(json.dumps([os.path.realpath(sys.executable), os.path.realpath(sys.base_prefix), '.'.join(map(str, sys.version_info[:3]))]))";

const cache = new Map<string, Promise<Interpreter>>();

/**
 * Find the interpreter a spec names and ask it where it lives — on the host, since it is the user's
 * program, not the repository's; nothing of the repository runs here. Errors say what to name instead.
 */
export function resolveInterpreter(named: string): Promise<Interpreter> {
  let found = cache.get(named);
  if (!found) {
    found = probe(named);
    cache.set(named, found);
    found.catch(() => cache.delete(named));
  }
  return found;
}

async function probe(named: string): Promise<Interpreter> {
  const hint =
    "name one with --python: a path such as /usr/bin/python3, or a name on PATH such as python3.9 (pyenv, uv and conda interpreters work)";
  let stdout: string;
  try {
    ({ stdout } = await run(named, ["-c", PROBE], { timeout: 60_000, encoding: "utf8" }));
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === "ENOENT")
      throw new Error(
        `interpreter "${named}" not found (${named.includes("/") ? "no such file" : "not on PATH"}); ${hint}`,
      );
    if (e.code === "EACCES") throw new Error(`interpreter "${named}" is not executable; ${hint}`);
    const said = (e.stderr ?? e.message).trim().split("\n").at(-1);
    throw new Error(`interpreter "${named}" did not run as Python 3 (${said}); ${hint}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout.trim().split("\n").at(-1) ?? "");
  } catch {
    throw new Error(
      `interpreter "${named}" printed something other than its location; is it Python? ${hint}`,
    );
  }
  const [executable, prefix, version] = parsed as [string, string, string];
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major < (OLDEST[0] as number) || (major === OLDEST[0] && minor < (OLDEST[1] as number)))
    throw new Error(
      `interpreter "${named}" is Python ${version}; environments need Python ${OLDEST.join(".")} or newer (its venv module)`,
    );
  return { named, executable: realpathSync(executable), prefix: realpathSync(prefix), version };
}
