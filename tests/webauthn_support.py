"""A software passkey for the API's tests: answers WebAuthn's ceremonies as a platform authenticator would
(ES256, no attestation), from the options the server sends. The browser tests use Chromium's own virtual
authenticator instead (tests/test_browser_accounts.py)."""

from __future__ import annotations

import base64
import hashlib
import json
import os

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

ORIGIN = "https://testserver"  # TestClient's, over HTTPS: a session cookie is Secure, a passkey's origin a site's
UP, UV, AT = 0x01, 0x04, 0x40  # authenticator data flags: user present, user verified, attested credential


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftPasskey:
    """One passkey, made by ``create`` and used by ``get`` (as many times as wanted)."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.sign_count = 0
        self.user_handle: str | None = None

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin or self.origin,
                           "crossOrigin": False}).encode()

    def create(self, options: dict, origin: str | None = None) -> dict:
        """The browser's answer to ``navigator.credentials.create`` with these options."""
        self.user_handle = options["user"]["id"]
        numbers = self.key.public_key().public_numbers()
        cose_key = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                                -3: numbers.y.to_bytes(32, "big")})
        auth_data = (hashlib.sha256(options["rp"]["id"].encode()).digest() + bytes([UP | UV | AT])
                     + self.sign_count.to_bytes(4, "big") + bytes(16) + len(self.credential_id).to_bytes(2, "big")
                     + self.credential_id + cose_key)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64u(self.credential_id), "rawId": b64u(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64u(self._client_data("webauthn.create", options["challenge"], origin)),
                             "attestationObject": b64u(attestation), "transports": ["internal"]},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}

    def get(self, options: dict, origin: str | None = None) -> dict:
        """The browser's answer to ``navigator.credentials.get`` with these options."""
        self.sign_count += 1
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        auth_data = (hashlib.sha256(options["rpId"].encode()).digest() + bytes([UP | UV])
                     + self.sign_count.to_bytes(4, "big"))
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64u(self.credential_id), "rawId": b64u(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64u(client_data), "authenticatorData": b64u(auth_data),
                             "signature": b64u(signature), "userHandle": self.user_handle},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}


def make_account(client, name: str, origin: str) -> SoftPasskey:
    """An account made through ``client`` (which is then signed in) with a new passkey: the passkey."""
    passkey = SoftPasskey(origin)
    begun = client.post("/api/account/passkeys/options", json={"name": name, "lang": "fr"})
    assert begun.status_code == 200, begun.text
    made = client.post("/api/account/passkeys", json={"ceremony": begun.json()["ceremony"],
                                                      "credential": passkey.create(begun.json()["options"])})
    assert made.status_code == 201, made.text
    return passkey

