// @ts-check
// Anonymous age tokens on the verification page (/assets/age-tokens.js), loaded before verify.js
// (docs/api-contract.md §Age tokens, docs/double-blind.md). A signed-in, verified person keeps a small stock of tokens in
// this browser's IndexedDB; a double-blind request is approved from it with no Authorization header, so
// the answer carries nothing of the account. The blinding is done here, written from RFC 9474 (RSABSSA-
// SHA384-PSS-Deterministic: EMSA-PSS with a random salt, blind, finalize) and RFC 9578 §6 (TokenRequest,
// Token), with BigInt and Web Crypto: the service only ever sees blinded messages, which by the
// mathematics of blind signatures it cannot match to the tokens they become.
//
// Timing (docs/double-blind.md "The timing link"): the stock is filled away from any session: in
// fixed-size batches after the person signs in and after their identity check, on a page that is not a
// double-blind request, and topped up at random moments a while after a token is used. While a
// double-blind request is on screen (holdForSession) nothing is fetched unless the person chooses it
// (fillNow), and then the answer waits a random time (waitRange). Issuance requests name no session:
// no Referer (referrerPolicy: no-referrer), no nonce, no session id. verify.js calls refill(), usable(),
// redeem(), fillNow(), holdForSession(), waitRange() and clear(); nothing else of the page is touched.

/**
 * @typedef {{ id?: number, ageOver: number, tokenKey: string, token: string }} StoredToken
 * @typedef {{ "token-type": number, "token-key": string, age_over: number }} DirectoryKey
 * @typedef {{ "issuer-request-uri": string, "token-keys": DirectoryKey[] }} Directory
 */

