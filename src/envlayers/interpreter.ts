import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";
import {
  assertReachable,
  executableIn,
  isExecutableFile,
  openSandbox,
  pathDirs,
  type ReadOnlyBind,
  sandboxIdentity,
} from "../sandbox/index.js";

const run = promisify(execFile);

/** The runtimes an environment is made for. */
export type RuntimeLanguage = "python" | "node";

/** An interpreter of this machine (Python or node), as the environment will be made with it. */
export interface Interpreter {
  language: RuntimeLanguage;
  /** As the spec named it ("python3", "python3.9", "/usr/bin/python3", "node"). */
  named: string;
  /** Its real path (symlinks and pyenv shims resolved): what the venv's python links to. */
  executable: string;
  /** Its installation (`sys.base_prefix`, real path): stdlib and shared library live below it. */
  prefix: string;
  /** "3.9.18", "20.20.2". */
  version: string;
}

/** How each runtime is asked where it lives; each prints [executable, prefix, version] as JSON. */
const RUNTIMES: Record<
  RuntimeLanguage,
  { probe: string[]; oldest: [number, number]; what: string; hint: string }
> = {
  python: {
    probe: [
      "-c",
      "import json, os, sys; print(json.dumps([os.path.realpath(sys.executable), os.path.realpath(sys.base_prefix), '.'.join(map(str, sys.version_info[:3]))]))",
    ],
    // The oldest Python whose `venv` module makes environments acilab can use.
    oldest: [3, 6],
    what: "Python 3",
    hint: "name one with --python: a path such as /usr/bin/python3, or a name on PATH such as python3.9 (pyenv, uv and conda interpreters work)",
  },
  node: {
    probe: [
      "-e",
      "const fs = require('fs'), path = require('path'); const x = fs.realpathSync(process.execPath); console.log(JSON.stringify([x, path.dirname(path.dirname(x)), process.versions.node]))",
    ],
    // node --test and the npm that lock files version 2+ need.
    oldest: [16, 0],
    what: "node",
    hint: "name one with --node: a path such as /usr/bin/node, or a name on PATH such as node (nvm, fnm and volta binaries work)",
  },
};

const cache = new Map<string, Promise<Interpreter>>();

/**
 * Find the interpreter a spec names and ask it where it lives. The name comes from an instances
 * file, which may be anyone's: the host only looks the name up (and asks pyenv which binary a shim
 * stands for), requires a real executable binary, and runs it — the probe — in the sandbox.
 */
export function resolveInterpreter(
  named: string,
  store: string,
  language: RuntimeLanguage = "python",
): Promise<Interpreter> {
  const key = `${language}\0${named}\0${store}`;
  let found = cache.get(key);
  if (!found) {
    found = probe(named, store, language);
    cache.set(key, found);
    found.catch(() => cache.delete(key));
  }
  return found;
}

