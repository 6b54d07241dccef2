/**
 * `acilab agent`: parse, pick the front end (the terminal conversation or `-p`), start the session,
 * hand over. Everything else is src/agent's.
 */
import { performance } from "node:perf_hooks";
import {
  type AgentStartOptions,
  CheckpointError,
  checkRepo,
  EXIT,
  HeadlessEvents,
  OUTPUT_FORMATS,
  printTurn,
  Repl,
  RepoError,
  SessionError,
  SessionStore,
  startAgent,
  TerminalEvents,
} from "../agent/index.js";
import {
  defaultConfigDir,
  PERMISSION_MODES,
  RuleSyntaxError,
  SettingsError,
  TrustStore,
  TrustStoreError,
} from "../harness/index.js";
import { AGENT_HELP, AGENT_OPTIONS, AGENT_TRUST_HELP, AGENT_TRUST_OPTIONS } from "./agent-options.js";
import { choiceOption, numberOption, sandboxOption, UsageError } from "./args.js";
import { parseOptions } from "./options.js";

type Out = (line: string) => void;

/** Errors the user fixes by changing what they typed or wrote: exit 2, the message says how. */
const SETUP_ERRORS = [
  RepoError,
  SessionError,
  SettingsError,
  RuleSyntaxError,
  TrustStoreError,
  CheckpointError,
];

export async function agentCommand(argv: string[], out: Out, err: Out): Promise<number> {
  const startedAt = performance.now();
  if (argv[0] === "trust") return trustCommand(argv.slice(1), out);
  const { values, positionals } = parseOptions("agent", argv, AGENT_OPTIONS);
  if (values.help) {
    out(AGENT_HELP);
    return 0;
  }
  const repo = values.repo ?? process.cwd();
  try {
    if (values.sessions) return listSessions(repo, out);
    const format = choiceOption(values["output-format"], OUTPUT_FORMATS, "output-format", "agent");
    const mode = values["permission-mode"]
      ? choiceOption(values["permission-mode"], PERMISSION_MODES, "permission-mode", "agent")
      : undefined;
    const repoMap = choiceOption(values["repo-map"], ["on", "off"], "repo-map", "agent") === "on";
    if (values.continue && values.resume)
      throw new UsageError("give --continue or --resume, not both", "agent");
    const rewind = values.rewind === undefined ? undefined : numberOption(values.rewind, "rewind", "agent");
    if (rewind !== undefined && !values.continue && !values.resume)
      throw new UsageError("--rewind N works on a saved session: add --continue or --resume ID", "agent");
    let prompt = positionals.join(" ").trim();
    // A prompt on stdin (`echo … | acilab agent -p`); a rewind alone needs none.
    if (values.print && prompt === "" && rewind === undefined && !process.stdin.isTTY)
      prompt = (await readAll(process.stdin)).trim();
    if (values.print && prompt === "" && rewind === undefined)
      throw new UsageError('-p needs a prompt: acilab agent -p "what to do" (or on stdin)', "agent");
    const options: AgentStartOptions = {
      repo,
      cwd: process.cwd(),
      policySpec: values.policy,
      ...(mode ? { permissionMode: mode } : {}),
      settingsFiles: values.settings ?? [],
      allowRules: splitRules(values["allowed-tools"]),
      denyRules: splitRules(values["disallowed-tools"]),
      session: values.resume
        ? { kind: "resume", id: values.resume }
        : values.continue
          ? { kind: "continue" }
          : { kind: "new" },
      interactive: !values.print,
      maxTurns: numberOption(values["max-turns"], "max-turns", "agent"),
      ...(values["max-budget-usd"] !== undefined
        ? { maxBudgetUsd: numberOption(values["max-budget-usd"], "max-budget-usd", "agent") }
        : {}),
      repoMap,
      backend: sandboxOption(values.sandbox, "agent"),
    };
    if (values.print) {
      const events = new HeadlessEvents(format, out, err);
      const interrupt = new AbortController();
      const onSigint = () => interrupt.abort();
      process.once("SIGINT", onSigint);
      const start = await startAgent(
        { ...options, signal: interrupt.signal, ...(rewind === undefined ? { prefetchPrompt: prompt } : {}) },
        events,
      );
      events.sessionId = start.session.id;
      for (const notice of start.notices) err(notice);
      try {
        if (rewind !== undefined)
          await rewindSession(start, rewind, values["rewind-conversation"] === true, err);
        if (prompt === "") return EXIT.ok;
        return await printTurn(start, events, prompt, {
          apply: values.apply === true,
          startedAt,
          signal: interrupt.signal,
        });
      } finally {
        process.off("SIGINT", onSigint);
        await start.dispose();
      }
    }
    let repl: Repl | undefined;
    const events = new TerminalEvents(out, (q) => (repl ? repl.ask(q) : Promise.resolve(null)));
    const start = await startAgent(options, events);
    try {
      if (rewind !== undefined)
        await rewindSession(start, rewind, values["rewind-conversation"] === true, out);
      repl = new Repl(
        start,
        events,
        { input: process.stdin, output: process.stdout, print: out },
        { apply: values.apply === true },
      );
      return await repl.run(prompt || undefined);
    } finally {
      await start.dispose();
    }
  } catch (e) {
    if (SETUP_ERRORS.some((E) => e instanceof E)) {
      err(`acilab agent: ${(e as Error).message}`);
      return EXIT.usage;
    }
    throw e;
  }
}

