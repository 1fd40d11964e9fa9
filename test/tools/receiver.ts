// `npm run receiver -- --port 4000 --secret whsec_… [--status 500]`: prints every callback it receives and
// whether its signature verifies. `--status` answers verified callbacks with that code, to watch retries.
import { parseArgs } from "node:util";
import { startCallbackReceiver } from "./callback-receiver";

const usage = "usage: npm run receiver -- --port 4000 --secret whsec_… [--status 204]";

const { values } = parseArgs({
  options: { port: { type: "string", default: "4000" }, secret: { type: "string" }, status: { type: "string", default: "204" } },
});
const port = Number(values.port);
const status = Number(values.status);
const secret = values.secret ?? process.env.WEBHOOK_SECRET;
if (
  !secret?.startsWith("whsec_") ||
  !Number.isInteger(port) ||
  port < 0 ||
  port > 65535 ||
  !Number.isInteger(status) ||
  status < 200 ||
  status > 599
) {
  console.error(usage);
  process.exit(2);
}

const receiver = await startCallbackReceiver({
  secret,
  port,
  status,
  onCallback(callback) {
    const at = new Date().toISOString();
    if (!callback.event) {
      console.log(`${at}  ${callback.webhookId ?? "(no webhook-id)"}  signature INVALID (${callback.reason}) → ${callback.answered}`);
      return;
    }
    const { type, data } = callback.event;
    console.log(
      `${at}  ${callback.webhookId}  signature ok  ${type}  session=${data.session_id} status=${data.status} receipt=${data.receipt_id ?? "-"} → ${callback.answered}`,
    );
  },
});
console.log(`listening on ${receiver.url}/callbacks (any path); answering ${status} to verified callbacks. Ctrl-C to stop.`);
const stop = () => void receiver.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
