"""Errors as ``application/problem+json`` (RFC 9457), in French and English, with a stable code.

Every refusal of the API goes through here: the rules' RuleError, the store's errors,
request validation, unknown routes and methods, oversized or non-JSON bodies.
"""

from __future__ import annotations

import json
import logging
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response

from kadesh.core.errors import CONFLICT_CODES, RuleError, UnknownRuleset
from kadesh.store.accounts import NameTaken, SeatClaimed
from kadesh.store.errors import (
    BadToken,
    GameNotFound,
    GameNotOver,
    NotASeat,
    NotHeld,
    StaleVersion,
    StoreError,
    TokenRevoked,
    WrongGame,
)
from kadesh.store.maps import MapRefused
from kadesh.store.messages import MessageRefused

if TYPE_CHECKING:
    from fastapi import FastAPI
    from fastapi.exceptions import RequestValidationError

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"
TYPE_PREFIX = "urn:kadesh:problem:"
NOT_FOUND_PAGE = Path(__file__).resolve().parent.parent / "web" / "404.html"
RETRY_AFTER_SECONDS = 2  # what a 503 asks clients to wait while the database is away


def wants_page(request: Request) -> bool:
    """A browser asking for a page outside the API gets a page back, not a problem document."""
    path = request.url.path
    return not path.startswith(("/api/", "/ws/")) and "text/html" in request.headers.get("accept", "")


class Problem(BaseModel):
    """An error: ``code`` is stable, ``fr`` and ``en`` are for people."""

    type: str = Field(description="urn:kadesh:problem:<code>")
    title: str
    status: int
    code: str
    fr: str
    en: str
    detail: str
    version: int | None = Field(None, description="The game's current version (stale_version only)")
    errors: list[dict[str, Any]] | None = Field(None, description="What failed validation (422 only)")
    retry_after: int | None = Field(None, description="Seconds to wait, as the Retry-After header (429)")
    limit: str | None = Field(None, description="Which rate limit was reached (rate_limited only)")


class ApiProblem(Exception):
    """Raise to answer with a problem document."""

    def __init__(self, status: int, code: str, fr: str, en: str, **extra: Any) -> None:
        super().__init__(en)
        self.status, self.code, self.fr, self.en, self.extra = status, code, fr, en, extra

    def __reduce__(self) -> tuple:  # whole across processes (a refusal from the check process)
        return _problem, (self.status, self.code, self.fr, self.en, self.extra)


def _problem(status: int, code: str, fr: str, en: str, extra: dict[str, Any]) -> ApiProblem:
    return ApiProblem(status, code, fr, en, **extra)


MAX_MESSAGE = 500  # characters: a message that quotes what was sent is cut there, not as long as the request


def _short(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE - 1] + "…"


def problem_body(status: int, code: str, fr: str, en: str, **extra: Any) -> dict[str, Any]:
    fr, en = _short(fr), _short(en)
    body = {"type": TYPE_PREFIX + code, "title": HTTPStatus(status).phrase, "status": status, "code": code,
            "fr": fr, "en": en, "detail": en}
    body.update({k: v for k, v in extra.items() if v is not None})
    return body


def problem_response(status: int, code: str, fr: str, en: str, **extra: Any) -> Response:
    # "replace": a message that echoes a lone surrogate of the request must not turn a 4xx into a 500
    content = json.dumps(problem_body(status, code, fr, en, **extra), ensure_ascii=False).encode("utf-8", "replace")
    return Response(content, status_code=status, media_type=PROBLEM_JSON)


def from_rule_error(error: RuleError) -> ApiProblem:
    status = 409 if error.code in CONFLICT_CODES else 422
    return ApiProblem(status, error.code, error.fr, error.en)


def from_store_error(error: StoreError) -> ApiProblem:
    if isinstance(error, MessageRefused | MapRefused):
        return ApiProblem(error.status, error.code, error.fr, error.en)
    if isinstance(error, TokenRevoked):
        return ApiProblem(401, "token_revoked",
                          "Ce lien a été remplacé par le propriétaire de la partie : demande-lui le nouveau.",
                          "This link was replaced by the game's owner: ask them for the new one.")
    if isinstance(error, BadToken):
        return ApiProblem(401, "unauthorized", "Jeton absent ou inconnu.", "Missing or unknown token.")
    if isinstance(error, WrongGame):
        return ApiProblem(403, "forbidden", "Ce jeton n'ouvre pas cette partie.", "This token does not open this game.")
    if isinstance(error, NotASeat):
        return ApiProblem(403, "not_a_seat", "Ce jeton sert à regarder, pas à jouer.",
                          "This token is for watching, not playing.")
    if isinstance(error, NotHeld):
        return ApiProblem(403, "not_held", "Ton compte ne tient aucun siège de cette partie : ouvre son lien.",
                          "Your account holds no seat of this game: open its link.")
    if isinstance(error, NameTaken):
        return ApiProblem(409, "name_taken",
                          "Ce nom est déjà pris (ou un nom qui lui ressemble) : choisis-en un autre.",
                          "This name (or one that looks like it) is taken: choose another.")
    if isinstance(error, SeatClaimed):
        return ApiProblem(409, "seat_claimed", "Ce siège est déjà gardé par un compte, ou ton compte en garde déjà "
                          "un autre dans cette partie.", "This seat is held by an account already, or your account "
                          "holds another seat of this game.")
    if isinstance(error, GameNotFound):
        return ApiProblem(404, "game_not_found", "Partie inconnue.", "Unknown game.")
    if isinstance(error, StaleVersion):
        return ApiProblem(409, "stale_version",
                          f"La partie a changé : elle en est à la version {error.current}. Recharge-la.",
                          f"The game has moved on to version {error.current}. Reload it.", version=error.current)
    if isinstance(error, GameNotOver):
        return ApiProblem(409, "game_not_over", "La partie n'est pas finie : pas d'export avant la fin.",
                          "The game is not over: no export before the end.")
    return ApiProblem(409, error.code, "Refusé.", "Refused.")


