import { POST_AND_TOAST, page } from "../app/html.js";
import { BROWSER_OBSERVE, type TaskModule } from "./module.js";

const FORMATS: Array<[string, string]> = [
  ["pdf", "PDF"],
  ["csv", "CSV"],
  ["xlsx", "Spreadsheet (XLSX)"],
];

/*
 * The format dropdown is a button that stays `disabled` until "Project name" has text. It is styled
 * exactly like the enabled one, so a screenshot can't tell why it won't open; the a11y tree says
 * "disabled". The options open in the page (not a native popup) so screenshots show them.
 */
const SCRIPT = `${POST_AND_TOAST}
var project=document.getElementById("project"), pick=document.getElementById("format"),
    list=document.getElementById("formats"), chosen="";
project.addEventListener("input",function(){ pick.disabled = project.value.trim()===""; });
pick.addEventListener("click",function(){ list.hidden=!list.hidden; pick.setAttribute("aria-expanded",String(!list.hidden)); });
list.addEventListener("click",function(e){
  var b=e.target.closest("button"); if(!b) return;
  chosen=b.dataset.value; pick.textContent="Format: "+b.textContent+" \\u25BE"; list.hidden=true;
  pick.setAttribute("aria-expanded","false");
});
document.getElementById("request").addEventListener("click",function(){
  postJson("/api/reports",{project:project.value,format:chosen}).then(function(r){toast(r.message)});
});`;

export const reportForm: TaskModule = {
  task: {
    id: "report-csv",
    title: "Request a CSV report (the format dropdown is disabled until a required field is filled)",
    instruction:
      'Request a report for the project "Apollo" in CSV format, then call done once the app confirms.',
    startPath: "/reports/new",
    observe: BROWSER_OBSERVE,
    allowHosts: [],
    allowRequests: ["POST /api/reports"],
    session: true,
    defences: ["a11y-state"],
    grade: ({ report }) => {
      const ok = report.requested.find(
        (r) => r.project.trim().toLowerCase() === "apollo" && r.format === "csv",
      );
      if (ok) return { resolved: true, detail: "a CSV report was requested for Apollo" };
      const got = report.requested.map((r) => `${r.project || "(no project)"}/${r.format || "(no format)"}`);
      return {
        resolved: false,
        detail: got.length ? `requested ${got.join(", ")}, not Apollo/csv` : "no report was requested",
      };
    },
    script: [
      { type: "Apollo", into: { role: "textbox", name: "Project name" } },
      { click: { role: "button", name: /^Format/ } },
      { click: { role: "button", name: "CSV" } },
      { click: { role: "button", name: "Request report" } },
      { done: "Requested a CSV report for Apollo." },
    ],
  },
  routes: [
    {
      method: "GET",
      path: "/reports/new",
      handle: () => ({
        html: page(
          "New report",
          `<h1>New report</h1>
<label for="project">Project name</label>
<input type="text" id="project" name="project" autocomplete="off" required> <span class="muted">required</span>
<label>Format</label>
<div style="position:relative">
<button class="plain" id="format" aria-haspopup="true" aria-expanded="false" disabled>Format: choose… ▾</button>
<div id="formats" hidden style="position:absolute;top:44px;left:0;background:#fff;border:1px solid #98a2b3;border-radius:4px;padding:4px;z-index:2">
${FORMATS.map(([v, l]) => `<button class="plain" data-value="${v}" style="display:block;width:220px;text-align:left;margin:2px 0">${l}</button>`).join("\n")}
</div></div>
<p style="margin-top:28px"><button id="request">Request report</button></p>`,
          SCRIPT,
        ),
      }),
    },
    {
      method: "POST",
      path: "/api/reports",
      handle: ({ fields, state }) => {
        const project = (fields.project ?? "").trim();
        const format = FORMATS.find(([v]) => v === fields.format);
        if (!project || !format)
          return { json: { message: "Fill in the project name and choose a format." }, status: 400 };
        state.report.requested.push({ project, format: format[0] });
        return { json: { message: `Report requested: ${project} (${format[1]})` } };
      },
    },
  ],
};
