// Manœuvre, for players: what the game is, what you may do now, how fights are decided, how to win.
// The game page shows it in its rules panel, the lobby shows the title, tagline, length and picture.

export const GUIDE = {
  fr: {
    title: "Manœuvre",
    tagline: "Deux commandants, douze éléments chacun, un champ de 12 × 12 : avancer en ligne, engager, rompre l'ennemi.",
    duration: "30 à 45 minutes",
    players: "2 joueurs, ou contre l'ordinateur",
    sections: [],  // {key, title, text: [paragraphs]}: ``key`` matches phaseKey(view)
    choices: [],   // one line each: where the rules leave a choice to Kadesh
  },
  en: {
    title: "Manoeuvre",
    tagline: "Two commanders, twelve elements each, a 12 × 12 field: advance in line, engage, break the enemy.",
    duration: "30 to 45 minutes",
    players: "2 players, or against the computer",
    sections: [],
    choices: [],
  },
};

// The section to open first: what this seat may do in the phase shown.
export function phaseKey(view) {
  return null;
}