// biome-ignore lint/correctness/noUnusedVariables: a classic script\'s global, read by the pages\' other scripts
var AVS_AGE_TOKENS = (function () {
  "use strict";
  var A = window.AVS;
  var DB_NAME = "avs-age-tokens";
  var STORE = "tokens";
  /** Tokens asked for at a time, always the same number, so a batch's size says nothing. */
  var BATCH = 5;
  /** Below this many usable tokens for a threshold, the next refill asks for a batch. */
  var LOW = 2;
  var DIRECTORY = "/.well-known/private-token-issuer-directory";
  /** @type {ReturnType<typeof setTimeout> | 0} */
  var laterRefill = 0;
  // Set while a double-blind request is on screen: no refill runs unless the person asks (fillNow).
  var held = false;
  /**
   * The random wait before answering with a token fetched on the spot (docs/double-blind.md explains
   * the range). A test may shorten it through window.AVS_TEST_DOUBLE_BLIND_WAIT_MS = [min, max] (set
   * before the page loads, as test/e2e/verify-double-blind.e2e.ts does); it cannot remove it.
   */
  var WAIT_MS = [60000, 240000];

  // --- Bytes and numbers ----------------------------------------------------------------------
  /** @param {string} text */
  function fromB64url(text) {
    var plain = text.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
    var binary = atob(plain + "===".slice((plain.length + 3) % 4));
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }
  /** @param {Uint8Array} bytes */
  function toB64url(bytes) {
    var binary = "";
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  /** @param {Uint8Array[]} parts */
  function concat(parts) {
    var out = new Uint8Array(
      parts.reduce(function (n, p) {
        return n + p.length;
      }, 0),
    );
    var at = 0;
    parts.forEach(function (p) {
      out.set(p, at);
      at += p.length;
    });
    return out;
  }
  /** @param {Uint8Array} bytes */
  function toBigInt(bytes) {
    var hex = "";
    for (var i = 0; i < bytes.length; i++) hex += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
    return hex ? BigInt("0x" + hex) : 0n;
  }
  /** @param {bigint} value @param {number} length */
  function toBytes(value, length) {
    var hex = value.toString(16);
    if (hex.length > length * 2) throw new Error("integer too large");
    hex = hex.padStart(length * 2, "0");
    var out = new Uint8Array(length);
    for (var i = 0; i < length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
    return out;
  }
  /** @param {bigint} base @param {bigint} exponent @param {bigint} modulus */
  function modPow(base, exponent, modulus) {
    var result = 1n;
    for (var b = base % modulus, e = exponent; e > 0n; e >>= 1n, b = (b * b) % modulus) if (e & 1n) result = (result * b) % modulus;
    return result;
  }
  /** The inverse of value mod modulus, or null when there is none. @param {bigint} value @param {bigint} modulus */
  function modInverse(value, modulus) {
    var a = value % modulus,
      b = modulus,
      x0 = 1n,
      x1 = 0n;
    while (b !== 0n) {
      var q = a / b;
      var t = b;
      b = a - q * b;
      a = t;
      t = x1;
      x1 = x0 - q * x1;
      x0 = t;
    }
    return a === 1n ? ((x0 % modulus) + modulus) % modulus : null;
  }
  /** @param {"SHA-256" | "SHA-384"} name @param {Uint8Array} data */
  async function digest(name, data) {
    return new Uint8Array(await crypto.subtle.digest(name, data.slice()));
  }

  /** n and e out of a DER SubjectPublicKeyInfo (the directory's RSASSA-PSS key, RFC 9578 §6.5). @param {Uint8Array} spki */
  function rsaPublicKey(spki) {
    var at = 0;
    function header() {
      var length = spki[at + 1];
      at += 2;
      if (length & 0x80) {
        var octets = length & 0x7f;
        length = 0;
        for (var i = 0; i < octets; i++) length = length * 256 + spki[at++];
      }
      return length;
    }
    header(); // SubjectPublicKeyInfo
    var algorithm = header(); // AlgorithmIdentifier, skipped (read first: `at +=` would keep the old offset)
    at += algorithm;
    header(); // BIT STRING
    at += 1; // unused bits
    header(); // RSAPublicKey
    var nLength = header();
    var n = toBigInt(spki.slice(at, at + nLength));
    at += nLength;
    var eLength = header();
    return { n: n, e: toBigInt(spki.slice(at, at + eLength)) };
  }

  /** EMSA-PSS-ENCODE (RFC 8017 §9.1.1) with SHA-384, MGF1-SHA-384 and a random 48-byte salt. @param {Uint8Array} message @param {number} emBits */
  async function emsaPss(message, emBits) {
    var hLen = 48;
    var emLen = Math.ceil(emBits / 8);
    var mHash = await digest("SHA-384", message);
    var salt = crypto.getRandomValues(new Uint8Array(hLen));
    var h = await digest("SHA-384", concat([new Uint8Array(8), mHash, salt]));
    var db = concat([new Uint8Array(emLen - 2 * hLen - 2), new Uint8Array([1]), salt]);
    var mask = new Uint8Array(0);
    for (var counter = 0; mask.length < db.length; counter++)
      mask = concat([mask, await digest("SHA-384", concat([h, toBytes(BigInt(counter), 4)]))]);
    for (var i = 0; i < db.length; i++) db[i] ^= mask[i];
    db[0] &= 0xff >> (8 * emLen - emBits);
    return concat([db, h, new Uint8Array([0xbc])]);
  }

  /**
   * RFC 9578 §6.1: one TokenRequest for the challenge and token key, and what turns its TokenResponse
   * into a Token (§6.3), checking the signature first (RFC 9474 §4.4).
   * @param {Uint8Array} challenge @param {Uint8Array} tokenKey
   */
  async function tokenRequest(challenge, tokenKey) {
    var key = rsaPublicKey(tokenKey);
    var kLen = Math.ceil(key.n.toString(2).length / 8);
    var keyId = await digest("SHA-256", tokenKey);
    var tokenInput = concat([
      new Uint8Array([0, 2]),
      crypto.getRandomValues(new Uint8Array(32)),
      await digest("SHA-256", challenge),
      keyId,
    ]);
    var m = toBigInt(await emsaPss(tokenInput, key.n.toString(2).length - 1));
    /** @type {bigint} */
    var r = 0n;
    /** @type {bigint | null} */
    var inverse = null;
    while (inverse === null) {
      r = toBigInt(crypto.getRandomValues(new Uint8Array(kLen))) % key.n;
      inverse = r > 1n ? modInverse(r, key.n) : null;
    }
    var blinded = (m * modPow(r, key.e, key.n)) % key.n;
    var inv = inverse;
    return {
      request: concat([new Uint8Array([0, 2, keyId[31]]), toBytes(blinded, kLen)]),
      /** @param {Uint8Array} response */
      finish: async function (response) {
        var signature = toBytes((toBigInt(response) * inv) % key.n, kLen);
        var verifyKey = await crypto.subtle.importKey(
          "jwk",
          { kty: "RSA", n: toB64url(toBytes(key.n, kLen)), e: toB64url(toBytes(key.e, 3)) },
          { name: "RSA-PSS", hash: "SHA-384" },
          false,
          ["verify"],
        );
        if (!(await crypto.subtle.verify({ name: "RSA-PSS", saltLength: 48 }, verifyKey, signature.slice(), tokenInput.slice())))
          throw new Error("the issuer's signature does not verify");
        return concat([tokenInput, signature]);
      },
    };
  }

  /** RFC 9577 §2.1.1: the service's one TokenChallenge (type 2, its host as issuer and origin, no context). @param {string} host */
  function challengeFor(host) {
    var name = new TextEncoder().encode(host);
    var u16 = function (/** @type {number} */ n) {
      return new Uint8Array([n >> 8, n & 0xff]);
    };
    return concat([u16(2), u16(name.length), name, new Uint8Array([0]), u16(name.length), name]);
  }

  // --- The stock (IndexedDB) -------------------------------------------------------------------
  /** @returns {Promise<IDBDatabase>} */
  function openDb() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      };
      request.onsuccess = function () {
        resolve(request.result);
      };
      request.onerror = function () {
        reject(request.error);
      };
    });
  }
  /** @template T @param {IDBTransactionMode} mode @param {(store: IDBObjectStore) => IDBRequest<T> | void} work @returns {Promise<T | undefined>} */
  async function withStore(mode, work) {
    var db = await openDb();
    try {
      return await new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var request = work(tx.objectStore(STORE));
        tx.oncomplete = function () {
          resolve(request ? request.result : undefined);
        };
        tx.onerror = function () {
          reject(tx.error);
        };
        tx.onabort = function () {
          reject(tx.error);
        };
      });
    } finally {
      db.close();
    }
  }
  /** @returns {Promise<StoredToken[]>} */
  async function stock() {
    return (
      (await withStore("readonly", function (store) {
        return store.getAll();
      })) || []
    );
  }
  /** @param {StoredToken[]} records */
  function store(records) {
    return withStore("readwrite", function (s) {
      records.forEach(function (r) {
        s.add(r);
      });
    });
  }
  /** @param {number} id */
  function remove(id) {
    return withStore("readwrite", function (s) {
      return s.delete(id);
    });
  }

  /** Empties the stock: on sign-out and "Use another account" (the next person starts blank). */
  function clear() {
    if (laterRefill) {
      clearTimeout(laterRefill);
      laterRefill = 0;
    }
    return new Promise(function (resolve) {
      try {
        var request = indexedDB.deleteDatabase(DB_NAME);
        request.onsuccess =
          request.onerror =
          request.onblocked =
            function () {
              resolve(undefined);
            };
      } catch {
        resolve(undefined);
      }
    });
  }

  // --- Issuer ----------------------------------------------------------------------------------
  /** @returns {Promise<Directory | null>} */
  async function directory() {
    try {
      var res = await fetch(DIRECTORY, { credentials: "omit", cache: "no-store", redirect: "error" });
      return res.ok ? /** @type {Directory} */ (await res.json()) : null;
    } catch {
      return null;
    }
  }
  /** Each threshold's current key: the first the directory lists for it (RFC 9578 §4). @param {Directory} dir */
  function currentKeys(dir) {
    /** @type {DirectoryKey[]} */
    var keys = [];
    dir["token-keys"].forEach(function (k) {
      if (
        k["token-type"] === 2 &&
        !keys.some(function (c) {
          return c.age_over === k.age_over;
        })
      )
        keys.push(k);
    });
    return keys;
  }

  /**
   * A request that carries the account and nothing of a session: no Referer (the page's URL would name
   * the session), no nonce, no cookie. For issuance and its passkey confirmation.
   * @param {string} path @param {string} account @param {unknown} body @returns {Promise<ApiResult>}
   */
  async function accountOnly(path, account, body) {
    try {
      var response = await fetch(path, {
        method: "POST",
        headers: { accept: "application/json", authorization: "Bearer " + account, "content-type": "application/json" },
        body: JSON.stringify(body),
        credentials: "omit",
        cache: "no-store",
        redirect: "error",
        referrerPolicy: "no-referrer",
      });
      /** @type {any} */
      var json = null;
      try {
        json = await response.json();
      } catch {
        json = null;
      }
      if (response.ok) return { ok: true, status: response.status, data: json?.data };
      return {
        ok: false,
        status: response.status,
        error: json?.error || "INTERNAL_ERROR",
        message: json?.message || "",
        errors: json?.errors || [],
      };
    } catch {
      return { ok: false, status: 0, error: "NETWORK", message: "", errors: [] };
    }
  }

  /** A fresh passkey assertion over a confirmation challenge, or null when the person cancels. @param {string} account */
  async function confirmation(account) {
    var options = await accountOnly("/api/users/me/passkeys/confirmation-options", account, {});
    if (!options.ok || typeof window.PublicKeyCredential !== "function") return null;
    var o = /** @type {any} */ (options).data;
    try {
      var credential = /** @type {PublicKeyCredential | null} */ (
        await navigator.credentials.get({
          publicKey: {
            challenge: fromB64url(o.challenge),
            rpId: o.rpId,
            allowCredentials: o.allowCredentials.map(function (/** @type {{ id: string }} */ c) {
              return { type: /** @type {const} */ ("public-key"), id: fromB64url(c.id) };
            }),
            userVerification: o.userVerification,
            timeout: o.timeout,
          },
        })
      );
      if (!credential) return null;
      var response = /** @type {AuthenticatorAssertionResponse} */ (credential.response);
      return {
        id: credential.id,
        type: "public-key",
        response: {
          clientDataJSON: toB64url(new Uint8Array(response.clientDataJSON)),
          authenticatorData: toB64url(new Uint8Array(response.authenticatorData)),
          signature: toB64url(new Uint8Array(response.signature)),
        },
      };
    } catch {
      return null;
    }
  }

  /**
   * One batch for a threshold. With `confirm`, an account that has a passkey is asked for it; without,
   * its refusal (PASSKEY_REQUIRED) ends the refill quietly: no passkey prompt appears unasked.
   * @param {string} account @param {Directory} dir @param {DirectoryKey} key @param {boolean} confirm
   */
  async function fetchBatch(account, dir, key, confirm) {
    var tokenKey = fromB64url(key["token-key"]);
    var challenge = challengeFor(new URL(dir["issuer-request-uri"]).host);
    var pending = await Promise.all(
      Array.from({ length: BATCH }, function () {
        return tokenRequest(challenge, tokenKey);
      }),
    );
    /** @type {Record<string, unknown>} */
    var body = {
      age_over: key.age_over,
      token_requests: pending.map(function (p) {
        return toB64url(p.request);
      }),
    };
    var res = await accountOnly("/api/age-tokens", account, body);
    if (!res.ok && res.error === "PASSKEY_REQUIRED" && confirm) {
      var assertion = await confirmation(account);
      if (!assertion) return res;
      body.confirmation = assertion;
      res = await accountOnly("/api/age-tokens", account, body);
    }
    if (!res.ok) return res;
    var responses = /** @type {string[]} */ (res.data.token_responses);
    var tokens = await Promise.all(
      pending.map(function (p, i) {
        return p.finish(fromB64url(responses[i]));
      }),
    );
    await store(
      tokens.map(function (t) {
        return { ageOver: key.age_over, tokenKey: key["token-key"], token: toB64url(t) };
      }),
    );
    return res;
  }

  /**
   * Tops the stock up: drops tokens of keys no longer published, then asks for a batch for each
   * threshold that is low: those up to `provenAge` (an age the person's verified date of birth is known
   * to meet, so none is refused), or only `ageRequired`'s lowest. Failures are quiet: the stock is a reserve.
   * @param {string | null} account @param {{ confirm?: boolean, ageRequired?: number, provenAge?: number }} [options]
   */
  async function refill(account, options) {
    options = options || {};
    if (held || !account || typeof indexedDB === "undefined") return;
    var refused = await fill(account, options);
    // Topped up again at a random moment while the page stays open (only when the stock runs low).
    if (!refused && options.provenAge !== undefined) refillLater(account, options.provenAge);
    return refused;
  }

  /**
   * @param {string} account @param {{ confirm?: boolean, ageRequired?: number, provenAge?: number }} options
   * @returns {Promise<ApiResult | undefined>} the refusal that stopped it, if any
   */
  async function fill(account, options) {
    var dir = await directory();
    if (!dir) return { ok: false, status: 0, error: "NETWORK", message: "", errors: [] };
    var current = currentKeys(dir);
    var kept = await stock();
    var published = dir["token-keys"].map(function (k) {
      return k["token-key"];
    });
    for (var i = 0; i < kept.length; i++) if (published.indexOf(kept[i].tokenKey) < 0) await remove(/** @type {number} */ (kept[i].id));
    var proven = options.provenAge === undefined ? Infinity : options.provenAge;
    var wanted = current.filter(function (k) {
      return k.age_over <= proven;
    });
    if (options.ageRequired !== undefined) {
      var needed = options.ageRequired;
      wanted = current
        .filter(function (k) {
          return k.age_over >= needed;
        })
        .slice(0, 1);
    }
    for (var j = 0; j < wanted.length; j++) {
      var key = wanted[j];
      var have = kept.filter(function (t) {
        return t.tokenKey === key["token-key"];
      }).length;
      if (have >= LOW) continue;
      var res = await fetchBatch(account, dir, key, !!options.confirm);
      // Not verified, under this threshold, passkey not given, the day's tokens used: nothing more now.
      if (!res.ok) return res;
    }
    return undefined;
  }

  /** A refill a while after a token was used (1 to 4 minutes, at random): never in the same moment. @param {string} account @param {number} provenAge */
  function refillLater(account, provenAge) {
    if (laterRefill) clearTimeout(laterRefill);
    laterRefill = setTimeout(
      function () {
        laterRefill = 0;
        refill(account, { provenAge: provenAge });
      },
      60000 + Math.floor(Math.random() * 180000),
    );
  }

  /** Stored tokens that can answer a request for ageRequired now (their key still published), lowest threshold first. @param {number} ageRequired */
  async function usableTokens(ageRequired) {
    if (typeof indexedDB === "undefined") return [];
    var dir = await directory();
    if (!dir) return [];
    var published = dir["token-keys"].map(function (k) {
      return k["token-key"];
    });
    return (await stock())
      .filter(function (t) {
        return t.ageOver >= ageRequired && published.indexOf(t.tokenKey) >= 0;
      })
      .sort(function (a, b) {
        return a.ageOver - b.ageOver;
      });
  }
  /** How many stored tokens can answer a request for ageRequired. @param {number} ageRequired */
  async function usable(ageRequired) {
    return (await usableTokens(ageRequired)).length;
  }

  /**
   * Approves the session at `path` (…/complete) with a token from the stock, the lowest threshold that
   * meets ageRequired, sent with no Authorization header. Never fetches a token: an empty stock is the
   * person's choice to make (verify.js). A token is taken out of the stock before it is sent, so it is
   * never sent twice; one refused as spent or invalid (a rotated key) is dropped and the next tried.
   * @param {string} path @param {string} nonce @param {number} ageRequired
   * @returns {Promise<ApiResult>}
   */
  async function redeem(path, nonce, ageRequired) {
    for (var attempt = 0; attempt < 4; attempt++) {
      var candidates = await usableTokens(ageRequired);
      if (!candidates.length) break;
      var chosen = candidates[0];
      await remove(/** @type {number} */ (chosen.id));
      var res = await A.api("POST", path, { nonce: nonce, body: { consent: true, age_token: chosen.token } });
      if (!res.ok && (res.error === "AGE_TOKEN_SPENT" || res.error === "AGE_TOKEN_INVALID")) continue;
      // No top-up from here: one that followed an answer would date it. The stock is topped up on the
      // app's other pages, at random moments (refill).
      return res;
    }
    return { ok: false, status: 0, error: "AGE_TOKEN_UNAVAILABLE", message: "", errors: [] };
  }

  /**
   * The person chose to get tokens now, for this request's age: asks for a batch (with the passkey
   * when the account has one). Answers undefined when tokens were stored, else the refusal.
   * @param {string} account @param {number} ageRequired @returns {Promise<ApiResult | undefined>}
   */
  function fillNow(account, ageRequired) {
    return fill(account, { confirm: true, ageRequired: ageRequired });
  }

  /**
   * While a double-blind request is on this page no background refill runs, not even after it is
   * answered (a top-up then would date the answer): the page stays held until it is left.
   */
  function holdForSession() {
    held = true;
    if (laterRefill) {
      clearTimeout(laterRefill);
      laterRefill = 0;
    }
  }

  /** A random wait in milliseconds, uniform in the range (or the test's shorter one). */
  function waitMs() {
    var hook = /** @type {Window & { AVS_TEST_DOUBLE_BLIND_WAIT_MS?: [number, number] }} */ (window).AVS_TEST_DOUBLE_BLIND_WAIT_MS;
    var range = Array.isArray(hook) && hook.length === 2 && hook[0] > 0 && hook[1] >= hook[0] ? hook : WAIT_MS;
    var span = new Uint32Array(1);
    crypto.getRandomValues(span);
    return range[0] + Math.floor((span[0] / 4294967296) * (range[1] - range[0]));
  }

  /** How many tokens the stock holds (for the browser test). */
  async function count() {
    return typeof indexedDB === "undefined" ? 0 : (await stock()).length;
  }

  return {
    refill: refill,
    usable: usable,
    redeem: redeem,
    fillNow: fillNow,
    holdForSession: holdForSession,
    waitMs: waitMs,
    waitRange: WAIT_MS,
    clear: clear,
    count: count,
  };
})();
