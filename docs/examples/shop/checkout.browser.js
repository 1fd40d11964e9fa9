// The shop's checkout page script (served by shop.ts at /checkout.js). The drop-in's event only says
// the person answered: the page then asks the shop's own server, which confirms with the service (its
// callback, or a poll) before anything ships. Never act on the browser's word.
const element = document.querySelector("age-verification");
const confirmation = document.getElementById("confirmation");

element?.addEventListener("age-verification-status", async () => {
  const orderId = document.body.dataset.order;
  const response = await fetch(`/orders/${encodeURIComponent(orderId ?? "")}/age`, { cache: "no-store" });
  const order = await response.json();
  if (!confirmation) return;
  confirmation.dataset.status = order.status;
  confirmation.textContent =
    order.status === "APPROVED"
      ? `Thank you: your age is confirmed (checked by the shop's server, ${order.confirmed_by}). Your order can ship.`
      : `The shop's server sees the age check as ${order.status}: this order cannot ship.`;
});
