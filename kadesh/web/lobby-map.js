// A map of the shelf chosen for a game (issue 61): /?map=<id>, the shelf's « Jouer sur cette carte », opens the lobby
// with the map in its game's card; every way of playing there (against the computer, by link, open to others) is
// then played on it (``options.map``: the server puts its text in the game's record).

import { el } from "./dom.js";

const WORDS = {
  fr: { chosen: "Carte choisie :", by: (name) => `de ${name}`, deleted: "auteur supprimé", drop: "Jouer sans cette carte",
    gone: "Cette carte n'est plus sur l'étagère des cartes : son auteur l'a retirée, ou elle n'existe pas." },
  en: { chosen: "Map chosen:", by: (name) => `by ${name}`, deleted: "deleted author", drop: "Play without this map",
    gone: "This map is no longer on the shelf of maps: its author took it back, or it does not exist." },
};

// The published map the address names: {id, ruleset, name, author}, {gone: true}, or null when it names none.
export async function mapInAddress() {
  const id = new URLSearchParams(location.search).get("map");
  if (!id) return null;
  const response = await fetch(`/api/maps/${encodeURIComponent(id)}`).catch(() => null);
  const found = response?.ok ? await response.json() : null;
  return found?.status === "published" ? found : { gone: true };
}

// What the card says of the chosen map, and the button that plays without it.
export function mapNote(chosen, lang, drop) {
  const words = WORDS[lang] ?? WORDS.fr;
  const author = chosen.author.deleted ? words.deleted : words.by(chosen.author.name);
  return el("p", { class: "chosen-map", id: `chosen-map-${chosen.ruleset}`, role: "status" },
    el("strong", {}, words.chosen), " ", el("a", { href: `/maps?ruleset=${encodeURIComponent(chosen.ruleset)}` }, chosen.name),
    ` (${author}) `, el("button", { type: "button", class: "drop-map", onclick: drop }, words.drop));
}

export function goneNote(lang) {
  return (WORDS[lang] ?? WORDS.fr).gone;
}

// The address without its map (the choice dropped): a reload opens the plain lobby.
export function forgetMapInAddress() {
  const query = new URLSearchParams(location.search);
  query.delete("map");
  history.replaceState(null, "", `${location.pathname}${query.size ? `?${query}` : ""}${location.hash}`);
}
