import { writeFileSync, rmSync } from "node:fs";
import { startRecordedAgentless, recordedTasks } from "../src/agentless/testing.js";
import { loadExperiment, runExperiment, analyzeExperiment, readExperimentDir } from "../src/experiment/index.js";
import { reportMarkdown } from "../src/report/index.js";
const rec = await startRecordedAgentless();
const out = process.argv[2] ?? "/tmp/agx";
rmSync(out, { recursive: true, force: true });
const file = `${out}.yaml`;
writeFileSync(file, `name: agentless-sampled
arms:
  agentless-k1: { policy: "${rec.spec({ k: 1 })}" }
tasks: [${recordedTasks().join(", ")}]
samples: 8
selectors: [oracle, vote, regression>reproduction>vote]
workers: 2
`);
const t0 = performance.now();
const run = await runExperiment(loadExperiment(file), { dir: out, onAttempt: (e) => console.log(`[${e.finished}/${e.total}] ${e.row.task} #${e.row.repeat} ${e.row.status} ${e.row.resolved} ${e.row.stop_reason} ${e.row.error ?? ""}`), onEvidence: (e) => console.log(`evidence ${e.group.task} ${e.error ?? "ok"} ${e.evidence?.wall_s.toFixed(1)}`) });
console.log(`wall ${((performance.now() - t0) / 1000).toFixed(1)} s`, run.evidence);
console.log(reportMarkdown(analyzeExperiment(readExperimentDir(out)), out).split("## Sampling")[1]?.split("## Per task")[0]);
await rec.close();
