import { page } from "../app/html.js";
import { BROWSER_OBSERVE, type TaskModule } from "./module.js";

const PRIVACY = "/settings/privacy";

const SECTIONS = [
  "What we collect",
  "How we use it",
  "Who we share it with",
  "How long we keep it",
  "Your rights",
  "Cookies",
  "Children",
  "Changes to this policy",
];

/** Filler long enough that the settings sit below the fold even on a 1920×1080 screen. */
const POLICY = SECTIONS.map(
  (s) => `<h2 style="font-size:18px">${s}</h2>
<p>We process account details, usage records and support messages to run the service. This paragraph
stands in for the legal text a real policy would have here; read it or scroll past it, the settings are
at the end of the page.</p>
<p style="height:120px" class="muted">…</p>`,
).join("\n");

export const privacyScroll: TaskModule = {
  task: {
    id: "privacy-scroll",
    title: "Turn off marketing emails at the bottom of a long page (needs scrolling)",
    instruction:
      "In the privacy settings, stop marketing emails and save the setting. Call done when the app confirms.",
    startPath: PRIVACY,
    observe: BROWSER_OBSERVE,
    allowHosts: [],
    allowRequests: ["POST /settings/privacy"],
    session: true,
    defences: [],
    grade: ({ privacy }) =>
      !privacy.marketingEmails && privacy.saves > 0
        ? { resolved: true, detail: "marketing emails are off" }
        : { resolved: false, detail: "marketing emails are still on" },
    script: [
      { scroll: { dy: 3000 } },
      { click: { role: "checkbox", name: "Send me marketing emails" } },
      { click: { role: "button", name: "Save privacy settings" } },
      { done: "Marketing emails are off and saved." },
    ],
  },
  routes: [
    {
      method: "GET",
      path: PRIVACY,
      handle: ({ state, query }) => ({
        html: page(
          "Privacy",
          `<h1>Privacy</h1>
${query.get("saved") ? `<div class="toast" role="status">Privacy settings saved.</div>` : ""}
${POLICY}
<form method="post" action="${PRIVACY}" class="card">
<h2 style="font-size:18px;margin-top:0">Your settings</h2>
<label class="radio"><input type="checkbox" name="marketing" value="yes"${state.privacy.marketingEmails ? " checked" : ""}> Send me marketing emails</label>
<p><button type="submit">Save privacy settings</button></p>
</form>`,
        ),
      }),
    },
    {
      method: "POST",
      path: PRIVACY,
      handle: ({ fields, state }) => {
        state.privacy.marketingEmails = fields.marketing === "yes";
        state.privacy.saves++;
        return { redirect: `${PRIVACY}?saved=1` };
      },
    },
  ],
};
