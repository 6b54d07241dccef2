/**
 * Tests that need something from the machine (bwrap, Chromium, Redis, root…). Where it is there,
 * they run. Where it is not, they are skipped — and the run's last line says how many and why
 * (./skip-summary.ts) — except under CI=true, where a missing tool is a bootstrap that went wrong:
 * the test fails, naming the tool and the bootstrap step that should have installed it. So a clean
 * machine whose bootstrap missed a package can never pass green with the sandbox untested.
 */
import { describe, it } from "vitest";

/** What each tool is, and what provides it on a fresh machine. */
export const NEEDS = {
  bwrap: "bubblewrap and unprivileged user namespaces: scripts/bootstrap.sh installs Debian's bubblewrap",
  overlayfs: "overlayfs mounts (root, or a user namespace that allows them): CI runs as root",
  root: "running as root: CI (.ci/run) runs as root",
  cgroup: "a writable cgroup v2 hierarchy with the cpu and pids controllers: CI runs as root",
  runsc: "gVisor's runsc that can start a container: scripts/bootstrap.sh installs Debian's runsc",
  chromium: "Debian's chromium: scripts/bootstrap.sh installs it",
  xvfb: "Xvfb, matchbox-window-manager and xdotool: scripts/bootstrap.sh installs them",
  redis: "redis-server: scripts/bootstrap.sh installs Debian's redis-server",
  tmux: "tmux: scripts/bootstrap.sh installs it",
  flake8: "flake8: scripts/bootstrap.sh installs Debian's flake8",
  python3: "python3 with pytest: scripts/bootstrap.sh installs python3-pytest",
  pytest9:
    "a python3 whose pytest is 9 or later (subtests reported as SUBFAILED): pip install 'pytest>=9' into python3 or a pyenv interpreter",
  go: "the go toolchain: scripts/bootstrap.sh installs Debian's golang-go",
  cargo: "cargo: the machine image has it (rustup's)",
  build: "the built CLI in dist/: make test builds it first (npm run build)",
  npm: "the npm packages: make test runs npm ci first (scripts/bootstrap.sh)",
} as const;

export type Need = keyof typeof NEEDS;

/** A suite's body, and a test's. */
type SuiteBody = () => void;
type Body = () => unknown;

/** The marker skipped tests carry in their names; the summary reporter counts them by it. */
export const SKIP_MARK = "[skipped: needs ";

/** Set when this run must fail rather than skip (CI); a test may pass the environment it reads. */
export function strict(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI === "true" || env.CI === "1";
}

function failure(need: Need, missing: string): Error {
  return new Error(`${need} is missing here (${missing}) — ${NEEDS[need]}`);
}

/**
 * `describe` and `it` for tests that need `need`. `missing` says why it is not there (undefined,
 * null, false or "" when it is). Under CI=true a missing need fails one test named after the
 * suite; otherwise the tests are skipped with the reason in their names.
 */
export function needing(need: Need, missing: string | undefined | null | false) {
  if (!missing)
    return {
      describe: (title: string, body: SuiteBody) => describe(title, body),
      it: (title: string, body: Body, timeout?: number) => it(title, body, timeout),
    };
  const marked = (title: string) => `${title} ${SKIP_MARK}${need}: ${missing}]`;
  if (strict())
    return {
      describe: (title: string, _body: SuiteBody) =>
        describe(title, () => {
          it(`has what it needs: ${need}`, () => {
            throw failure(need, missing);
          });
        }),
      it: (title: string, _body: Body) =>
        it(title, () => {
          throw failure(need, missing);
        }),
    };
  return {
    describe: (title: string, body: SuiteBody) => describe.skip(marked(title), body),
    it: (title: string, body: Body) => it.skip(marked(title), body),
  };
}

/**
 * `needing` for tests with several needs (bwrap and root, say): the first one missing decides, so a
 * skip or a CI failure names the thing to fix first.
 */
export function needingAll(needs: ReadonlyArray<readonly [Need, string | undefined | null | false]>) {
  const first = needs.find(([, missing]) => missing);
  return first ? needing(first[0], first[1]) : needing(needs[0]?.[0] ?? "build", undefined);
}

/** The reason a probe gives when its tool is not usable, undefined when it is. */
export function unless(probe: { ok: boolean; reason: string }): string | undefined {
  return probe.ok ? undefined : probe.reason || "its probe failed";
}

/** Why a test that must run as root cannot, undefined as root. */
export const notRoot: string | undefined = process.getuid?.() === 0 ? undefined : "not running as root";
