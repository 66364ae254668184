"""Passkeys (WebAuthn) for Kadesh's players, through ``webauthn`` (py_webauthn): the two ceremonies, each begun
by one request and ended by another, on any server of the database (``kadesh.store.accounts``'s ceremonies).

The relying party is the site players see: its origin is ``KADESH_PUBLIC_URL``'s (or, without it, the one the
request was sent to), and its id is ``KADESH_RP_ID`` or that origin's host name. A passkey made for one id
signs in only there: set both before the first player makes one, and keep them.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

from kadesh.server.identity import own_origin
from kadesh.server.problems import ApiProblem
from kadesh.store.accounts import Passkey

# ``webauthn`` is imported by each function that uses it, at the first ceremony: with the cryptography it loads, it
# is some 0.3 s of CPU, a fifth of every server's start, and most servers never see a passkey.

log = logging.getLogger(__name__)

RP_NAME = "Kadesh"
RP_ID_SETTING = "KADESH_RP_ID"
TIMEOUT_MS = 120_000  # how long the browser offers the ceremony (the store's ceremony lives longer)

def refused() -> ApiProblem:
    return ApiProblem(400, "passkey_refused", "Cette clé d'accès n'a pas pu être vérifiée : réessaie.",
                      "This passkey could not be verified: try again.")


def unknown_passkey() -> ApiProblem:
    return ApiProblem(401, "unknown_passkey", "Cette clé d'accès n'ouvre aucun compte ici.",
                      "This passkey opens no account here.")


def ceremony_over() -> ApiProblem:
    return ApiProblem(400, "ceremony_over", "Cette demande a expiré ou a déjà servi : recommence.",
                      "This request has expired or was used already: start again.")


@dataclass(frozen=True, slots=True)
class RelyingParty:
    id: str
    origin: str


def relying_party(connection: HTTPConnection) -> RelyingParty:
    origin = own_origin(connection)
    return RelyingParty(os.environ.get(RP_ID_SETTING) or urlsplit(origin).hostname or "localhost", origin)


def registration(party: RelyingParty, user_handle: bytes, name: str, held: list[Passkey]) -> tuple[str, dict]:
    """A new passkey's options for the browser (``navigator.credentials.create``), and their challenge."""
    from webauthn import generate_registration_options, options_to_json
    from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
    from webauthn.helpers.structs import (
        AuthenticatorSelectionCriteria,
        PublicKeyCredentialDescriptor,
        ResidentKeyRequirement,
        UserVerificationRequirement,
    )

    options = generate_registration_options(
        rp_id=party.id, rp_name=RP_NAME, user_id=user_handle, user_name=name, user_display_name=name,
        timeout=TIMEOUT_MS,
        # Discoverable: the player signs in later without typing a name.
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.PREFERRED),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.credential_id)) for p in held])
    return bytes_to_base64url(options.challenge), json.loads(options_to_json(options))


def registered(party: RelyingParty, challenge: str, credential: dict[str, Any]) -> tuple[str, str, int]:
    """The new passkey's credential id, public key (base64url) and signature count, or 400 ``passkey_refused``."""
    from webauthn import verify_registration_response
    from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
    from webauthn.helpers.exceptions import WebAuthnException

    try:
        verified = verify_registration_response(credential=credential, expected_challenge=base64url_to_bytes(challenge),
                                                expected_rp_id=party.id, expected_origin=party.origin)
    except (WebAuthnException, ValueError, TypeError, KeyError) as error:
        raise _refused(error) from error
    return (bytes_to_base64url(verified.credential_id), bytes_to_base64url(verified.credential_public_key),
            verified.sign_count)


def authentication(party: RelyingParty) -> tuple[str, dict]:
    """Options to sign in with any passkey of this site (``navigator.credentials.get``), and their challenge."""
    from webauthn import generate_authentication_options, options_to_json
    from webauthn.helpers import bytes_to_base64url
    from webauthn.helpers.structs import UserVerificationRequirement

    options = generate_authentication_options(rp_id=party.id, timeout=TIMEOUT_MS,
                                              user_verification=UserVerificationRequirement.PREFERRED)
    return bytes_to_base64url(options.challenge), json.loads(options_to_json(options))


def credential_id(credential: dict[str, Any]) -> str:
    """The id of the passkey a browser answered with (base64url), or 400."""
    from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

    raw = credential.get("rawId") or credential.get("id")
    if not isinstance(raw, str) or not 0 < len(raw) <= 1400:
        raise refused()
    try:
        return bytes_to_base64url(base64url_to_bytes(raw))
    except ValueError as error:
        raise refused() from error


def authenticated(party: RelyingParty, challenge: str, credential: dict[str, Any], passkey: Passkey) -> int:
    """The passkey's new signature count once its answer is verified, or 400 ``passkey_refused``."""
    from webauthn import verify_authentication_response
    from webauthn.helpers import base64url_to_bytes
    from webauthn.helpers.exceptions import WebAuthnException

    try:
        verified = verify_authentication_response(
            credential=credential, expected_challenge=base64url_to_bytes(challenge), expected_rp_id=party.id,
            expected_origin=party.origin, credential_public_key=base64url_to_bytes(passkey.public_key),
            credential_current_sign_count=passkey.sign_count)
    except (WebAuthnException, ValueError, TypeError, KeyError) as error:
        raise _refused(error) from error
    return verified.new_sign_count


def _refused(error: Exception) -> ApiProblem:
    log.info("passkey refused: %s", str(error)[:200])
    return refused()