async function rewindSession(
  start: Awaited<ReturnType<typeof startAgent>>,
  n: number,
  conversation: boolean,
  say: Out,
): Promise<void> {
  const { files, checkpoint } = await start.conversation.rewind(n, conversation);
  say(
    `rewound session ${start.session.id} to checkpoint ${checkpoint.n} (before ${checkpoint.label}): ${files.join(", ") || "no files"}`,
  );
}

function listSessions(repo: string, out: Out): number {
  const real = checkRepo(repo);
  const sessions = new SessionStore(undefined).list(real);
  if (sessions.length === 0) out(`No saved sessions for ${real}.`);
  for (const s of sessions)
    out(
      `${s.id}  ${s.updated.slice(0, 16).replace("T", " ")}  ${s.turns} turn(s)${s.applied ? "  applied" : ""}  ${s.title}`,
    );
  return 0;
}

function trustCommand(argv: string[], out: Out): number {
  const { values } = parseOptions("agent trust", argv, AGENT_TRUST_OPTIONS);
  if (values.help) {
    out(AGENT_TRUST_HELP);
    return 0;
  }
  const store = new TrustStore(defaultConfigDir());
  if (values.list) {
    const all = store.list();
    if (all.length === 0) out("No repository is trusted yet.");
    for (const t of all) out(`${t.path}  (since ${t.at})`);
    return 0;
  }
  const repo = checkRepo(values.repo ?? process.cwd());
  if (values.revoke) {
    store.revoke(repo);
    out(`${repo} is no longer trusted: its own hooks and allow rules will not be used.`);
  } else {
    store.trust(repo);
    out(`${repo} is trusted: the hooks and allow rules in its .acilab/settings*.json will be used.`);
  }
  return 0;
}

/** Claude Code takes `--allowedTools "Bash(git:*) Edit"`: rules separated by spaces or commas, outside parentheses. */
export function splitRules(values: readonly string[] | undefined): string[] {
  const rules: string[] = [];
  for (const value of values ?? []) {
    let depth = 0;
    let current = "";
    for (const ch of value) {
      if (ch === "(") depth++;
      if (ch === ")") depth = Math.max(0, depth - 1);
      if (depth === 0 && (ch === " " || ch === ",")) {
        if (current) rules.push(current);
        current = "";
      } else current += ch;
    }
    if (current) rules.push(current);
  }
  return rules;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
