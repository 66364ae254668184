"""A real Kadesh server in a thread and Debian's Chromium, for the browser tests."""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import uvicorn

from tests.server_support import free_port

CHROMIUM = "/usr/bin/chromium"  # Debian's browser, as players have it: the screenshots and the benches
# The browser tests drive Debian's headless build of the same Chromium (package chromium-headless-shell, the build
# Playwright itself runs headless): the same engine without the desktop browser around it, a third less CPU for
# the same tests (docs/performance.md, « The suite's own time »).
TEST_CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@contextmanager
def running_server(db_path: str, **app_options) -> Iterator[tuple[str, object]]:
    """Serve Kadesh on a free loopback port; yields (base URL, the app's store)."""
    from kadesh.server.app import create_app

    # As kadesh serve, but with one local worker, not two: a test's bots play one game at a time here, and each
    # worker process costs some 0.8 s of CPU to start (two workers racing are tests/test_workers.py's).
    app = create_app(f"sqlite:///{db_path}", **{"warm_checks": True, "local_workers": 1, **app_options})
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           proxy_headers=False))  # as kadesh serve: KADESH_TRUSTED_PROXIES decides
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", app.state.store
    finally:
        server.should_exit = True
        thread.join(timeout=10)


# Playwright's wait_for_function looks again at every animation frame by default, which keeps Chromium drawing
# frames for as long as a test waits: its renderer and GPU process spent 55-70 ms of CPU a second of waiting, against
# 5 ms when looking every 100 ms (measured on a game page, docs/performance.md « The suite's own time »).
POLL_EVERY_MS = 100


def poll_pages_every(milliseconds: int) -> None:
    """Make ``Page.wait_for_function`` look every ``milliseconds`` unless a test says otherwise."""
    from playwright.sync_api import Page

    wait = getattr(Page.wait_for_function, "__wrapped__", Page.wait_for_function)

    @functools.wraps(wait)
    def wait_for_function(self, expression, *, arg=None, timeout=None, polling=None):
        return wait(self, expression, arg=arg, timeout=timeout, polling=milliseconds if polling is None else polling)

    Page.wait_for_function = wait_for_function


# -- what a page must never show or be -------------------------------------------------------------
# Internal text: a dict or JSON, an identifier with an underscore, an ISO timestamp, a formula, a
# JavaScript slip, or a ruleset's id where its title belongs.
INTERNAL_TOKENS = {
    "brace": r"[{}]",
    "identifier": r"[A-Za-z0-9]_[A-Za-z0-9]",
    "iso timestamp": r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}",
    "formula": r"[⌊⌋]|\b\d+/36\b",
    "script slip": r"\b(?:undefined|NaN|null|\[object Object\])\b",
    "version tag": r"\b[A-Za-zœ]+ \(?v\d+\)?",
}
# A ruleset's id where its title belongs: words that are no word of the page's language.
RULESET_IDS = {"fr": r"\bmanoeuvre\b", "en": r"\b(?:royaumes|bataille|manœuvre)\b"}


def internal_tokens(text: str, lang: str = "fr") -> list[str]:
    """Each internal token in ``text`` (a page in ``lang``), with a little context, as ``kind: …context…``."""
    import re

    found = []
    for kind, pattern in {**INTERNAL_TOKENS, "ruleset id": RULESET_IDS[lang]}.items():
        for match in re.finditer(pattern, text):
            start, end = max(0, match.start() - 30), match.end() + 30
            found.append(f"{kind}: …{text[start:end]}…".replace("\n", " ⏎ "))
    return found


def visible_text(page) -> str:
    """What a reader sees: the page's rendered text, with tooltips (titles) and the open details."""
    return page.evaluate("""() => {
        const titles = [...document.querySelectorAll('[title], svg title')]
          .map((n) => n.getAttribute('title') ?? n.textContent);
        return document.body.innerText + '\\n' + titles.join('\\n') + '\\n' + document.title;
    }""")


# axe's rules that can only find minor or moderate problems: both the rule's own impact and each of its checks'
# say so. Only serious and critical findings fail a test, so these are left out of the run (a third of axe's time).
AXE_MILD_RULES = """() => {
  const mild = (impact) => impact === undefined || impact === "minor" || impact === "moderate";
  const checks = (rule) => [...rule.any, ...rule.all, ...rule.none].map((check) => check.id ?? check);
  return axe._audit.rules
    .filter((rule) => rule.impact && mild(rule.impact))
    .filter((rule) => checks(rule).every((id) => mild(axe._audit.data.checks[id]?.impact)))
    .map((rule) => rule.id);
}"""


def accessibility_problems(page, within: tuple[str, ...] = ()) -> list[str]:
    """axe-core's serious and critical violations on the page as it stands, one line each; with ``within``,
    those of the elements these selectors name and of what they hold."""
    from axe_playwright_python.sync_playwright import Axe

    if not page.evaluate("() => typeof window.axe === 'object'"):  # once per document
        page.evaluate(Axe().axe_script)
    options = {"resultTypes": ["violations"],
               "rules": {rule: {"enabled": False} for rule in page.evaluate(AXE_MILD_RULES)}}
    context = {"include": [[selector] for selector in within]} if within else None
    violations = page.evaluate("""([context, options]) => axe.run(context ?? document, options)
        .then((results) => results.violations)""", [context, options])
    return [f"{v['impact']} {v['id']}: {v['help']} ({len(v['nodes'])}× e.g. {v['nodes'][0]['target']})"
            for v in violations if v["impact"] in ("serious", "critical")]


