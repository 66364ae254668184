// Royaumes, for players: what the game is, what you may do now, how fights are decided, how to win.
// The game page shows it in its rules panel, the lobby shows the title, tagline, length and picture.

export const GUIDE = {
  fr: {
    title: "Royaumes",
    tagline: "Quatre royaumes du Nil écrivent leurs ordres en secret ; Imhotep, l'arbitre, les exécute ensemble.",
    duration: "plusieurs semaines, un tour par jour ou par semaine",
    players: "4 royaumes et un maître du jeu",
    sections: [],  // {key, title, text: [paragraphs]}: ``key`` matches phaseKey(view)
    choices: [],   // one line each: where the rules leave a choice to Kadesh
  },
  en: {
    title: "Kingdoms",
    tagline: "Four Nile kingdoms write their orders in secret; Imhotep, the referee, carries them out together.",
    duration: "several weeks, one turn a day or a week",
    players: "4 kingdoms and a game master",
    sections: [],
    choices: [],
  },
};

// The section to open first: what this seat may do in the phase shown.
export function phaseKey(view) {
  return null;
}
