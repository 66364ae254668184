"""The browser tests' kept contexts (``tests/browser_support.ContextPool``): a page lent by ``browser.new_page``
comes as new as from a new context: no cookie, no storage, no permission of the test before it."""

from __future__ import annotations

import pytest

from tests.browser_support import keeper_site

pytestmark = [pytest.mark.browser]


def dirty(page, site: str) -> None:
    """What a test may leave in its context: a permission, storage, a cookie."""
    page.context.grant_permissions(["clipboard-read"], origin=site.rstrip("/"))
    page.context.add_cookies([{"name": "elsewhere", "value": "1", "url": "http://localhost:9/"}])  # never visited
    page.evaluate("""() => { localStorage.setItem('kadesh.lang', 'en'); sessionStorage.setItem('s', '1');
                             document.cookie = 'kadesh_session=secret; path=/'; }""")


def test_a_kept_context_comes_back_cleared_and_two_pages_of_one_test_are_apart(browser):
    with keeper_site() as site:
        first = browser.new_page(viewport={"width": 800, "height": 600})
        first.goto(site)
        dirty(first, site)
        other = browser.new_page(viewport={"width": 800, "height": 600})  # a second player: a context of its own
        assert other.context is not first.context
        other.goto(site)
        assert other.evaluate("() => localStorage.length + document.cookie.length") == 0
        dirty(other, site)
        kept = {first.context, other.context}
        browser.close_pages()  # as at a test's end

        again = browser.new_page(viewport={"width": 800, "height": 600})
        assert again.context in kept  # kept, not made anew
        again.goto(site)
        assert again.evaluate("() => [localStorage.length, sessionStorage.length, document.cookie]") == [0, 0, ""]
        assert again.context.cookies() == []
        assert again.evaluate("async () => (await navigator.permissions.query({name: 'clipboard-read'})).state") \
            != "granted"
