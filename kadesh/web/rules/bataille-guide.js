// Bataille, for players: what the game is, what you may do now, how fights are decided, how to win.
// The game page shows it in its rules panel, the lobby shows the title, tagline, length and picture.

export const GUIDE = {
  fr: {
    title: "Bataille",
    tagline: "Deux troupes s'affrontent : discipline, tirs, moral, mêlée et poursuite, décidés aux dés.",
    duration: "5 à 10 minutes",
    players: "2 joueurs, ou contre l'ordinateur",
    sections: [],  // {key, title, text: [paragraphs]}: ``key`` matches phaseKey(view)
    choices: [],   // one line each: where the rules leave a choice to Kadesh
  },
  en: {
    title: "Battle",
    tagline: "Two bodies of troops clash: discipline, fire, morale, melee and pursuit, decided by the dice.",
    duration: "5 to 10 minutes",
    players: "2 players, or against the computer",
    sections: [],
    choices: [],
  },
};

// The section to open first: what this seat may do in the phase shown.
export function phaseKey(view) {
  return null;
}
