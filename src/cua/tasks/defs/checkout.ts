import { esc, page } from "../app/html.js";
import { BROWSER_OBSERVE, type TaskModule } from "./module.js";

const CART = ["Walnut desk organiser", "USB-C cable (2 m)"];
const ADA = { name: "Ada Lovelace", street: "12 Analytical Street", city: "London" };

const norm = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();

/** A three-page checkout: cart → shipping address → confirm; each step is a real page load. */
export const checkout: TaskModule = {
  task: {
    id: "checkout-flow",
    title: "Check out a cart across three pages",
    instruction: `Buy the items in the shopping cart and ship them to ${ADA.name}, ${ADA.street}, ${ADA.city}. Call done when the order is placed.`,
    startPath: "/shop/cart",
    observe: BROWSER_OBSERVE,
    allowHosts: [],
    allowRequests: ["POST /shop/address", "POST /shop/order"],
    session: true,
    defences: [],
    grade: ({ shop }) => {
      const order = shop.orders.at(-1);
      if (!order) return { resolved: false, detail: "no order was placed" };
      if (shop.orders.length > 1)
        return { resolved: false, detail: `${shop.orders.length} orders were placed, not one` };
      const a = order.address;
      const right =
        norm(a.name) === norm(ADA.name) &&
        norm(a.city) === norm(ADA.city) &&
        norm(a.street) === norm(ADA.street);
      return right
        ? { resolved: true, detail: `order #${order.id} ships to ${ADA.name}, ${ADA.city}` }
        : { resolved: false, detail: `order #${order.id} ships to "${a.name}, ${a.street}, ${a.city}"` };
    },
    script: [
      { click: { role: "link", name: "Proceed to checkout" } },
      { type: ADA.name, into: { role: "textbox", name: "Full name" } },
      { type: ADA.street, into: { role: "textbox", name: "Street" } },
      { type: ADA.city, into: { role: "textbox", name: "City" } },
      { click: { role: "button", name: "Continue" } },
      { click: { role: "button", name: "Place order" } },
      { done: "Order placed, shipping to Ada Lovelace in London." },
    ],
  },
  routes: [
    {
      method: "GET",
      path: "/shop/cart",
      handle: () => ({
        html: page(
          "Cart",
          `<h1>Your cart</h1>
<ul>${CART.map((i) => `<li>${esc(i)}</li>`).join("")}</ul>
<p><a class="button" href="/shop/address">Proceed to checkout</a></p>`,
        ),
      }),
    },
    {
      method: "GET",
      path: "/shop/address",
      handle: ({ state }) => {
        const a = state.shop.address ?? { name: "", street: "", city: "" };
        const field = (id: keyof typeof a, label: string) =>
          `<label for="${id}">${label}</label><input type="text" id="${id}" name="${id}" value="${esc(a[id])}" autocomplete="off">`;
        return {
          html: page(
            "Shipping address",
            `<h1>Shipping address</h1><p class="muted">Step 2 of 3</p>
<form method="post" action="/shop/address">
${field("name", "Full name")}${field("street", "Street")}${field("city", "City")}
<p style="margin-top:20px"><button type="submit">Continue</button></p></form>`,
          ),
        };
      },
    },
    {
      method: "POST",
      path: "/shop/address",
      handle: ({ fields, state }) => {
        const address = { name: fields.name ?? "", street: fields.street ?? "", city: fields.city ?? "" };
        state.shop.address = address;
        const complete = Object.values(address).every((v) => v.trim() !== "");
        return { redirect: complete ? "/shop/confirm" : "/shop/address" };
      },
    },
    {
      method: "GET",
      path: "/shop/confirm",
      handle: ({ state }) => {
        const a = state.shop.address;
        if (!a) return { redirect: "/shop/address" };
        return {
          html: page(
            "Confirm order",
            `<h1>Confirm your order</h1><p class="muted">Step 3 of 3</p>
<p>${CART.map(esc).join(" · ")}</p>
<p>Ship to: <strong>${esc(a.name)}</strong>, ${esc(a.street)}, ${esc(a.city)}</p>
<form method="post" action="/shop/order"><button type="submit">Place order</button></form>`,
          ),
        };
      },
    },
    {
      method: "POST",
      path: "/shop/order",
      handle: ({ state }) => {
        const a = state.shop.address;
        if (!a) return { redirect: "/shop/address" };
        const id = 1001 + state.shop.orders.length;
        state.shop.orders.push({ id, items: [...CART], address: { ...a } });
        return { redirect: `/shop/done?order=${id}` };
      },
    },
    {
      method: "GET",
      path: "/shop/done",
      handle: ({ query }) => ({
        html: page(
          "Order placed",
          `<h1>Order placed</h1><p>Thank you. Order #${esc(query.get("order") ?? "")} is on its way.</p>`,
        ),
      }),
    },
  ],
};
