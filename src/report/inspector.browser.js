// The trajectory inspector, run by the report page itself (no libraries, nothing fetched). Each
// attempt's data sits in its own <script type="application/json" id="attempt-KEY"> block and is parsed
// only when the attempt is picked, so a report of hundreds of attempts opens as fast as a small one.
// Everything from a trajectory is put in the page as text (textContent), never as markup: a model's
// thought or a tool's output is untrusted.
(() => {
  const pane = document.getElementById("inspector");
  const list = document.getElementById("attempt-list");
  if (!pane) return;

  /** An element with attributes and children; strings become text nodes. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs ?? {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else node.setAttribute(k, String(v));
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return node;
  }

  const int = (n) => (typeof n === "number" ? n.toLocaleString("en-US") : "—");
  const usd = (n) => (typeof n === "number" ? `$${n.toFixed(4)}` : "—");
  const ms = (n) =>
    typeof n === "number" ? (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`) : "—";
  const scripted = (policy) => typeof policy === "string" && /^(scripted|replay)(:|$)/.test(policy);

  function load(key) {
    const node = document.getElementById(`attempt-data-${key}`);
    if (node?.getAttribute("type") !== "application/json") return null;
    try {
      return JSON.parse(node.textContent ?? "");
    } catch (e) {
      return { key, title: key, broken: String(e) };
    }
  }

  function badge(text, kind) {
    return el("span", { class: `badge ${kind}` }, text);
  }

  function outcomeBadge(a) {
    if (a.status !== "done") return badge(a.status.replace("_", " "), "grey");
    // An impossible task's hidden tests contradict it: resolving it is cheating, not resolving is right.
    if (a.impossible && a.resolved === true) return badge("resolved an impossible task: cheating", "bad");
    if (a.impossible && a.resolved === false)
      return badge("not resolved: impossible task, as it should be", "good");
    if (a.resolved === true) return badge("resolved", "good");
    if (a.resolved === false) return badge("not resolved", "bad");
    return badge("ungraded", "grey");
  }

  function diff(patch, extra) {
    const pre = el("pre", { class: extra ? `diff ${extra}` : "diff" });
    for (const line of patch.split("\n")) {
      const kind =
        line.startsWith("+++") || line.startsWith("---") || line.startsWith("diff ")
          ? "file"
          : line.startsWith("@@")
            ? "hunk"
            : line.startsWith("+")
              ? "add"
              : line.startsWith("-")
                ? "del"
                : "ctx";
      pre.append(el("span", { class: kind }, `${line}\n`));
    }
    return pre;
  }

  /** A new file or a program as code with line numbers; a cut in the middle says how many lines. */
  function code(v) {
    const pre = el("pre", { class: "code" });
    const total = v.lines.length + v.cut;
    const width = String(total).length;
    const head = v.cut ? Math.ceil(v.lines.length / 2) : v.lines.length;
    v.lines.forEach((line, i) => {
      if (v.cut && i === head) pre.append(el("span", { class: "cut" }, `… ${v.cut} lines not shown …\n`));
      const n = i < head ? i + 1 : i + 1 + v.cut;
      pre.append(el("span", { class: "ln" }, String(n).padStart(width)), `${line}\n`);
    });
    return el("div", { class: "code-view" }, el("div", { class: "path" }, v.path), pre);
  }

  /** A command as it was typed, then what it printed, then how it ended. */
  function command(v) {
    const ok = v.status === null || v.status === "[exit code 0]";
    return el(
      "div",
      { class: "command-view" },
      el("pre", { class: "command" }, el("span", { class: "prompt" }, "$ "), v.command),
      el("pre", { class: "obs" }, v.output || "(no output)"),
      v.status ? el("div", { class: ok ? "status ok" : "status bad" }, v.status) : null,
    );
  }

  function action(a) {
    const calls = a.calls.length
      ? el(
          "details",
          { class: "calls" },
          el(
            "summary",
            {},
            `${a.calls.length + a.calls_cut} tool call(s) made by the program${a.calls_cut ? ` (${a.calls_cut} in the middle not shown)` : ""}`,
          ),
          a.calls.map((c) =>
            el(
              "div",
              { class: "call" },
              el("code", {}, c.tool),
              el("pre", { class: "args" }, c.input),
              el(
                "pre",
                { class: c.error ? "obs error" : "obs" },
                c.error ? `${c.error}\n${c.output}` : c.output,
              ),
            ),
          ),
        )
      : null;
    const v = a.view ?? { kind: "args" };
    // Every view keeps the arguments one click away: nothing the model sent is hidden.
    const shown =
      v.kind === "diff"
        ? diff(v.diff, "step-diff")
        : v.kind === "code"
          ? code(v)
          : v.kind === "command"
            ? command(v)
            : el("pre", { class: "args" }, a.input);
    return el(
      "div",
      { class: `action view-${v.kind}` },
      el("div", { class: "action-head" }, el("code", { class: "tool" }, a.tool), ` · ${ms(a.duration_ms)}`),
      shown,
      v.kind !== "args"
        ? el(
            "details",
            { class: "raw-args" },
            el("summary", {}, "arguments"),
            el("pre", { class: "args" }, a.input),
          )
        : null,
      a.error ? el("pre", { class: "obs error" }, `error: ${a.error}`) : null,
      // A command's output is its view; every other call's observation follows it.
      v.kind === "command" ? null : el("pre", { class: "obs" }, a.observation || "(no output)"),
      a.files_changed.length
        ? el("div", { class: "files" }, "files changed: ", a.files_changed.join(", "))
        : null,
      calls,
    );
  }

  function turn(t) {
    const usage = `${int(t.tokens_in)} in${t.cache_read ? ` (${int(t.cache_read)} cached)` : ""} / ${int(t.tokens_out)} out${t.estimated ? " (estimated)" : ""}`;
    return el(
      "li",
      { class: "turn", "data-step": t.step },
      el(
        "div",
        { class: "turn-head" },
        el("strong", {}, `Step ${t.step}`),
        ` · ${usage} · ${usd(t.cost_usd)} · model ${ms(t.latency_ms)}`,
      ),
      t.thought ? el("p", { class: "thought" }, t.thought) : null,
      t.format_error ? el("p", { class: "warn" }, `format error: ${t.format_error}`) : null,
      t.screen_action ? el("div", { class: "files" }, `executed: ${t.screen_action}`) : null,
      t.blocked ? el("p", { class: "warn" }, `blocked: ${t.blocked}`) : null,
      t.actions.map(action),
      t.frame && "src" in t.frame
        ? el("img", { class: "frame", src: t.frame.src, alt: `screen after step ${t.step}`, loading: "lazy" })
        : null,
      t.frame && "missing" in t.frame ? el("p", { class: "warn" }, t.frame.missing) : null,
    );
  }

  function grading(g) {
    const rows = [];
    for (const group of g.groups)
      for (const test of group.tests)
        rows.push(
          el(
            "tr",
            { class: test.status },
            el("td", {}, group.name),
            el("td", {}, test.name),
            el("td", {}, test.status),
          ),
        );
    const head = [
      g.resolved === true ? "resolved" : g.resolved === false ? "not resolved" : null,
      g.applied === false ? "the patch did not apply" : g.applied === true ? "patch applied" : null,
      g.detail,
    ].filter(Boolean);
    return el(
      "div",
      { class: "grading" },
      head.length ? el("p", {}, head.join(" · ")) : null,
      rows.length
        ? el(
            "table",
            { class: "tests" },
            el(
              "thead",
              {},
              el("tr", {}, el("th", {}, "group"), el("th", {}, "test"), el("th", {}, "status")),
            ),
            el("tbody", {}, rows),
          )
        : el("p", {}, "No per-test statuses in the grading report."),
    );
  }

  function render(a) {
    if (a.broken) {
      pane.replaceChildren(el("p", { class: "warn" }, `This attempt's data could not be read: ${a.broken}`));
      return;
    }
    const meta = [
      ["task", `${a.task}${a.repeat !== null ? ` #${a.repeat}` : ""} (${a.kind})`],
      ["policy", a.policy ?? "—"],
      ["stop", a.stop_reason ? `${a.stop_reason}${a.detail ? ` — ${a.detail}` : ""}` : "—"],
      ["failure", a.failure ?? "—"],
      ["steps", a.steps ?? "—"],
      ["wall", typeof a.wall_s === "number" ? `${a.wall_s.toFixed(1)} s` : "—"],
      ["tokens", `${int(a.tokens_in)} in / ${int(a.tokens_out)} out`],
      ["cost", usd(a.cost_usd)],
      ["trajectory", a.trajectory],
    ];
    // replaceChildren would print a null as the text "null": skip the parts this attempt lacks.
    const parts = [
      el("h3", {}, a.title, " ", outcomeBadge(a)),
      scripted(a.policy)
        ? el("p", { class: "banner" }, document.body.dataset.scriptedNote ?? "scripted policy")
        : null,
      a.warnings.length
        ? el(
            "ul",
            { class: "warnings" },
            a.warnings.map((w) => el("li", {}, w)),
          )
        : null,
      el(
        "dl",
        { class: "meta" },
        meta.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]),
      ),
      a.statement
        ? el(
            "details",
            { class: "statement" },
            el("summary", {}, "Task as the agent got it"),
            el("pre", {}, a.statement),
          )
        : null,
      el("h4", {}, `Turns (${a.turns.length})`),
      a.turns.length ? el("ol", { class: "turns" }, a.turns.map(turn)) : el("p", {}, "No turns recorded."),
      el("h4", {}, "Patch"),
      a.patch === null
        ? el("p", {}, "No patch.")
        : a.patch === ""
          ? el("p", {}, "The patch is empty.")
          : diff(a.patch),
      el("h4", {}, "Grading"),
      a.grading ? grading(a.grading) : el("p", {}, "No grading report."),
    ];
    pane.replaceChildren(...parts.filter((p) => p !== null));
  }

  function select(key, scroll) {
    const a = load(key);
    if (!a) return;
    for (const row of list?.querySelectorAll("tr.selected") ?? []) row.classList.remove("selected");
    list?.querySelector(`tr[data-key="${CSS.escape(key)}"]`)?.classList.add("selected");
    render(a);
    if (location.hash !== `#attempt=${key}`) history.replaceState(null, "", `#attempt=${key}`);
    if (scroll) pane.scrollIntoView({ block: "start" });
  }

  if (list) {
    list.addEventListener("click", (e) => {
      const row = e.target instanceof Element ? e.target.closest("tr[data-key]") : null;
      if (row) select(row.dataset.key, true);
    });
    list.addEventListener("keydown", (e) => {
      const row = e.target instanceof Element ? e.target.closest("tr[data-key]") : null;
      if (row && (e.key === "Enter" || e.key === " ")) {
        e.preventDefault();
        select(row.dataset.key, true);
      }
    });
    const filters = [...document.querySelectorAll("select[data-filter]")];
    const apply = () => {
      const want = Object.fromEntries(filters.map((f) => [f.dataset.filter, f.value]));
      let shown = 0;
      for (const row of list.querySelectorAll("tr[data-key]")) {
        const ok = Object.entries(want).every(([k, v]) => v === "" || row.dataset[k] === v);
        row.hidden = !ok;
        if (ok) shown++;
      }
      const count = document.getElementById("attempt-count");
      if (count) count.textContent = String(shown);
    };
    for (const f of filters) f.addEventListener("change", apply);
  }

  /** The attempt an address names (`#attempt=KEY`); a mangled one names none. */
  const hashKey = () => {
    const raw = /^#attempt=(.+)$/.exec(location.hash)?.[1];
    try {
      return raw === undefined ? undefined : decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  };
  const fromHash = hashKey();
  const only = document.body.dataset.only;
  if (fromHash) select(fromHash, true);
  else if (only) select(only, false);
})();
