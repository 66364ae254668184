// Dudo, for players: the game page's rules panel and the lobby's card (title, tagline, length, players).
// The numbers are those of kadesh_dudo/rules.toml.

export const GUIDE = {
  fr: {
    title: "Dudo",
    tagline: "Des dés cachés sous les gobelets, des annonces de plus en plus hautes : crie « Dudo ! » quand l'autre bluffe.",
    duration: "5 minutes",
    players: "2 joueurs, ou contre l'ordinateur",
    picture: "Deux gobelets renversés et des dés sur une table",
    sections: [
      { key: "roll", title: "Les gobelets", text: [
        "Chacun a 5 dés sous son gobelet. Au début de chaque manche, le premier joueur secoue : tous les dés sont lancés, et chacun ne voit que les siens.",
      ] },
      { key: "bid", title: "Annoncer ou crier « Dudo ! »", text: [
        "À ton tour, annonce qu'il y a au moins tant de dés d'une face sous les deux gobelets réunis (« au moins trois 5 »), plus haut que l'annonce d'avant : plus de dés, ou autant d'une face plus forte.",
        "Les 1 comptent pour n'importe quelle face ; on n'annonce pas de 1.",
        "Si tu ne crois pas l'annonce de l'autre, crie « Dudo ! » : on lève les gobelets et on compte. Si l'annonce tient, tu perds un dé ; sinon, c'est l'autre. Le perdant commence la manche suivante.",
      ] },
      { key: "over", title: "La fin", text: ["Celui qui n'a plus de dé a perdu."] },
    ],
    choices: ["Deux joueurs, le Nord et le Sud ; le Nord commence la première manche.",
      "Les 1 comptent pour tout et ne s'annoncent pas (la règle « paco » des variantes n'est pas jouée)."],
  },
  en: {
    title: "Liar's Dice",
    tagline: "Dice hidden under cups, ever higher bids: call « Dudo! » when the other is bluffing.",
    duration: "5 minutes",
    players: "2 players, or against the computer",
    picture: "Two upturned cups and dice on a table",
    sections: [
      { key: "roll", title: "The cups", text: [
        "Each player has 5 dice under a cup. At the start of each round the first player shakes: every die is rolled, and each player sees only their own.",
      ] },
      { key: "bid", title: "Bid or call « Dudo! »", text: [
        "On your turn, bid that there are at least so many dice of a face under both cups together (« at least three 5s »), higher than the bid before: more dice, or as many of a higher face.",
        "1s count as any face; nobody bids on 1s.",
        "If you do not believe the other's bid, call « Dudo! »: the cups are lifted and the dice counted. If the bid holds, you lose a die; if not, the other does. The loser starts the next round.",
      ] },
      { key: "over", title: "The end", text: ["Whoever has no die left has lost."] },
    ],
    choices: ["Two players, North and South; North starts the first round.",
      "1s count as anything and are never bid (the « paco » rule of some variants is not played)."],
  },
};

export function phaseKey(view) {
  if (!view) return null;
  return view.phase === "roll" ? "roll" : view.phase === "over" ? "over" : "bid";
}

// The lobby's picture: two cups and the dice of a lifted one, on the lobby's paper (its 240 × 140 box).
export function lobbyPicture({ el, W, H }) {
  const cup = (x) => el("svg:path", { d: `M${x} 110 l10 -60 h40 l10 60 z`, class: "art-north" });
  const die = (x, y, pips) => [el("svg:rect", { x, y, width: 22, height: 22, rx: 4, class: "art-ground",
    stroke: "currentColor" }), ...pips.map(([px, py]) => el("svg:circle", { cx: x + px, cy: y + py, r: 2.4 }))];
  return [el("svg:rect", { x: 0, y: 0, width: W, height: H, class: "art-ground" }), cup(30), cup(150),
    ...die(100, 96, [[11, 11]]), ...die(126, 104, [[6, 6], [16, 16]]), ...die(112, 70, [[6, 6], [11, 11], [16, 16]])];
}
