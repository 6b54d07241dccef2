import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { assertReachable, type ReadOnlyBind, sandboxIdentity } from "../sandbox/index.js";

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

/**
 * Folders a sandbox needs to run this interpreter at its own path, where its shared library's RUNPATH
 * points: none under /usr (always there), the prefix itself when the sandbox user can reach it, else
 * a copy in the store (hard links where it can) shown at the original path — pyenv under root's home.
 */
export async function interpreterBinds(
  python: Pick<Interpreter, "prefix" | "version">,
  store: string,
): Promise<ReadOnlyBind[]> {
  if (python.prefix === "/usr" || python.prefix.startsWith("/usr/")) return [];
  try {
    assertReachable(join(python.prefix, "bin"), sandboxIdentity(), "interpreter");
    return [python.prefix];
  } catch {
    // unreachable: copy it below
  }
  const id = createHash("sha256").update(`${python.prefix}\0${python.version}`).digest("hex").slice(0, 12);
  const copyDir = join(store, "python", `${python.version}-${id}`);
  if (!existsSync(join(copyDir, ".complete"))) {
    const tmp = `${copyDir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(join(store, "python"), { recursive: true, mode: 0o755 });
    await run("cp", ["-al", python.prefix, tmp]).catch(async () => {
      rmSync(tmp, { recursive: true, force: true }); // another filesystem: a real copy
      await run("cp", ["-a", python.prefix, tmp]);
    });
    writeFileSync(join(tmp, ".complete"), `${python.prefix}\n`);
    rmSync(copyDir, { recursive: true, force: true });
    renameSync(tmp, copyDir);
  }
  return [{ source: copyDir, dest: python.prefix }];
}
