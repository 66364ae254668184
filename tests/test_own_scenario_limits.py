"""A scenario or a map of one's own that is too long is refused as every other bad one is (issue 45): the code
``bad_scenario``, a message that names the fault, from the API as from the rules."""

from __future__ import annotations

import pytest

from kadesh.core import RuleError, get_ruleset
from kadesh.rules.front import scenario as front_scenario
from kadesh.rules.royaumes import maps
from kadesh.server.app import create_app
from kadesh.server.rates import RatePolicy
from tests.asgi_client import TestClient

CASES = [("front", front_scenario.MAX_TEXT, "Scénario refusé", "plus de"),
         ("royaumes", maps.MAX_TEXT, "refusé", "plus de")]


@pytest.mark.parametrize(("ruleset", "most", "refused", "fault"), CASES)
def test_an_oversize_text_of_ones_own_is_a_bad_scenario_naming_its_length(ruleset, most, refused, fault):
    text = "#" * (most + 1)
    with pytest.raises(RuleError) as caught:
        get_ruleset(ruleset).normalize_options({"scenario_toml": text})
    assert caught.value.code == "bad_scenario"
    assert refused in caught.value.fr and f"{fault} {most} caractères" in caught.value.fr
    with pytest.raises(RuleError) as short:  # a short bad one: the same code
        get_ruleset(ruleset).normalize_options({"scenario_toml": "not = [toml"})
    assert short.value.code == "bad_scenario"


@pytest.mark.parametrize(("ruleset", "most", "refused", "fault"), CASES)
def test_the_api_refuses_it_with_the_same_code(tmp_path, ruleset, most, refused, fault):
    app = create_app(f"sqlite:///{tmp_path / 'k.sqlite3'}", local_workers=0, rate_policy=RatePolicy.unlimited())
    with TestClient(app) as client:
        answer = client.post("/api/games", json={"ruleset": ruleset, "options": {"scenario_toml": "#" * (most + 1)}})
        assert answer.status_code == 422 and answer.json()["code"] == "bad_scenario", answer.text
    app.state.store.close()