function head(path: string, bytes: number): Buffer {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(bytes);
    return buf.subarray(0, readSync(fd, buf, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}

const isElf = (path: string) => head(path, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));

/**
 * Where interpreters of one version are installed besides PATH, newest patch release first: pyenv's
 * versions, uv's managed pythons, conda's base and environments.
 */
export function interpretersOfVersion(version: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const home = env.HOME ?? homedir();
  const exe = `python${version}`;
  const roots: Array<{ dir: string; match: RegExp; bin: (d: string) => string }> = [
    {
      dir: join(env.PYENV_ROOT ?? join(home, ".pyenv"), "versions"),
      match: new RegExp(`^${version.replace(".", "\\.")}\\.\\d+$`),
      bin: (d) => join(d, "bin", exe),
    },
    {
      dir: env.UV_PYTHON_INSTALL_DIR ?? join(home, ".local", "share", "uv", "python"),
      match: new RegExp(`^cpython-${version.replace(".", "\\.")}\\.\\d+-`),
      bin: (d) => join(d, "bin", exe),
    },
    ...["miniconda3", "anaconda3", "miniforge3", "mambaforge"]
      .map((n) => join(home, n))
      .concat("/opt/conda")
      .flatMap((base) => [
        { dir: join(base, "envs"), match: /./, bin: (d: string) => join(d, "bin", exe) },
        {
          dir: dirname(base),
          match: new RegExp(`^${basename(base)}$`),
          bin: (d: string) => join(d, "bin", exe),
        },
      ]),
  ];
  const found: string[] = [];
  for (const root of roots) {
    let names: string[];
    try {
      names = readdirSync(root.dir);
    } catch {
      continue;
    }
    const matching = names.filter((n) => root.match.test(n)).sort(newestFirst);
    for (const name of matching) {
      const bin = root.bin(join(root.dir, name));
      if (isExecutableFile(bin)) found.push(bin);
    }
  }
  return found;
}

/** `3.9.18` before `3.9.2`: by the numbers in the name. */
function newestFirst(a: string, b: string): number {
  const na = (a.match(/\d+/g) ?? []).map(Number);
  const nb = (b.match(/\d+/g) ?? []).map(Number);
  for (let i = 0; i < Math.max(na.length, nb.length); i++) {
    const d = (nb[i] ?? 0) - (na[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The binary a name stands for: looked up on PATH, symlinks resolved, a pyenv shim asked of pyenv. */
async function locate(named: string, hint: string): Promise<string> {
  try {
    return await locateOnPath(named, hint);
  } catch (err) {
    // `python3.9` that PATH does not give (a pyenv shim for a version that is not the global one):
    // the interpreter of that version wherever pyenv, uv or conda installed it.
    const version = /^python(\d+\.\d+)$/.exec(named)?.[1];
    const installed = version ? interpretersOfVersion(version)[0] : undefined;
    if (installed) return realpathSync(installed);
    if (version)
      throw new Error(
        `interpreter Python ${version} is not installed here: not on PATH, nor in pyenv's versions, uv's pythons or conda's environments (pyenv install ${version}, or uv python install ${version})`,
      );
    throw err;
  }
}

async function locateOnPath(named: string, hint: string): Promise<string> {
  let path: string | undefined;
  if (named.includes("/")) path = isExecutableFile(named) ? named : undefined;
  else path = executableIn(named, pathDirs());
  if (path === undefined)
    throw new Error(
      `interpreter "${named}" not found (${named.includes("/") ? "no such file" : "not on PATH"}); ${hint}`,
    );
  let real = realpathSync(path);
  if (isElf(real)) return real;
  // pyenv's shims are scripts; `pyenv which` names the binary behind one, for a plain python name only.
  if (
    /\/shims\/[^/]+$/.test(real) &&
    /pyenv/.test(head(real, 2048).toString("utf8")) &&
    /^python[\d.]*$/.test(named)
  ) {
    try {
      real = realpathSync(
        (await run("pyenv", ["which", named], { timeout: 60_000, encoding: "utf8" })).stdout.trim(),
      );
    } catch (err) {
      throw new Error(
        `interpreter "${named}" is a pyenv shim pyenv could not resolve (${(err as Error).message.split("\n")[0]}); ${hint}`,
      );
    }
    if (isElf(real)) return real;
  }
  throw new Error(
    `interpreter "${named}" is ${real}, which is not an executable binary (a script or other file); ${hint}`,
  );
}

async function probe(named: string, store: string, language: RuntimeLanguage): Promise<Interpreter> {
  const runtime = RUNTIMES[language];
  const binary = await locate(named, runtime.hint);
  // The installation a binary lives in is the folder above its bin/ (sys.base_prefix says for sure).
  const binds = await interpreterBinds({ prefix: dirname(dirname(binary)) }, store);
  const scratch = mkdtempSync(join(tmpdir(), "acilab-probe-"));
  chmodSync(scratch, 0o755);
  let r: Awaited<ReturnType<Awaited<ReturnType<typeof openSandbox>>["sandbox"]["exec"]>>;
  try {
    const { sandbox } = await openSandbox({ workspace: scratch, readOnlyBinds: binds });
    try {
      r = await sandbox.exec({ argv: [binary, ...runtime.probe], timeoutMs: 60_000 });
    } finally {
      await sandbox.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  let parsed: unknown;
  try {
    parsed = r.exitCode === 0 ? JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "") : undefined;
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || !parsed.every((p) => typeof p === "string")) {
    const said = r.output.trim().split("\n").at(-1) ?? `exit ${r.exitCode}`;
    throw new Error(
      `interpreter "${named}" (${binary}) did not run as ${runtime.what} (${said}); ${runtime.hint}`,
    );
  }
  const [executable, prefix, version] = parsed as [string, string, string];
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const [oldMajor, oldMinor] = runtime.oldest;
  if (major < oldMajor || (major === oldMajor && minor < oldMinor))
    throw new Error(
      `interpreter "${named}" is ${runtime.what} ${version}; environments need ${runtime.what} ${oldMajor}.${oldMinor} or newer`,
    );
  return { language, named, executable, prefix, version };
}

/**
 * Folders a sandbox needs to run this interpreter at its own path, where its shared library's RUNPATH
 * points: none under /usr (always there), the prefix itself when the sandbox user can reach it, else
 * a copy in the store (hard links where it can) shown at the original path — pyenv under root's home.
 */
export async function interpreterBinds(
  python: Pick<Interpreter, "prefix">,
  store: string,
): Promise<ReadOnlyBind[]> {
  if (python.prefix === "/usr" || python.prefix.startsWith("/usr/")) return [];
  try {
    assertReachable(join(python.prefix, "bin"), sandboxIdentity(), "interpreter");
    return [python.prefix];
  } catch {
    // unreachable: copy it below
  }
  const id = createHash("sha256").update(python.prefix).digest("hex").slice(0, 16);
  const copyDir = join(store, "python", id);
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
