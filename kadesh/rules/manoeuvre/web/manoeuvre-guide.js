// Manœuvre, for players: what the game is, what you may do now, how fights are decided, how to win.
// The game page shows it in its rules panel, the lobby shows the title, tagline, length and picture.
// The numbers are those of kadesh/rules/manoeuvre/rules.toml; the choices, docs/rules/manoeuvre.md.

export const GUIDE = {
  fr: {
    title: "Manœuvre",
    tagline: "Deux commandants, douze éléments chacun, un champ de 12 × 12 : avancer en ligne, engager, rompre l'ennemi.",
    duration: "30 à 45 minutes",
    players: "2 joueurs, ou contre l'ordinateur",
    sections: [
      {
        key: "deployment",
        title: "Le déploiement",
        text: [
          "Chaque camp aligne douze éléments : un général sur char léger, trois chars légers, trois lames, quatre archers (ou trois archers et quatre lames, selon l'option de la partie) et un tirailleur.",
          "Place-les sur les deux rangées de ton bord, dans les huit colonnes du centre (c à j) : la zone est ombrée sur le terrain. Choisis un élément dans la réserve puis une case claire, ou fais-le glisser ; ou range-les tous d'un clic avec « Placement par défaut ». Tu peux déplacer ou retirer un élément tant que tu n'es pas prêt.",
          "Ton placement reste caché à l'adversaire jusqu'à ce que les deux camps soient prêts. Chaque élément fait d'abord face à l'ennemi. Une fois prêt, tu ne peux plus rien changer ; la bataille commence quand les deux le sont, le Nord joue le premier.",
        ],
      },
      {
        key: "battle",
        title: "Ton tour",
        text: [
          "À ton tour, chacun de tes éléments peut agir une fois : se déplacer, tourner sur place, attaquer, ou tirer s'il est archer. Quand tu as fini, termine ton tour ; rien ne t'oblige à faire agir tout le monde.",
          "Déplacement : le général et les chars vont jusqu'à 2 cases, tous les autres 1, pas à pas sans diagonale, sans traverser d'élément. Une case menacée par l'ennemi arrête le mouvement : on peut y entrer, pas la traverser. À l'arrivée, choisis la direction où l'élément fait face.",
          "Chaque élément menace la case devant lui (hachurée quand tu le regardes). Un élément qui se tient sur une case menacée est engagé : il ne peut que faire face à la menace, l'attaquer, ou reculer d'une case droit devant elle. Il ne se dérobe jamais sur le côté.",
          "Attaque : un élément non engagé attaque un ennemi qui lui est adjacent (pas en diagonale), ou charge d'abord jusqu'à une case adjacente à sa cible, selon les règles du déplacement. Il fait alors face à sa cible.",
          "Tir : seul l'archer tire, sans bouger, jusqu'à 3 cases (la diagonale compte pour 1), si aucun élément, ami ou ennemi, ne se trouve entre lui et sa cible. Le tir se résout comme un combat, mais sans soutien.",
          "Avant d'attaquer, choisis ta cible : les chances de chaque issue s'affichent en pourcentage. Les flèches numérotées montrent ce que l'adversaire vient de faire ; ses pertes et les tiennes restent visibles sous le terrain.",
        ],
      },
      {
        key: "combat",
        title: "Comment se décide un combat",
        text: [
          "Chaque camp lance un dé à six faces et ajoute le facteur de son élément, qui dépend de l'adversaire : contre les gens de pied, général 3, char léger 3, lame 4, archer 3, tirailleur 2 ; contre les montés (général et chars), général 3, char léger 3, lame 3, archer 2, tirailleur 2. Une cible qui reçoit un tir utilise son facteur contre les gens de pied.",
          "Modificateurs : +1 au général lui-même ; +1 de soutien en corps à corps à l'élément qui a, juste derrière lui, un ami tourné dans le même sens ; −1 par flanc menacé par un autre ennemi ; −1 au défenseur attaqué de flanc, −1 s'il est attaqué de dos.",
          "Le score le plus bas perd. À égalité, rien ne se passe. Si le vainqueur atteint au moins le double du score du perdant, le perdant est détruit. Un défenseur battu de dos est détruit, et un archer battu au corps à corps par un monté aussi.",
          "Sinon le perdant recule d'une case, droit derrière lui, et garde son orientation ; le vainqueur reste en place. Un recul bloqué par le bord du terrain ou par un ennemi détruit le perdant. Un ami derrière lui, tourné dans le même sens, est repoussé d'une case s'il le peut ; sinon le perdant est détruit.",
          "Exemple : ta lame (4) attaque de face un tirailleur (2). Tu fais 3, score 7 ; il fait 2, score 4. 7 n'atteint pas 8 : le tirailleur recule. De dos, il aurait été détruit.",
        ],
      },
      {
        key: "over",
        title: "Gagner",
        text: [
          "Le premier camp qui a perdu 4 éléments plie, et l'autre l'emporte. Le général compte pour deux pertes : le perdre, c'est être à mi-chemin de la déroute.",
          "Abandonner est toujours possible, même pendant le déploiement : l'adversaire l'emporte alors.",
          "À la fin, la graine des dés est révélée : chaque jet du journal peut être vérifié.",
        ],
      },
    ],
    choices: [
      "Le général perdu compte pour deux pertes : un camp peut plier après trois éléments perdus.",
      "Les modificateurs que le texte laisse en blanc : +1 au général, +1 de soutien au corps à corps, −1 par flanc menacé, −1 au défenseur pris de flanc ou de dos.",
      "Le soutien vient d'un ami juste derrière, tourné dans le même sens ; jamais au tir.",
      "Le double détruit (8 contre 4 détruit) ; à égalité rien ne se passe.",
      "Le tir ne reçoit pas de soutien, et l'archer battu par un char qu'il a visé ne fait que reculer.",
      "Un défenseur battu de dos est détruit, au tir aussi.",
      "Le perdant recule droit derrière lui, selon sa propre orientation, qu'il garde ; le vainqueur n'avance pas.",
      "Un mouvement peut finir sur une case menacée, pas la traverser.",
      "« S'en rapprocher », pour un élément engagé, se lit « l'attaquer ».",
      "L'élément engagé qui recule fait une seule case, puis fait face où il veut.",
      "La portée de tir compte la diagonale pour une case ; l'archer tire dans toutes les directions, puis se tourne vers sa cible.",
      "Le douzième élément (archer ou lame) est une option de la partie, la même pour les deux camps.",
      "Le tour se termine seulement quand le joueur le dit ; il n'y a pas de limite de tours.",
    ],
  },
  en: {
    title: "Manoeuvre",
    tagline: "Two commanders, twelve elements each, a 12 × 12 field: advance in line, engage, break the enemy.",
    duration: "30 to 45 minutes",
    players: "2 players, or against the computer",
    sections: [
      {
        key: "deployment",
        title: "Deployment",
        text: [
          "Each side fields twelve elements: a general in a light chariot, three light chariots, three blades, four archers (or three archers and four blades, as the game's option says) and a skirmisher.",
          "Place them on the two rows of your edge, in the eight central columns (c to j): the zone is shaded on the field. Choose an element in the tray, then a light cell, or drag it there; or place them all in one click with “Default placement”. You may move or take back an element until you are ready.",
          "Your placement stays hidden from your opponent until both sides are ready. Every element first faces the enemy. Once ready you can change nothing; the battle starts when both are, and North plays first.",
        ],
      },
      {
        key: "battle",
        title: "Your turn",
        text: [
          "On your turn each of your elements may act once: move, turn in place, attack, or shoot if it is an archer. When you are done, end your turn; nobody has to act.",
          "Moving: the general and the chariots go up to 2 cells, all others 1, step by step with no diagonal, through no element. A cell the enemy threatens stops the move: you may enter it, not go through it. On arrival, choose the way the element faces.",
          "Each element threatens the cell in front of it (hatched when you look at it). An element standing on a threatened cell is engaged: it may only face the threat, attack it, or step one cell straight back from it. It never slips away to the side.",
          "Attacking: an element that is not engaged attacks an enemy next to it (not diagonally), or first charges to a cell next to its target, by the rules of moving. It then faces its target.",
          "Shooting: only archers shoot, without moving, up to 3 cells (a diagonal counts 1), if no element, friend or foe, stands between them and the target. A shot is settled like a fight, but without support.",
          "Before attacking, choose your target: the chances of each outcome are shown in percent. Numbered arrows show what your opponent just did; both sides' losses stay in sight under the field.",
        ],
      },
      {
        key: "combat",
        title: "How a fight is decided",
        text: [
          "Each side rolls a six-sided die and adds its element's factor, which depends on the opponent: against foot, general 3, light chariot 3, blade 4, archer 3, skirmisher 2; against mounted (general and chariots), general 3, light chariot 3, blade 3, archer 2, skirmisher 2. A target that is shot uses its factor against foot.",
          "Modifiers: +1 for the general itself; +1 support in close combat for an element with a friend right behind it facing the same way; −1 for each flank threatened by another enemy; −1 for a defender attacked in the flank, −1 if attacked from the rear.",
          "The lower score loses. On a tie nothing happens. If the winner scores at least double the loser's score, the loser is destroyed. A defender beaten from the rear is destroyed, and so is an archer beaten in close combat by a mounted element.",
          "Otherwise the loser recoils one cell straight behind it and keeps its facing; the winner stays. A recoil blocked by the edge of the field or by an enemy destroys the loser. A friend behind it facing the same way is pushed back one cell if it can be; otherwise the loser is destroyed.",
          "Example: your blade (4) attacks a skirmisher (2) from the front. You roll 3, score 7; it rolls 2, score 4. 7 is not double 4: the skirmisher recoils. From the rear it would have been destroyed.",
        ],
      },
      {
        key: "over",
        title: "Winning",
        text: [
          "The first side to lose 4 elements breaks, and the other wins. The general counts as two losses: losing it takes you halfway to the rout.",
          "You may always resign, even during deployment: your opponent then wins.",
          "At the end the dice seed is revealed: every roll in the journal can be checked.",
        ],
      },
    ],
    choices: [
      "A lost general counts as two losses: a side may break after losing three elements.",
      "The modifiers the text leaves blank: +1 for the general, +1 support in close combat, −1 for each threatened flank, −1 for a defender taken in the flank or rear.",
      "Support comes from a friend right behind, facing the same way; never when shooting.",
      "Doubling destroys (8 against 4 destroys); on a tie nothing happens.",
      "Shots get no support, and an archer beaten by a chariot it shot only recoils.",
      "A defender beaten from the rear is destroyed, when shot too.",
      "The loser recoils straight behind itself, by its own facing, which it keeps; the winner does not advance.",
      "A move may end on a threatened cell, not go through one.",
      "« S'en rapprocher » (to close in), for an engaged element, is read as attacking it.",
      "An engaged element stepping back goes one cell only, then faces any way.",
      "Shooting range counts a diagonal as one cell; an archer shoots in any direction, then turns to its target.",
      "The twelfth element (archer or blade) is an option of the game, the same for both sides.",
      "A turn ends only when the player says so; there is no turn limit.",
    ],
  },
};

// The section to open first: what this seat may do in the phase shown.
export function phaseKey(view) {
  if (!view) return null;
  if (view.phase === "deployment") return "deployment";
  if (view.phase === "over") return "over";
  return "battle";
}
