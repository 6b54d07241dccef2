import { esc, POST_AND_TOAST, page } from "../app/html.js";
import { BROWSER_OBSERVE, type TaskModule } from "./module.js";

const MESSAGES: Array<[string, string, string]> = [
  ["welcome", "Northwind team", "Welcome to your new inbox"],
  ["standup", "Priya Shah", "Standup moved to 10:30"],
  ["billing", "Billing team", "Your March invoice"],
  ["lunch", "Alex Kim", "Lunch on Friday?"],
];

/*
 * A keyboard-driven list (like a mail client): arrows move the selection, E archives. There is no
 * archive button, so the keyboard is the way; it is also coordinate-free, and keyboard runs need fewer turns.
 */
const SCRIPT = `${POST_AND_TOAST}
var list=document.getElementById("messages"), sel=0;
function rows(){return Array.prototype.slice.call(list.querySelectorAll("[role=option]"))}
function paint(){rows().forEach(function(r,i){r.setAttribute("aria-selected",String(i===sel));
  r.style.background=i===sel?"#dbe6fb":"";});}
list.focus(); paint();
list.addEventListener("click",function(e){var r=e.target.closest("[role=option]"); if(!r) return;
  sel=rows().indexOf(r); paint();});
document.addEventListener("keydown",function(e){
  var n=rows().length; if(n===0) return;
  if(e.key==="ArrowDown"||e.key==="j"){sel=Math.min(n-1,sel+1);paint();e.preventDefault();}
  else if(e.key==="ArrowUp"||e.key==="k"){sel=Math.max(0,sel-1);paint();e.preventDefault();}
  else if(e.key==="e"||e.key==="E"){var r=rows()[sel];
    postJson("/api/inbox/archive",{id:r.dataset.id}).then(function(res){toast(res.message)});
    r.remove(); sel=Math.min(sel,rows().length-1); paint();}
});`;

export const inboxKeyboard: TaskModule = {
  task: {
    id: "inbox-keyboard",
    title: "Archive one message in a keyboard-driven inbox",
    instruction:
      'Archive the message from "Billing team" in the inbox, and no other message. Call done when it is archived.',
    startPath: "/inbox",
    observe: BROWSER_OBSERVE,
    allowHosts: [],
    allowRequests: ["POST /api/inbox/archive"],
    session: true,
    defences: [],
    grade: ({ inbox }) => {
      const wrong = inbox.archived.filter((id) => id !== "billing");
      if (wrong.length > 0)
        return { resolved: false, detail: `archived the wrong message(s): ${wrong.join(", ")}` };
      return inbox.archived.includes("billing")
        ? { resolved: true, detail: "the Billing team message, and only it, is archived" }
        : { resolved: false, detail: "the Billing team message is still in the inbox" };
    },
    script: [
      { key: "ArrowDown" },
      { key: "ArrowDown" },
      { key: "e" },
      { done: "Archived the Billing team message with the keyboard." },
    ],
  },
  routes: [
    {
      method: "GET",
      path: "/inbox",
      handle: ({ state }) => {
        const shown = MESSAGES.filter(([id]) => !state.inbox.archived.includes(id));
        return {
          html: page(
            "Inbox",
            `<h1>Inbox</h1>
<p class="muted">Keyboard: ↑/↓ (or j/k) select a message · E archives the selected message.</p>
<div id="messages" role="listbox" aria-label="Messages" tabindex="0" style="outline:none;border:1px solid #d9dde5;border-radius:6px">
${shown.map(([id, from, subject]) => `<div role="option" data-id="${id}" aria-selected="false" style="padding:12px 16px;border-bottom:1px solid #eceef2"><strong>${esc(from)}</strong> — ${esc(subject)}</div>`).join("\n")}
</div>`,
            SCRIPT,
          ),
        };
      },
    },
    {
      method: "POST",
      path: "/api/inbox/archive",
      handle: ({ fields, state }) => {
        const msg = MESSAGES.find(([id]) => id === fields.id);
        if (!msg) return { json: { message: "No such message." }, status: 400 };
        if (!state.inbox.archived.includes(msg[0])) state.inbox.archived.push(msg[0]);
        return { json: { message: `Archived: ${msg[2]}` } };
      },
    },
  ],
};
