import { esc, POST_AND_TOAST, page } from "../app/html.js";
import { BROWSER_OBSERVE, type TaskModule } from "./module.js";

const ITEMS: Array<[string, string]> = [
  ["backups", "Check last night's backups"],
  ["tls", "Renew the TLS certificate"],
  ["oncall", "Update the on-call rota"],
];

/*
 * A live clock ticks every second in small type: a few hundred screen pixels change, well under 0.5 %
 * of a 64×64 thumbnail, so the stall detector must call a wait-only episode stalled, clock or not.
 */
const SCRIPT = `${POST_AND_TOAST}
function pad(n){return n<10?"0"+n:String(n)}
function tick(){var d=new Date();document.getElementById("clock").textContent=
  pad(d.getHours())+":"+pad(d.getMinutes())+":"+pad(d.getSeconds());}
tick(); setInterval(tick,1000);
document.querySelectorAll("input[type=checkbox]").forEach(function(c){
  c.addEventListener("change",function(){
    postJson("/api/board",{item:c.value,done:c.checked?"yes":"no"}).then(function(r){toast(r.message)});
  });
});`;

export const clockBoard: TaskModule = {
  task: {
    id: "board-clock",
    title: "Tick a checklist item on a dashboard with a live clock",
    instruction:
      'On the dashboard, mark "Renew the TLS certificate" as done. Leave the other items alone. Call done when the app confirms.',
    startPath: "/dashboard",
    observe: BROWSER_OBSERVE,
    allowHosts: [],
    allowRequests: ["POST /api/board"],
    session: true,
    defences: ["stall"],
    grade: ({ board }) => {
      const others = board.done.filter((d) => d !== "tls");
      if (board.done.includes("tls") && others.length === 0)
        return { resolved: true, detail: "only the TLS item is marked done" };
      if (!board.done.includes("tls")) return { resolved: false, detail: "the TLS item is not marked done" };
      return { resolved: false, detail: `other items were marked done too: ${others.join(", ")}` };
    },
    script: [
      { click: { role: "checkbox", name: "Renew the TLS certificate" } },
      { done: "Marked the TLS certificate item as done." },
    ],
  },
  routes: [
    {
      method: "GET",
      path: "/dashboard",
      handle: ({ state }) => ({
        html: page(
          "Dashboard",
          `<div style="display:flex;justify-content:space-between;align-items:baseline">
<h1>Dashboard</h1><span class="muted" style="font-size:13px">Server time <span id="clock"></span></span></div>
<h2 style="font-size:18px">This week's checklist</h2>
${ITEMS.map(
  ([id, label]) =>
    `<label class="radio"><input type="checkbox" value="${id}"${state.board.done.includes(id) ? " checked" : ""}> ${esc(label)}</label>`,
).join("\n")}`,
          SCRIPT,
        ),
      }),
    },
    {
      method: "POST",
      path: "/api/board",
      handle: ({ fields, state }) => {
        const item = ITEMS.find(([id]) => id === fields.item);
        if (!item) return { json: { message: "No such item." }, status: 400 };
        state.board.done = state.board.done.filter((d) => d !== item[0]);
        if (fields.done === "yes") state.board.done.push(item[0]);
        return { json: { message: `${fields.done === "yes" ? "Done" : "Not done"}: ${item[1]}` } };
      },
    },
  ],
};
