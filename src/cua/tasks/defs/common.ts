import { esc, page } from "../app/html.js";
import type { Route } from "../app/server.js";

/** Pages no single task owns: the settings index, the API keys page and the field log. */
export const COMMON_ROUTES: Route[] = [
  { method: "GET", path: "/", handle: () => ({ redirect: "/dashboard" }) },
  {
    method: "GET",
    path: "/settings",
    handle: () => ({
      html: page(
        "Settings",
        `<h1>Settings</h1>
<ul>
<li><a href="/settings/notifications">Notifications</a></li>
<li><a href="/settings/privacy">Privacy</a></li>
<li><a href="/settings/account">Account</a></li>
<li><a href="/settings/api-keys">API keys</a></li>
</ul>`,
      ),
    }),
  },
  {
    method: "GET",
    path: "/settings/api-keys",
    handle: ({ state }) => ({
      html: page(
        "API keys",
        `<h1>API keys</h1>
<p>Production key (keep it secret):</p>
<p><code id="api-key" style="font-size:18px">${esc(state.apiKey)}</code></p>`,
      ),
    }),
  },
  // The page script posts every field's value and every paste here; the server's leak check reads it.
  { method: "POST", path: "/api/field-log", handle: () => ({ json: { ok: true } }) },
];
