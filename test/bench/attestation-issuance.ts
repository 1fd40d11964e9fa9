// `npx tsx test/bench/attestation-issuance.ts [--rounds 5]`: the credential request of proof-of-age issuance
// (docs/attestations.md) alone, against a local `wrangler dev` of this checkout, without the floor: a
// verified adult (test/bench/prepare.ts), then `--rounds` credential requests of 30 proofs one after
// another after one warm-up (test/bench/attestations.ts): each one's wall time, and the CPU the Worker's
// workerd process spent on them per attestation (Linux /proc). `npm run bench` measures the same request
// beside the floor (its "attestations" scenario); this is the quick look at one change.
import { parseArgs } from "node:util";
import { startDevServer } from "../tools/dev-server.mjs";
import { ATTESTATIONS_PER_REQUEST, measureBatchWallTime } from "./attestations";
import { prepare } from "./prepare";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "5" } } });
const rounds = Number(values.rounds);

const server = await startDevServer({ name: "attestation-bench", devTools: false });
try {
  const fixtures = await prepare(server.baseUrl);
  const { medianMs, runsMs, workerCpuMsPerAttestation } = await measureBatchWallTime(
    { baseUrl: server.baseUrl, fixtures, isFloor: false, processGroup: server.processGroup },
    rounds,
  );
  console.log(`POST /credential, ${ATTESTATIONS_PER_REQUEST} proofs, ${rounds} rounds after one warm-up:`);
  console.log(`  wall time of the request: median ${medianMs.toFixed(1)} ms (${runsMs.map((w) => w.toFixed(0)).join(", ")})`);
  console.log(
    `  Worker CPU per attestation issued: ${workerCpuMsPerAttestation.toFixed(2)} ms (clock ticks of 10 ms, summed over the ${rounds} requests)`,
  );
} finally {
  await server.stop();
}
