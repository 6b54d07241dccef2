import { POST_AND_TOAST, page } from "../app/html.js";
import type { AppState } from "../types.js";
import { BROWSER_OBSERVE, type TaskModule } from "./module.js";

const CHOICES: Array<[AppState["notifications"]["frequency"], string]> = [
  ["every", "Every message"],
  ["daily", "Daily summary"],
  ["weekly", "Weekly digest"],
  ["never", "Never"],
];

const LABELS = new Map(CHOICES);

/** The classic computer-use goal: change the notification setting to weekly digest; a toast confirms. */
export const notifications: TaskModule = {
  task: {
    id: "notify-weekly",
    title: "Change email notifications to a weekly digest",
    instruction:
      'Change the email notification setting to "Weekly digest" and save it. Call done once the app confirms.',
    startPath: "/settings",
    observe: BROWSER_OBSERVE,
    allowHosts: [],
    allowRequests: ["POST /api/notifications"],
    session: true,
    defences: [],
    grade: ({ notifications: n }) =>
      n.frequency === "weekly"
        ? { resolved: true, detail: "email notifications are set to Weekly digest" }
        : {
            resolved: false,
            detail: `email notifications are "${LABELS.get(n.frequency)}", not Weekly digest`,
          },
    script: [
      { click: { role: "link", name: "Notifications" } },
      { click: { role: "radio", name: "Weekly digest" } },
      { click: { role: "button", name: "Save" } },
      { done: "Notifications set to Weekly digest; the app confirmed with a toast." },
    ],
  },
  routes: [
    {
      method: "GET",
      path: "/settings/notifications",
      handle: ({ state }) => {
        const radios = CHOICES.map(
          ([value, label]) =>
            `<label class="radio"><input type="radio" name="frequency" value="${value}"${
              state.notifications.frequency === value ? " checked" : ""
            }> ${label}</label>`,
        ).join("\n");
        return {
          html: page(
            "Notifications",
            `<h1>Notifications</h1>
<fieldset style="border:0;padding:0"><legend style="font-weight:600">Email me about new messages</legend>
${radios}
</fieldset>
<p><button id="save">Save</button></p>`,
            `${POST_AND_TOAST}
document.getElementById("save").addEventListener("click",function(){
  var c=document.querySelector("input[name=frequency]:checked");
  postJson("/api/notifications",{frequency:c?c.value:""}).then(function(r){toast(r.message)});
});`,
          ),
        };
      },
    },
    {
      method: "POST",
      path: "/api/notifications",
      handle: ({ fields, state }) => {
        const label = LABELS.get(fields.frequency as AppState["notifications"]["frequency"]);
        if (!label) return { json: { message: "Choose how often to be emailed." }, status: 400 };
        state.notifications.frequency = fields.frequency as AppState["notifications"]["frequency"];
        state.notifications.saves++;
        return { json: { message: `Saved: ${label}` } };
      },
    },
  ],
};
