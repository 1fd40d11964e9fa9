import { Layout } from "./layout";
export function ConsolePage(_props: { development: boolean }) {
  return <Layout title="Merchant console" scripts={["common.js", "console.js"]} wide><main id="console-app"></main></Layout>;
}
