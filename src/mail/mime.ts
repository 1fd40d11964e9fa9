// A minimal RFC 5322 text/plain message for the send_email binding.
import { randomBytes } from "../lib/crypto";
import { toBase64, toHex, utf8 } from "../lib/encoding";

const encodeHeader = (value: string) =>
  /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${toBase64(utf8(value))}?=`;

export function buildTextEmail(mail: { from: string; to: string; subject: string; text: string }): string {
  const domain = mail.from.split("@")[1] ?? "localhost";
  return [
    `From: ${mail.from}`,
    `To: ${mail.to}`,
    `Subject: ${encodeHeader(mail.subject)}`,
    `Message-ID: <${toHex(randomBytes(16))}@${domain}>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    toBase64(utf8(mail.text)).replace(/(.{76})/g, "$1\r\n"),
  ].join("\r\n");
}
