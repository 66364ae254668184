// Front, for players: what the game is, what you may do now, how fights are decided, how to win.
// The game page shows it in its rules panel, the lobby shows the title, tagline, length and picture.

export const GUIDE = {
  fr: {
    title: "Front",
    tagline: "Guerre moderne interarmes : points d'action, carburant, munitions, brouillard, mines et missions.",
    duration: "1 à 2 heures",
    players: "2 camps",
    sections: [],  // {key, title, text: [paragraphs]}: ``key`` matches phaseKey(view)
    choices: [],   // one line each: where the rules leave a choice to Kadesh
  },
  en: {
    title: "Front",
    tagline: "Modern combined arms: action points, fuel, ammunition, fog of war, mines and missions.",
    duration: "1 to 2 hours",
    players: "2 sides",
    sections: [],
    choices: [],
  },
};

// The section to open first: what this seat may do in the phase shown.
export function phaseKey(view) {
  return null;
}
