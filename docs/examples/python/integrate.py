"""The merchant integration in Python 3, standard library only.

    AGE_API_KEY=svc_sk_... python3 docs/examples/python/integrate.py [--base-url http://localhost:8787]

Opens a session, prints the link to send the user to, polls the session once and prints it. In your
shop, keep session_id with the order, send the user to the link, and act on the signed callback
(verify_callback below) or, as a fallback, on your own poll.
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

BASE_URL = sys.argv[sys.argv.index("--base-url") + 1] if "--base-url" in sys.argv else os.environ.get("BASE_URL", "http://localhost:8787")
API_KEY = os.environ.get("AGE_API_KEY") or sys.exit("set AGE_API_KEY to your API key (svc_sk_...)")


def call(method, path, body=None):
    """One API call with the API key (server-side only); returns (status, envelope)."""
    request = urllib.request.Request(
        BASE_URL + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"x-api-key": API_KEY, "content-type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:  # 4xx/5xx: the error envelope {success, error, message, errors}
        return error.code, json.load(error)


# 1. Open a session for the order.
status, opened = call("POST", "/api/age-verification/session", {"age_required": 18, "callback_url": "https://shop.example.com/webhooks/age"})
if status != 201:
    sys.exit(f"open: {status} {opened.get('error')} {opened.get('errors')}")
session = opened["data"]

# 2. The link (or QR code) for the user: the service's own page for this session (session_id and nonce
#    only), ready for a redirect.
print(f"opened {session['session_id']} (livemode {str(session['livemode']).lower()}), expires {session['expires_at']}\nsend the user to {session['verification_url']}")
if f"session_id={session['session_id']}" not in session["verification_url"]:
    sys.exit("verification_url should name the session")

# 3. Poll (the fallback when a callback is late): the same object as a callback's data.
status, polled = call("GET", f"/api/age-verification/session/{session['session_id']}")
if status != 200 or polled["data"]["status"] != "PENDING":
    sys.exit(f"poll: {status} {polled}")
print(f"polled: status={polled['data']['status']} above_age_required={polled['data']['above_age_required']}")

# 4. An unknown session is the same 404 as another merchant's.
status, unknown = call("GET", "/api/age-verification/session/ses_000000000000000000000000")
print(f"unknown session: {status} {unknown['error']}")
if status != 404:
    sys.exit("an unknown session should be 404")


def verify_callback(raw_body: bytes, headers: dict, signing_secret: str, tolerance_seconds: int = 300) -> dict:
    """Verifies a callback (Standard Webhooks) on its raw body and returns the event; raises on a forged
    or stale one. Answer 2xx within 15 s and de-duplicate on the webhook-id header."""
    msg_id, timestamp = headers["webhook-id"], headers["webhook-timestamp"]
    if abs(time.time() - int(timestamp)) > tolerance_seconds:
        raise ValueError("stale callback")
    key = base64.b64decode(signing_secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{timestamp}.".encode() + raw_body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    if not any(hmac.compare_digest(expected, sig.split(",", 1)[1]) for sig in headers["webhook-signature"].split() if sig.startswith("v1,")):
        raise ValueError("bad signature")
    return json.loads(raw_body)