def assert_page_clean(page, lang: str = "fr", changed: tuple[str, ...] = ()) -> None:
    """No internal token in the visible text (a page in ``lang``) and no serious accessibility violation.

    ``changed``: the page was found clean a moment before, and since then only the elements these selectors
    name (and what they hold) changed, the rest of the page staying as it was and where it was (a panel fixed
    over it, say). axe then looks at them alone: on the rest it would find what it found before, or less (text
    under a panel is not judged). The visible text is read whole all the same."""
    tokens = internal_tokens(visible_text(page), lang)
    assert not tokens, f"{page.url}: internal text on the page:\n" + "\n".join(tokens)
    problems = accessibility_problems(page, changed)
    assert not problems, f"{page.url}: accessibility:\n" + "\n".join(problems)


def caught_up(page, store, game_id: str) -> None:
    """Wait until the page plays the game's latest version: another player's last action may still be on its
    way to this page, whose buttons would then be those of before it (and vanish under the click)."""
    with store.game(game_id) as game:
        latest = game.version
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) === {latest}")


def wait_for_odds(page) -> None:
    """Wait for the battle table's odds, chunk by chunk: each of the ten requests has the whole ceiling (on a
    busy machine the server's simulations run at a lower priority than the tests' own processes)."""
    while not page.locator("#odds-games").count():
        shown = page.locator("#odds-progress").get_attribute("value") or "0"
        page.wait_for_function(f"""() => document.querySelector('#odds-games')
            || Number(document.querySelector('#odds-progress')?.value) > {int(shown)}""")


# -- passkeys in Chromium: the DevTools Protocol's virtual authenticator ------------------------------------
AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                 "hasUserVerification": True, "isUserVerified": True, "automaticPresenceSimulation": True}


def authenticator(context, page):
    """A platform authenticator for the page's context: the DevTools session and the authenticator's id."""
    devtools = context.new_cdp_session(page)
    devtools.send("WebAuthn.enable")
    made = devtools.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return devtools, made["authenticatorId"]


# -- browser contexts kept from test to test -------------------------------------------------------------------------
class _KeeperPage(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        body = b"<!doctype html><title>kept</title>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@contextmanager
def keeper_site() -> Iterator[str]:
    """A loopback page that pooled contexts keep open (any port: a site is its scheme and host)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _KeeperPage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class _Kept:
    context: object
    keeper: object
    devtools: object
    origins: set[str] = field(default_factory=set)
    closed: bool = False


class ContextPool:
    """Browser contexts lent to one test at a time and kept for the next. A test's page gets a context of its own
    (two players, two contexts), as new as a new one: at the test's end its pages are closed, and its cookies,
    permissions and each visited origin's storage cleared. What is kept is the renderer process: each context
    keeps a loopback page open, so that a new page of the site reuses its process. A new context's first page
    costs Chromium some 0.35 s of CPU more than a kept one's (docs/performance.md, « The suite's own time »).
    Contexts are pooled by their options. A context changed otherwise (an init script, a route) cannot be
    cleared: such a test makes its own (``browser.new_context``)."""

    def __init__(self, make: Callable[..., object], keeper_url: str) -> None:
        self._make, self._keeper_url = make, keeper_url
        self._idle: dict[str, list[_Kept]] = {}
        self._lent: list[tuple[str, _Kept]] = []

    def new_page(self, **options):
        key = repr(sorted(options.items()))
        idle = self._idle.setdefault(key, [])
        kept = idle.pop() if idle else self._new(options)
        self._lent.append((key, kept))
        return kept.context.new_page()

    def _new(self, options: dict) -> _Kept:
        context = self._make(**options)
        keeper = context.new_page()
        keeper.goto(self._keeper_url)
        kept = _Kept(context, keeper, context.new_cdp_session(keeper))

        def watch(page) -> None:
            page.on("framenavigated", lambda frame: frame == page.main_frame and kept.origins.add(_origin(frame.url)))

        context.on("page", watch)
        context.on("close", lambda _: setattr(kept, "closed", True))
        return kept

    def give_back(self) -> None:
        """The lent contexts, cleared, back in the pool (one a test closed, or left without its kept page, is
        left out)."""
        lent, self._lent = self._lent, []
        for key, kept in lent:
            if kept.closed:
                continue
            if kept.keeper.is_closed():  # a test closed every page: the context holds no process any more
                kept.context.close()
                continue
            for page in kept.context.pages:
                if page != kept.keeper:
                    page.close()
            for origin in kept.origins - {"null"}:
                kept.devtools.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
            kept.origins.clear()
            kept.context.clear_cookies()
            kept.context.clear_permissions()
            self._idle[key].append(kept)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else "null"
