"""Option schemas shared by rulesets: defaults, and clear refusals."""

from __future__ import annotations

from typing import Any

from kadesh.core.errors import RuleError


def _bad(name: str, fr: str, en: str) -> RuleError:
    return RuleError("bad_options", fr, en, option=name)


def normalize(schema: dict[str, dict[str, Any]], options: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(options, dict):
        raise _bad("", "Les options doivent être un objet.", "Options must be an object.")
    unknown = sorted(set(options) - set(schema))
    if unknown:
        raise _bad(unknown[0], f"Option inconnue : {unknown[0]}.", f"Unknown option: {unknown[0]}.")
    out: dict[str, Any] = {}
    for name, spec in schema.items():
        value = options.get(name, spec["default"])
        kind = spec["type"]
        if kind == "choice" and value not in spec["values"]:
            allowed = ", ".join(map(str, spec["values"]))
            raise _bad(name, f"Option {name} : valeurs permises {allowed}.",
                       f"Option {name}: allowed values are {allowed}.")
        if kind == "int" and (not isinstance(value, int) or isinstance(value, bool) or not (
                spec.get("min", value) <= value <= spec.get("max", value))):
            raise _bad(name, f"Option {name} : entier entre {spec.get('min')} et {spec.get('max')}.",
                       f"Option {name}: an integer from {spec.get('min')} to {spec.get('max')}.")
        if kind == "text" and (not isinstance(value, str) or len(value) > spec.get("max_length", 10_000)):
            most = spec.get("max_length", 10_000)
            raise _bad(name, f"Option {name} : un texte de {most} caractères au plus.",
                       f"Option {name}: a text of at most {most} characters.")
        out[name] = value
    return out
