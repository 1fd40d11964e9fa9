// The HTML part of an account mail, made from its plain text: paragraphs, and each link as a link.
// Everything is escaped first, so nothing in the text becomes markup.
const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

const LINK = /https?:\/\/[^\s<>"']+/g;

export function mailHtml(text: string): string {
  const paragraphs = text
    .split(/\n{2,}/)
    .map((paragraph) =>
      escapeHtml(paragraph)
        .replace(LINK, (url) => `<a href="${url}">${url}</a>`)
        .replace(/\n/g, "<br>"),
    )
    .map((paragraph) => `<p>${paragraph}</p>`);
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${paragraphs.join("")}</body></html>`;
}
