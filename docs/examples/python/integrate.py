"""The merchant integration in Python 3, standard library only.

    AGE_API_KEY=svc_sk_... python3 docs/examples/python/integrate.py [--base-url http://localhost:8787]

Opens a session (retried safely with an Idempotency-Key), prints the verification_url to send the user
to, polls the session once and prints it. In your shop, keep session_id with the order, send the user to
verification_url, and act on the signed callback (verify_callback below) or, as a fallback, on your own
poll.
"""
import base64
import hashlib
import hmac
import json
import os
import sys
import time
import urllib.error
import urllib.request
import uuid

BASE_URL = sys.argv[sys.argv.index("--base-url") + 1] if "--base-url" in sys.argv else os.environ.get("BASE_URL", "http://localhost:8787")
API_KEY = os.environ.get("AGE_API_KEY") or sys.exit("set AGE_API_KEY to your API key (svc_sk_...)")


def call(method, path, body=None, headers=None):
    """One API call with the API key (server-side only); returns (status, envelope, response headers)."""
    request = urllib.request.Request(
        BASE_URL + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"x-api-key": API_KEY, "content-type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response), response.headers
    except urllib.error.HTTPError as error:  # 4xx/5xx: the error envelope {success, error, message, errors}
        return error.code, json.load(error), error.headers


# 1. Open a session for the order. One Idempotency-Key per logical request: a retry after a timeout sends
#    the same key and body and gets the same session back (Idempotent-Replayed: true). reference and
#    metadata come back in the poll, the callbacks and the usage log: no personal data in them.
order_id = f"order-{int(time.time() * 1000)}"
open_body = {"age_required": 18, "callback_url": "https://shop.example.com/webhooks/age", "reference": order_id, "metadata": {"channel": "web"}}
idempotency = {"Idempotency-Key": str(uuid.uuid4())}
status, opened, _ = call("POST", "/api/age-verification/session", open_body, idempotency)
if status != 201:
    sys.exit(f"open: {status} {opened.get('error')} {opened.get('errors')}")
session = opened["data"]
status, retried, headers = call("POST", "/api/age-verification/session", open_body, idempotency)
if status != 201 or retried["data"]["session_id"] != session["session_id"] or headers.get("idempotent-replayed") != "true":
    sys.exit(f"a retry with the same Idempotency-Key should answer the same session: {status} {retried}")

# 2. Send the user to verification_url (a redirect, a link or a QR code): nothing else reaches the browser.
print(f"opened {session['session_id']} (livemode {session['livemode']}), expires {session['expires_at']}\nsend the user to {session['verification_url']}")
print("retried with the same Idempotency-Key: the same session, Idempotent-Replayed: true")

# 3. Poll (the fallback when a callback is late): the same object as a callback's data.
status, polled, _ = call("GET", f"/api/age-verification/session/{session['session_id']}")
if status != 200 or polled["data"]["status"] != "PENDING" or polled["data"]["reference"] != order_id:
    sys.exit(f"poll: {status} {polled}")
print(f"polled: status={polled['data']['status']} above_age_required={polled['data']['above_age_required']} reference={polled['data']['reference']}")

# 4. An unknown session is the same 404 as another merchant's.
status, unknown, _ = call("GET", "/api/age-verification/session/ses_000000000000000000000000")
print(f"unknown session: {status} {unknown['error']}")
if status != 404:
    sys.exit("an unknown session should be 404")


def verify_callback(raw_body: bytes, headers: dict, signing_secrets: list, tolerance_seconds: int = 300) -> dict:
    """Verifies a callback (Standard Webhooks) on its raw body and returns the event; raises on a forged
    or stale one. Pass every signing secret you currently hold (the new and the old one while you roll a
    rotation out): during a rotation's grace the service sends two signatures, and one match is enough.
    Answer 2xx within 15 s and de-duplicate on the webhook-id header."""
    msg_id, timestamp = headers["webhook-id"], headers["webhook-timestamp"]
    if abs(time.time() - int(timestamp)) > tolerance_seconds:
        raise ValueError("stale callback")
    signed = f"{msg_id}.{timestamp}.".encode() + raw_body
    received = [sig.split(",", 1)[1] for sig in headers["webhook-signature"].split() if sig.startswith("v1,")]
    for secret in signing_secrets:
        key = base64.b64decode(secret.removeprefix("whsec_"))
        expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
        if any(hmac.compare_digest(expected, sig) for sig in received):
            return json.loads(raw_body)
    raise ValueError("bad signature")
