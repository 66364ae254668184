"""Royaumes' report reads as a rulebook would say it, in both languages: no identifiers, dicts,
ISO times or formulas (issue 17), and relations in the rules' own words."""

from __future__ import annotations

import pytest

from kadesh.rules.royaumes import narration
from tests.browser_support import internal_tokens
from tests.royaumes_cases import ally, campaign, gm, move, play_turn, war


def _campaign_events():
    """Two turns and Imhotep's acts: relations, a siege, an occupation and a conquest, tribute,
    spies, edits, a deadline, an override and the end."""
    state = campaign(a={"armies": ["E2", "E2", "C3"], "level": 3},
                     b={"armies": ["F1", "E4"], "level": 2, "cities": [("Beta", "F1"), ("Bet", "D3")]},
                     c={"armies": ["A5"]}, d={"armies": ["F5"]})
    ally(state, "c", "d")
    war(state, "b", "a")
    events = gm(state, {"type": "edit", "kingdom": "b", "values": {"resources": {"gold": 500}, "military_level": 4},
                        "reason": "une fête"})
    events += gm(state, {"type": "edit", "kingdom": "b", "values": {"military_level": 2}})
    events += gm(state, {"type": "set_deadline", "deadline": "2030-01-15T18:00:00+00:00"})
    events += play_turn(state, {
        "a": {"moves": [move("E2", "F1", 2), move("C3", "D3", 3)], "war": ["b"], "ally": ["c"], "create": "Beta"},
        "b": "paix: A\nalliance: D\n2 x E4 -> E5\nespion: A",
        "c": "paix: D\nA5 -> A6", "d": "F5 reste"})
    events += play_turn(state, {"a": "F1 reste\nD3 reste", "d": "F5 -> F6"})
    events += gm(state, {"type": "override", "reason": "litige", "armies": [{"kingdom": "a", "cell": "C3", "count": 2}],
                         "cities": [{"city": "Bet", "owner": "b"}]})
    events += gm(state, {"type": "set_deadline", "deadline": None})
    events += gm(state, {"type": "end_campaign", "winner": "a", "reason": "fin"})
    return events


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("seat", [None, "a", "b", "imhotep"])
def test_n1_no_internal_text_in_any_line(seat, lang):
    lines = [line for e in _campaign_events() if e.visible_to(seat) if (line := narration.narrate(e, seat, lang))]
    assert len(lines) > 5
    found = [token for line in lines for token in internal_tokens(line, lang)]
    assert not found, "\n".join(found)


def test_n2_relations_in_the_rules_words():
    lines = {lang: [narration.narrate(e, "imhotep", lang) for e in _campaign_events() if e.type == "stance"]
             for lang in ("fr", "en")}
    # (the test kingdoms' names are their ids)
    assert "a déclare la guerre à b." in lines["fr"] and "a declares war on b." in lines["en"]
    assert "a propose une alliance à c ; elle sera conclue si c la propose aussi." in lines["fr"]
    assert "b offre la paix à a, mais a maintient la guerre." in lines["fr"]
    assert "b offers peace to a, but a keeps the war going." in lines["en"]
    assert "c rompt son alliance avec d : les deux royaumes sont en paix." in lines["fr"]
    assert not any("déclare l'alliance" in line or "towards" in line for line in lines["fr"] + lines["en"])


def test_n3_imhotep_s_acts_in_words():
    events = _campaign_events()
    edit = {lang: [narration.narrate(e, "imhotep", lang) for e in events if e.type.startswith("gm_edit")]
            for lang in ("fr", "en")}
    assert edit["fr"][:2] == ["Imhotep modifie le niveau militaire et les ressources de b — « une fête ».",
                          "  Désormais : or 500, niveau militaire 4."]
    assert edit["en"][:2] == ["Imhotep edits b's military level and resources — « une fête ».",
                          "  Now: gold 500, military level 4."]
    deadline = [narration.narrate(e, None, "fr") for e in events if e.type == "gm_deadline"]
    assert deadline[0] == "Imhotep fixe l'échéance du tour 1 : mardi 15 janvier 2030 à 18 h 00 (UTC)."
    assert deadline[1].startswith("Imhotep retire l'échéance du tour 3")


def test_a_turn_judged_at_its_deadline_says_imhotep_waited_for_it():
    """« Imhotep juge le tour 1 sans attendre » only when he does not wait: at the deadline he did (issue 45)."""
    from kadesh.core import RuleError
    from kadesh.rules.royaumes import Royaumes

    state = campaign()
    with pytest.raises(RuleError):  # no deadline set: nothing to have waited for
        gm(state, {"type": "adjudicate", "due": True})
    gm(state, {"type": "set_deadline", "deadline": "2030-01-15T18:00:00+00:00"})
    _, _, due = Royaumes().deadline(state)
    judged = next(e for e in gm(state, due) if e.type == "gm_adjudicate")
    assert narration.narrate(judged, None, "fr") == "Imhotep juge le tour 1 à son échéance."
    assert narration.narrate(judged, None, "en") == "Imhotep adjudicates turn 1 at its deadline."
    early = next(e for e in gm(state, {"type": "adjudicate"}) if e.type == "gm_adjudicate")
    assert narration.narrate(early, None, "fr") == "Imhotep juge le tour 2 sans attendre."
