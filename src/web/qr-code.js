// @ts-check
// A QR code as SVG elements, built node by node (no innerHTML, no image: a strict CSP allows it), dark on
// light whatever the page's theme so that it scans. Shared by the merchant's drop-in (bundled into
// drop-in/age-verification.browser.js) and the person's account page, which loads it bundled alone as
// qr-code.browser.js (the global AVS_QR); both bundles are generated with the encoder (uqr, pinned) by
// `npm run drop-in` (test/node/drop-in-bundle.test.ts).
import { encode } from "uqr";

/** The QR code of `text` (error correction M, a quiet zone of 4), named `label` for assistive technology. */
export function qrSvg(/** @type {string} */ text, /** @type {string} */ label) {
  const ns = "http://www.w3.org/2000/svg";
  const { data, size } = encode(text, { ecc: "M", border: 4 });
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("shape-rendering", "crispEdges");
  const background = document.createElementNS(ns, "rect");
  background.setAttribute("width", String(size));
  background.setAttribute("height", String(size));
  background.setAttribute("fill", "#fff");
  let d = "";
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    });
  });
  const modules = document.createElementNS(ns, "path");
  modules.setAttribute("d", d);
  modules.setAttribute("fill", "#000");
  svg.append(background, modules);
  return svg;
}
