// Proof-of-age attestations issued to a standard OpenID4VCI client (@openid4vc/openid4vci) by both grants,
// each attestation checked by this service's own mdoc verifier (MSO signature, chain to the served IACA
// root, the document signer's EKU, digests, device signature by the proof's key, as a session checks
// it) and by hand (age_over_18, the device key, whole-day validity of at most 93 days); one is then
// presented with the test wallet to a real session, which approves it (DIGITAL_ID_VERIFIED, DEVICE_KEY).
// The independent verifier (@auth0/mdl) runs in the node project (test/node/attestation-mdl.test.ts):
// its CommonJS dependency tsyringe does not load in workerd.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { seedMerchant } from "../helpers/seed";
import { answer, type DigitalRequest } from "../wallet";
import { proofsFor, standardClient, toWorker } from "./standard-wallet";
import { asWalletMdoc, credentialsOf, expectValidAttestation, ISSUER, offerFor, verifiedAdult } from "./helpers";
import { de } from "../../src/web/i18n/de";
import { fr } from "../../src/web/i18n/fr";

async function iaca(): Promise<string> {
  const res = await toWorker(`${ISSUER}/api/attestations/iaca`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/pem-certificate-chain");
  return res.text();
}

describe("metadata", () => {
  it("publishes the credential issuer and authorization server metadata the standard client reads", async () => {
    const issuerMetadata = await standardClient().resolveIssuerMetadata(ISSUER);
    expect(issuerMetadata.credentialIssuer).toMatchObject({
      credential_issuer: ISSUER,
      credential_endpoint: `${ISSUER}/credential`,
      nonce_endpoint: `${ISSUER}/nonce`,
      batch_credential_issuance: { batch_size: 30 },
      credential_configurations_supported: {
        proof_of_age: {
          format: "mso_mdoc",
          doctype: "eu.europa.ec.av.1",
          scope: "proof_of_age",
          cryptographic_binding_methods_supported: ["cose_key"],
          proof_types_supported: { jwt: { proof_signing_alg_values_supported: ["ES256"] } },
        },
      },
    });
    expect(issuerMetadata.authorizationServers[0]).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/authorize`,
      token_endpoint: `${ISSUER}/token`,
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: ["authorization_code", "urn:ietf:params:oauth:grant-type:pre-authorized_code"],
      "pre-authorized_grant_anonymous_access_supported": true,
    });
  });

  it("serves the IACA root the attestations chain to", async () => {
    const pem = await iaca();
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n$/);
    expect(atob(pem.replace(/-----[A-Z ]+-----|\s/g, ""))).toContain("TEST ONLY");
  });
});

describe("pre-authorized code with a transaction code", () => {
  it("issues a batch to a standard client, one attestation per proof, each valid and bound to its proof's key", async () => {
    const account = await verifiedAdult();
    const offer = await offerFor(account.token);
    expect(offer.credential_offer).toMatchObject({ credential_issuer: ISSUER, credential_configuration_ids: ["proof_of_age"] });
    expect(offer.credential_offer.grants["urn:ietf:params:oauth:grant-type:pre-authorized_code"].tx_code).toStrictEqual({
      length: 6,
      input_mode: "numeric",
      description: expect.any(String),
    });
    expect(offer.tx_code).toMatch(/^\d{6}$/);
    expect(offer.av_uri.startsWith("av://?credential_offer=")).toBe(true);
    expect(JSON.parse(decodeURIComponent(offer.av_uri.slice("av://?credential_offer=".length)))).toStrictEqual(offer.credential_offer);
    expect(JSON.stringify(offer.credential_offer)).not.toContain(offer.tx_code);

    const client = standardClient();
    const credentialOffer = await client.resolveCredentialOffer(offer.credential_offer_uri);
    const issuerMetadata = await client.resolveIssuerMetadata(credentialOffer.credential_issuer);
    const { accessTokenResponse } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({
      credentialOffer,
      issuerMetadata,
      txCode: offer.tx_code,
    });
    expect(accessTokenResponse.token_type).toBe("Bearer");
    const { c_nonce } = await client.requestNonce({ issuerMetadata });
    const { keys, jwts } = await proofsFor(client, issuerMetadata, c_nonce, 3);
    const issued = await client.retrieveCredentials({
      issuerMetadata,
      accessToken: accessTokenResponse.access_token,
      credentialConfigurationId: "proof_of_age",
      proofs: { jwt: jwts },
    });
    const credentials = credentialsOf(issued);
    expect(credentials).toHaveLength(3);
    const pem = await iaca();
    const msos = [];
    for (const [index, credential] of credentials.entries()) msos.push(await expectValidAttestation(credential, keys[index]!.pair, pem));
    // Own salts and digest ids: no two attestations share an item.
    const items = credentials.map((credential) => asWalletMdoc(credential, keys[0]!.pair).items.get("age_over_18")!);
    expect(new Set(items.map((bytes) => Array.from(bytes).join(","))).size).toBe(3);
  });

  it("an attestation issued here approves a session here (DIGITAL_ID_VERIFIED, DEVICE_KEY)", async () => {
    const account = await verifiedAdult();
    const offer = await offerFor(account.token);
    const client = standardClient();
    const credentialOffer = await client.resolveCredentialOffer(offer.av_uri.replace(/^av:\/\//, "openid-credential-offer://"));
    const issuerMetadata = await client.resolveIssuerMetadata(ISSUER);
    const { accessTokenResponse } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({
      credentialOffer,
      issuerMetadata,
      txCode: offer.tx_code,
    });
    const { c_nonce } = await client.requestNonce({ issuerMetadata });
    const { keys, jwts } = await proofsFor(client, issuerMetadata, c_nonce, 1);
    const issued = await client.retrieveCredentials({
      issuerMetadata,
      accessToken: accessTokenResponse.access_token,
      credentialConfigurationId: "proof_of_age",
      proofs: { jwt: jwts },
    });
    const mdoc = asWalletMdoc(credentialsOf(issued)[0]!, keys[0]!.pair);

    const merchant = await seedMerchant("attestation round trip", "live");
    const opened = await call("POST", "/api/age-verification/session", {
      apiKey: merchant.apiKey,
      body: { age_required: 18, callback_url: "https://merchant.example.com/hooks/age" },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const { session_id, nonce } = opened.body.data;
    const asked = await call("POST", `/api/age-verification/session/${session_id}/digital-id/request`, {
      headers: { "x-session-nonce": nonce },
    });
    expect(asked.status).toBe(200);
    const presented = await answer(asked.body.data.requests as DigitalRequest[], mdoc, { origin: new URL(env.APP_URL).origin });
    const res = await call("POST", `/api/age-verification/session/${session_id}/digital-id/response`, {
      headers: { "x-session-nonce": nonce },
      body: presented,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "APPROVED", assurance: "DIGITAL_ID_VERIFIED", holder_binding: "DEVICE_KEY" });
  });
});

describe("authorization code with PKCE", () => {
  it("issues a batch to a standard client after the person approves on the consent page", async () => {
    const account = await verifiedAdult();
    const client = standardClient();
    const issuerMetadata = await client.resolveIssuerMetadata(ISSUER);
    const credentialOffer = {
      credential_issuer: ISSUER,
      credential_configuration_ids: ["proof_of_age"],
      grants: { authorization_code: {} },
    };
    const redirectUri = "eu.europa.ec.av://callback";
    const { authorizationRequestUrl, pkce } = await client.createAuthorizationRequestUrlFromOffer({
      credentialOffer,
      issuerMetadata,
      clientId: "age-wallet",
      redirectUri,
      scope: "proof_of_age",
    });
    const url = new URL(authorizationRequestUrl);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    // The wallet opens the consent page, which names where the code will go.
    const page = await toWorker(authorizationRequestUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("eu.europa.ec.av");
    // The page's approval, with the person's sign-in.
    const params = Object.fromEntries(url.searchParams);
    const approved = await call("POST", "/api/attestations/authorizations", {
      token: account.token,
      body: { ...params, state: params.state ?? "s-1" },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const back = new URL(approved.body.data.redirect_to);
    expect(`${back.protocol}//${back.host}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get("state")).toBe(params.state ?? "s-1");
    const { accessTokenResponse } = await client.retrieveAuthorizationCodeAccessTokenFromOffer({
      credentialOffer,
      issuerMetadata,
      authorizationCode: back.searchParams.get("code")!,
      pkceCodeVerifier: pkce!.codeVerifier,
      redirectUri,
    });
    const { c_nonce } = await client.requestNonce({ issuerMetadata });
    const { keys, jwts } = await proofsFor(client, issuerMetadata, c_nonce, 2);
    const issued = await client.retrieveCredentials({
      issuerMetadata,
      accessToken: accessTokenResponse.access_token,
      credentialConfigurationId: "proof_of_age",
      proofs: { jwt: jwts },
    });
    const pem = await iaca();
    const credentials = credentialsOf(issued);
    expect(credentials).toHaveLength(2);
    for (const [index, credential] of credentials.entries()) await expectValidAttestation(credential, keys[index]!.pair, pem);
  });
});

describe("the consent page", () => {
  const query = async () => {
    const verifier = "c".repeat(64);
    const challenge = btoa(
      String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)))),
    )
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    const params = new URLSearchParams({
      response_type: "code",
      scope: "proof_of_age",
      client_id: "w",
      redirect_uri: "eu.europa.ec.av://cb",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "xyz",
    });
    return { verifier, params };
  };
  const submit = (params: URLSearchParams, form: Record<string, string>) =>
    toWorker(`${ISSUER}/authorize?${params}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    });

  it("names where the code goes, may not be framed, and lets its form lead only to that wallet", async () => {
    const { params } = await query();
    const page = await toWorker(`${ISSUER}/authorize?${params}`);
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' eu.europa.ec.av:");
    const html = await page.text();
    expect(html).toMatch(/<strong data-destination[^>]*>the app that opens eu\.europa\.ec\.av: links<\/strong>/);
    expect(html).toContain(`action="/authorize?${params.toString().replace(/&/g, "&amp;")}"`);
  });

  it("never names a wallet's own scheme as it names a website: a scheme may look like a host", async () => {
    // Any app can claim a scheme such as `wallet.example.org:`; only the holder of wallet.example.org can
    // receive a code at https://wallet.example.org. The person must be able to tell the two apart.
    const { params } = await query();
    const destination = async (redirectUri: string) => {
      params.set("redirect_uri", redirectUri);
      const page = await toWorker(`${ISSUER}/authorize?${params}`);
      expect(page.status).toBe(200);
      return /<strong data-destination[^>]*>([^<]*)<\/strong>/.exec(await page.text())?.[1];
    };
    const website = await destination("https://wallet.example.org/cb");
    const app = await destination("wallet.example.org:/cb");
    expect(app).not.toBe(website);
    expect(website).toBe("https://wallet.example.org");
    expect(app).toBe("the app that opens wallet.example.org: links");
  });

  it("signing in with the password approves: 302 to the wallet with the code and state, which the token endpoint takes with the verifier", async () => {
    const account = await verifiedAdult();
    const { verifier, params } = await query();
    const res = await submit(params, { email: account.email, password: account.password });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location")!);
    expect(back.protocol).toBe("eu.europa.ec.av:");
    expect(back.searchParams.get("state")).toBe("xyz");
    const token = await toWorker(`${ISSUER}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: back.searchParams.get("code")!,
        code_verifier: verifier,
        redirect_uri: "eu.europa.ec.av://cb",
      }).toString(),
    });
    expect(token.status).toBe(200);
  });

  it("a wrong password is the page again, saying so, with no code", async () => {
    const account = await verifiedAdult();
    const { params } = await query();
    const res = await submit(params, { email: account.email, password: "not the password" });
    expect(res.status).toBe(401);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("The email or the password is not right.");
  });

  it("an account under 18 is told so, and gets no code", async () => {
    const account = await verifiedAdult(new Date(Date.now() - 16 * 365.25 * 86_400_000).toISOString().slice(0, 10));
    const { params } = await query();
    const res = await submit(params, { email: account.email, password: account.password });
    expect(res.status).toBe(403);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("under 18");
  });

  it("speaks the person's language: the switcher's lang, else the wallet's ui_locales, else Accept-Language; its refusals too", async () => {
    const { params } = await query();
    const language = async (extra: Record<string, string>, acceptLanguage: string) => {
      const page = await toWorker(`${ISSUER}/authorize?${new URLSearchParams({ ...Object.fromEntries(params), ...extra })}`, {
        headers: { "accept-language": acceptLanguage },
      });
      expect(page.status).toBe(200);
      expect(page.headers.get("content-language")).toBeTruthy();
      const html = await page.text();
      return { lang: /<html lang="([a-z]+)"/.exec(html)?.[1], html };
    };
    const french = await language({}, "fr-FR,fr;q=0.9");
    expect(french.lang).toBe("fr");
    expect(french.html).toContain(fr["consent.title"]);
    expect(french.html).toMatch(/<strong data-destination[^>]*>l’application qui ouvre les liens eu\.europa\.ec\.av:<\/strong>/);
    expect((await language({ ui_locales: "es-ES it" }, "fr")).lang).toBe("es");
    expect((await language({ ui_locales: "xx" }, "de")).lang).toBe("de");
    expect((await language({ ui_locales: "es", lang: "it" }, "fr")).lang).toBe("it");
    // The switcher's links keep the wallet's request.
    expect(french.html).toContain(
      `href="?${new URLSearchParams({ ...Object.fromEntries(params), lang: "de" }).toString().replace(/&/g, "&amp;")}"`,
    );

    const account = await verifiedAdult();
    params.set("lang", "de");
    const refused = await submit(params, { email: account.email, password: "not the password" });
    expect(refused.status).toBe(401);
    const html = await refused.text();
    expect(html).toContain('<html lang="de"');
    expect(html).toContain(de["consent.error.credentials"]);
  });

  it("a request that is not one this service answers is a 400 OAuth error, whatever the form says", async () => {
    const { params } = await query();
    params.set("code_challenge_method", "plain");
    const res = await submit(params, { email: "a@b.example", password: "x" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  });
});