def database_unavailable(error: SQLAlchemyError) -> bool:
    """Whether the database is away or busy (retry later), rather than a bug in a query."""
    if isinstance(error, PoolTimeout):
        return True
    if isinstance(error, DBAPIError):
        return error.connection_invalidated or type(error).__name__ in ("OperationalError", "InterfaceError")
    return False


DATABASE_UNAVAILABLE = ApiProblem(
    503, "database_unavailable", f"Base de données momentanément indisponible : réessaie dans {RETRY_AFTER_SECONDS} s.",
    f"Database momentarily unavailable: retry in {RETRY_AFTER_SECONDS} s.")


def unavailable_response() -> Response:
    problem = DATABASE_UNAVAILABLE
    response = problem_response(problem.status, problem.code, problem.fr, problem.en)
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _validation_errors(error: RequestValidationError) -> list[dict[str, Any]]:
    out = []
    for item in error.errors()[:20]:
        loc = [part if isinstance(part, int) else str(part)[:100] for part in item.get("loc", ())]
        out.append({"loc": loc, "msg": str(item.get("msg", ""))[:300], "type": str(item.get("type", ""))[:100]})
    return out


def install(app: FastAPI) -> None:
    """Register the handlers that turn every error into a problem document."""
    # Imported here: the fork server and the check process import this module for ApiProblem, and FastAPI is
    # nearly half a second of their start (kadesh.server.children).
    from fastapi.exceptions import RequestValidationError

    @app.exception_handler(ApiProblem)
    async def _api_problem(_request: Request, error: ApiProblem) -> Response:
        response = problem_response(error.status, error.code, error.fr, error.en, **error.extra)
        if "retry_after" in error.extra:  # also in the body, for clients that read only the JSON
            response.headers["Retry-After"] = str(error.extra["retry_after"])
        return response

    @app.exception_handler(RuleError)
    async def _rule_error(request: Request, error: RuleError) -> Response:
        return await _api_problem(request, from_rule_error(error))

    @app.exception_handler(StoreError)
    async def _store_error(request: Request, error: StoreError) -> Response:
        return await _api_problem(request, from_store_error(error))

    @app.exception_handler(UnknownRuleset)
    async def _unknown_ruleset(_request: Request, error: UnknownRuleset) -> Response:
        return problem_response(422, "unknown_ruleset", "Règle du jeu inconnue.", "Unknown ruleset.")

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> Response:
        return problem_response(422, "invalid_request", "Requête invalide.", "Invalid request.",
                                errors=_validation_errors(error))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> Response:
        status = error.status_code
        if status == 404 and wants_page(request):
            return FileResponse(NOT_FOUND_PAGE, status_code=404, media_type="text/html; charset=utf-8")
        if status == 404:
            return problem_response(404, "not_found", "Rien ici.", "Nothing here.")
        if status == 400:
            return problem_response(400, "malformed_body",
                                    "Corps de requête illisible (JSON trop grand ou trop imbriqué ?).",
                                    "Unreadable request body (JSON too large or too deeply nested?).")
        if status == 405:
            return problem_response(405, "method_not_allowed", "Méthode non permise.", "Method not allowed.")
        phrase = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "Error"
        return problem_response(status, "http_error", phrase, phrase)

    @app.exception_handler(SQLAlchemyError)
    async def _database(request: Request, error: SQLAlchemyError) -> Response:
        if database_unavailable(error):
            log.warning("database unavailable: %s", str(error).splitlines()[0] if str(error) else type(error))
            return unavailable_response()
        return await _bug(request, error)

    @app.exception_handler(Exception)
    async def _bug(_request: Request, error: Exception) -> Response:
        log.exception("unexpected error", exc_info=error)
        return problem_response(500, "internal_error", "Erreur interne.", "Internal error.")
