// Bataille, for players: what the game is, what you may do now, how fights are decided, how to win.
// The game page shows it in its rules panel, the lobby shows the title, tagline, length and picture.
// The numbers are those of kadesh/rules/bataille/rules.toml (dice, attack, morale, battle).

export const GUIDE = {
  fr: {
    title: "Bataille",
    tagline: "Deux armées manœuvrent sur un champ de bataille ; à portée, discipline, tirs, moral, mêlée et poursuite se décident aux dés.",
    duration: "5 minutes (un contre un) à 30 minutes (sur un champ)",
    players: "2 joueurs, ou contre l'ordinateur",
    sections: [
      {
        key: "deploy", mode: "duel", title: "La bataille et les troupes",
        text: [
          "Chaque général commande une troupe : le Nord contre le Sud. Tu ne déplaces rien : tu donnes des ordres aux moments de décision, et les dés font le reste. Chaque jet est écrit au journal avec le nombre qu'il fallait faire.",
          "Une troupe a un effectif (ses hommes), une discipline et un moral (les nombres à faire aux dés), une valeur de mêlée, une valeur de tir, une portée (en pas, 0 si elle ne tire pas) et une vitesse.",
          "Les jets de discipline et de moral se font avec un dé de 20 : ils sont réussis sur un résultat égal ou inférieur à la valeur. Une discipline de 12 réussit donc 12 fois sur 20, soit 60 %.",
          "Mise en place : confirme que ta troupe est en position. La bataille commence quand les deux généraux l'ont fait.",
        ],
      },
      {
        key: "field", mode: "field", title: "Sur un champ de bataille",
        text: [
          "Chaque général commande une armée : le Nord contre le Sud. À chaque tour, tu donnes un ordre à chacun de tes groupes ; quand deux groupes arrivent à portée, ils s'engagent, tu décides aux moments de décision et les dés font le reste. Chaque jet est écrit au journal avec le nombre qu'il fallait faire.",
          "Un groupe a un effectif (ses hommes), une discipline et un moral (les nombres à faire aux dés, avec un dé de 20 : réussis à la valeur ou moins), une valeur de mêlée, une valeur de tir, une portée (en pas, 0 s'il ne tire pas) et une vitesse.",
          "Sur un champ, chaque général commande plusieurs groupes, répartis dans trois couloirs (ouest, centre, est) de 600 pas, le Nord en haut, le Sud en bas. Les groupes commencent à 400 pas les uns des autres.",
          "À chaque tour, tu donnes en secret un ordre à chacun de tes groupes : avancer, approcher à portée (pour les groupes qui tirent : s'arrêter à sa portée de l'ennemi), tenir, reculer, ou passer dans le couloir voisin. Un groupe marche sa vitesse × 25 pas par tour. Les ordres sont révélés ensemble et tous les groupes bougent en même temps ; on s'arrête au contact.",
          "Dès que, dans un couloir, les deux groupes de tête sont au contact ou que l'un peut tirer sur l'autre, ils s'engagent : c'est la bataille d'un contre un qui suit, avec ses décisions. À distance, seul un groupe dont la portée atteint l'ennemi tire : la plus longue portée tire la première, seule. Si les deux tiennent, l'engagement s'arrête jusqu'au tour suivant.",
          "Un groupe qui rompt recule d'une marche ; un groupe poursuivi plus rapide s'échappe hors de portée ; un groupe qui atteint sa forteresse, ou le fleuve derrière son bord, s'y met à l'abri (après le dernier tir des poursuivants). Reculer au-delà de son bord fait quitter le terrain.",
          "Des renforts arrivent à leur bord au tour prévu (l'ennemi ne les voit qu'à leur arrivée) ; la tempête empêche tout tir pendant son tour ; la nuit, les renforts et la tempête mettent fin aux poursuites. La bataille finit quand un camp n'a plus personne sur le terrain, ou à la nuit : le camp qui a le plus d'hommes sur le terrain le tient.",
        ],
      },
      {
        key: "fire", title: "Le tir",
        text: [
          "Chaque tour commence par une séquence de tir si au moins une troupe peut tirer (tir et portée au-dessus de 0). Si une seule le peut, elle tire sans riposte.",
          "Si les deux tirent, les tirs sont simultanés, sauf si une troupe a une portée au moins une fois et demie celle de l'autre : elle tire d'abord, et seuls les survivants ripostent.",
          "Une attaque tue l'effectif de l'attaquant multiplié par sa valeur d'attaque et par un dé de 20, divisé par 400, arrondi en dessous, et jamais plus d'hommes qu'il n'en reste. Exemple : 100 archers (tir 4) tuent de 1 à 20 hommes, 10,5 en moyenne.",
          "Après le tir, chaque troupe teste son moral. Si les deux le ratent, elles se replient et le combat s'arrête. Si une seule le rate, elle rompt et l'autre général décide de la poursuivre ou non. Si les deux le réussissent, les généraux décident.",
        ],
      },
      {
        key: "morale", title: "Le moral",
        text: [
          "Le nombre à faire est le moral de la troupe, plus le bonus de ses armes : +4 si elle ne combat qu'à distance, +1 si elle a des armes de jet et de mêlée, −2 si elle n'a que des armes de mêlée.",
          "On retire 1 par tranche de 10 % de l'effectif que la troupe a perdu dans la séquence. Des lanciers (moral 12, −2) qui perdent un quart de leurs hommes doivent faire 8 ou moins : 40 %.",
          "Une troupe qui rate son moral rompt. La page montre, pour chaque troupe, le nombre à faire et la chance de réussite avant pertes.",
        ],
      },
      {
        key: "stance", mode: "duel", title: "Les ordres : attaquer, tenir, se replier",
        text: [
          "Quand les deux troupes tiennent bon, chaque général donne son ordre en secret ; les deux ordres sont révélés ensemble.",
          "Tenir : la troupe doit réussir un jet de discipline pour rester en place, sinon elle attaque sans en avoir reçu l'ordre.",
          "Les deux attaquent, ou l'un attaque et l'autre tient : mêlée. L'un attaque et l'autre se replie : poursuite. Les deux tiennent : un nouveau tour commence (avec une séquence de tir si quelqu'un peut tirer). Personne n'attaque et une troupe se replie : l'autre garde le terrain ; si les deux se replient, personne ne le garde.",
        ],
      },
      {
        key: "stance", mode: "field", title: "Dans un engagement : attaquer, tenir, se replier",
        text: [
          "Quand les deux groupes engagés tiennent bon, chaque général donne son ordre en secret ; les deux ordres sont révélés ensemble.",
          "Tenir : le groupe doit réussir un jet de discipline pour rester en place, sinon il attaque sans en avoir reçu l'ordre.",
          "Les deux attaquent, ou l'un attaque et l'autre tient : mêlée. L'un attaque et l'autre se replie : poursuite. Les deux tiennent : l'engagement s'arrête jusqu'aux ordres du tour suivant. Personne n'attaque et un groupe se replie : il recule d'une marche, l'autre garde sa position.",
        ],
      },
      {
        key: "melee", mode: "duel", title: "La mêlée",
        text: [
          "En mêlée, les deux troupes frappent en même temps avec leur valeur de mêlée, et les pertes tombent ensemble. Puis chacune teste son moral.",
          "Les deux le ratent : le combat est terminé, personne ne tient le terrain. Une seule le rate : elle rompt, et l'autre peut la poursuivre. Les deux le réussissent : un nouveau tour commence, directement par une mêlée, sans ordres.",
        ],
      },
      {
        key: "melee", mode: "field", title: "La mêlée",
        text: [
          "En mêlée, les deux groupes frappent en même temps avec leur valeur de mêlée, et les pertes tombent ensemble. Puis chacun teste son moral.",
          "Les deux le ratent : les deux reculent d'une marche. Un seul le rate : il rompt, et l'autre peut le poursuivre. Les deux le réussissent : ils restent au contact, ne peuvent que tenir, et la mêlée reprend au début du tour suivant, avant tout autre combat.",
        ],
      },
      {
        key: "pursue", mode: "duel", title: "La poursuite",
        text: [
          "Ne pas poursuivre un ennemi qui rompt demande un jet de discipline réussi ; raté, tes hommes poursuivent quand même.",
          "À chaque séquence de poursuite, les poursuivants frappent d'abord (valeur de mêlée) ; les poursuivis ne ripostent que s'ils réussissent un jet de discipline. Puis les poursuivis tentent de se ressaisir par un jet de moral : réussi, on repasse en mêlée.",
          "La poursuite finit aussi si les poursuivis sont plus rapides ou qu'un abri est à portée (ils s'échappent, et des poursuivants qui tirent ont droit à un dernier tir), ou par un événement (nuit, tempête, renforts) sur un 1 au dé de 20, soit 5 %, si la partie le permet.",
          "Sinon, le général des poursuivants choisit : poursuivre encore, ou s'arrêter, ce qui demande un jet de discipline réussi.",
        ],
      },
      {
        key: "pursue", mode: "field", title: "La poursuite",
        text: [
          "Ne pas poursuivre un ennemi qui rompt demande un jet de discipline réussi ; raté, tes hommes poursuivent quand même. Un groupe qui tire par-dessus ses propres rangs ne poursuit jamais : on ne charge pas à travers ses lignes.",
          "À chaque séquence de poursuite, les poursuivants frappent d'abord (valeur de mêlée) ; les poursuivis ne ripostent que s'ils réussissent un jet de discipline. Puis les poursuivis tentent de se ressaisir par un jet de moral : réussi, on repasse en mêlée.",
          "La poursuite finit aussi si les poursuivis sont plus rapides (ils s'échappent hors de portée) ou atteignent leur forteresse, ou le fleuve derrière leur bord (ils s'y mettent à l'abri) : des poursuivants qui tirent ont alors droit à un dernier tir. La nuit, la tempête et des renforts qui arrivent dans le couloir mettent fin aux poursuites de leur tour.",
          "Sinon, le général des poursuivants choisit : poursuivre encore, ou s'arrêter, ce qui demande un jet de discipline réussi.",
        ],
      },
      {
        key: "end", mode: "duel", title: "Qui gagne",
        text: [
          "Le vainqueur est la troupe qui tient le terrain à la fin. Une troupe tient le terrain quand l'ennemi s'est replié, a été anéanti, a rompu sans être poursuivi, ou s'est échappé d'une poursuite.",
          "Personne ne tient le terrain quand les deux troupes se replient, se retirent ou rompent ensemble en mêlée, ou quand la nuit tombe : après 12 tours de bataille, ou 60 séquences.",
          "La table de bataille de l'accueil joue la même rencontre 10 000 fois (un champ de bataille, 1 000 fois) pour donner les chances de chaque issue.",
        ],
      },
      {
        key: "end", mode: "field", title: "Qui gagne",
        text: [
          "La bataille finit quand un camp n'a plus personne sur le terrain : l'autre le tient.",
          "Sinon, la nuit tombe à la fin du tour prévu par le champ : le camp qui a le plus d'hommes sur le terrain le tient ; à égalité, personne. Les hommes à l'abri sont saufs mais ne comptent pas.",
          "La table de bataille de l'accueil joue le même champ 1 000 fois pour donner les chances de chaque issue.",
        ],
      },
    ],
    choices: [
      "Le texte ne donne ni dés ni nombres : discipline et moral se jouent au dé de 20, réussis à la valeur ou moins.",
      "Pertes d'une attaque : effectif × valeur d'attaque × un dé de 20, divisé par 400, arrondi en dessous, au plus les hommes qui restent.",
      "Moral : −1 par tranche de 10 % de l'effectif perdue dans la séquence ; les bonus d'armes du texte valent pour tous les jets de moral.",
      "Une troupe tire si sa valeur de tir et sa portée sont au-dessus de 0.",
      "Les ordres sont donnés en secret et révélés ensemble.",
      "Si l'un attaque et l'autre tient (et réussit sa discipline), c'est la mêlée : l'attaquant le trouve là où il est.",
      "Personne n'attaque et une troupe se replie : l'autre garde le terrain.",
      "Fin d'une séquence de poursuite, dans l'ordre : ralliement des poursuivis, événement, fuite (plus rapides ou abri), puis choix des poursuivants.",
      "Un événement met fin à une poursuite sur un 1 au dé de 20 (5 %), si la partie le permet ; les poursuivants gardent le terrain.",
      "Une troupe réduite à 0 homme est anéantie.",
    ],
    duelChoices: [
      "La nuit tombe après 12 tours ou 60 séquences : personne ne tient le terrain.",
      "Gagne la troupe qui tient le terrain à la fin ; une troupe anéantie met fin à la bataille.",
    ],
    fieldChoices: [
      "Sur un champ : trois couloirs de 600 pas, les groupes à 400 pas au départ, une marche de vitesse × 25 pas par tour.",
      "Sur un champ, les engagements d'un même tour se livrent l'un après l'autre, d'ouest en est.",
      "Sur un champ, la nuit tombe au tour prévu par le champ (8 par défaut) : le camp qui a le plus d'hommes sur le terrain le tient ; les hommes à l'abri sont saufs mais ne le tiennent pas.",
    ],
  },
  en: {
    title: "Battle",
    tagline: "Two armies manoeuvre on a battlefield; within range, discipline, fire, morale, melee and pursuit are decided by the dice.",
    duration: "5 minutes (one against one) to 30 minutes (on a field)",
    players: "2 players, or against the computer",
    sections: [
      {
        key: "deploy", mode: "duel", title: "The battle and the troops",
        text: [
          "Each general commands one troop: North against South. You move nothing: you give orders at the decision points, and the dice do the rest. Every roll is in the journal with the number it needed.",
          "A troop has a strength (its men), a discipline and a morale (the numbers to roll), a melee value, a missile value, a range (in paces, 0 if it does not shoot) and a speed.",
          "Discipline and morale rolls use a 20-sided die: they pass on a roll at or under the value. A discipline of 12 passes 12 times out of 20, that is 60 %.",
          "Setting up: confirm that your troop is in position. The battle begins when both generals have.",
        ],
      },
      {
        key: "field", mode: "field", title: "On a battlefield",
        text: [
          "Each general commands an army: North against South. Each turn you give each of your groups an order; when two groups come within range they engage, you decide at the decision points and the dice do the rest. Every roll is in the journal with the number it needed.",
          "A group has a strength (its men), a discipline and a morale (the numbers to roll, on a 20-sided die: passed at or under the value), a melee value, a missile value, a range (in paces, 0 if it does not shoot) and a speed.",
          "On a field each general commands several groups, set out in three lanes (west, centre, east) 600 paces deep, the North at the top, the South at the bottom. The groups start 400 paces apart.",
          "Each turn you give each of your groups an order, in secret: advance, close to range (for groups that shoot: stop at their range from the enemy), hold, draw back, or shift into the next lane. A group marches its speed × 25 paces a turn. The orders are revealed together and every group moves at once; an advance stops at contact.",
          "As soon as, in a lane, the two front groups are in contact or one can shoot at the other, they engage: what follows is the one-against-one battle, with its decisions. At a distance only a group whose range reaches the enemy shoots: the longer range shoots first, alone. If both hold, the engagement stops until the next turn.",
          "A group that breaks falls back one march; a pursued group that is faster gets out of range; a group that reaches its fortress, or the river behind its edge, is safe there (after the pursuers' last fire). Drawing back past your own edge takes a group off the field.",
          "Reinforcements arrive at their edge on their turn (the enemy sees them only then); the storm stops every bow for its turn; night, reinforcements and the storm end pursuits. The battle ends when a side has nobody left on the field, or at night: the side with more men on the field holds it.",
        ],
      },
      {
        key: "fire", title: "Fire",
        text: [
          "Each turn opens with a fire sequence if at least one troop can shoot (missile value and range above 0). If only one can, it shoots with no reply.",
          "If both can, they shoot at once, unless one has a range at least half as long again as the other's: it shoots first, and only the survivors reply.",
          "An attack kills the attacker's strength times its attack value times a 20-sided die, divided by 400, rounded down, and never more men than are left. For example, 100 archers (missile 4) kill 1 to 20 men, 10.5 on average.",
          "After the fire, each troop tests its morale. If both fail, they fall back and the fight ends. If one fails, it breaks and the other general decides whether to pursue. If both pass, the generals give their orders.",
        ],
      },
      {
        key: "morale", title: "Morale",
        text: [
          "The number to roll is the troop's morale plus its weapons' bonus: +4 if it fights only at a distance, +1 if it has missile and melee weapons, −2 if it has melee weapons only.",
          "Take 1 off for every 10 % of its strength the troop lost in the sequence. Spearmen (morale 12, −2) who lose a quarter of their men need 8 or less: 40 %.",
          "A troop that fails its morale breaks. The page shows, for each troop, the number to roll and its chance before losses.",
        ],
      },
      {
        key: "stance", mode: "duel", title: "Orders: attack, hold, withdraw",
        text: [
          "When both troops stand firm, each general gives an order in secret; both orders are revealed together.",
          "Hold: the troop must pass a discipline roll to stay where it is, or it attacks without orders.",
          "Both attack, or one attacks and the other holds: melee. One attacks and the other withdraws: pursuit. Both hold: a new turn begins (with fire if anyone can shoot). Nobody attacks and one troop withdraws: the other keeps the field; if both withdraw, nobody holds it.",
        ],
      },
      {
        key: "stance", mode: "field", title: "In an engagement: attack, hold, withdraw",
        text: [
          "When both engaged groups stand firm, each general gives an order in secret; both orders are revealed together.",
          "Hold: the group must pass a discipline roll to stay where it is, or it attacks without orders.",
          "Both attack, or one attacks and the other holds: melee. One attacks and the other withdraws: pursuit. Both hold: the engagement stops until next turn's orders. Nobody attacks and one group withdraws: it falls back one march, the other keeps its ground.",
        ],
      },
      {
        key: "melee", mode: "duel", title: "Melee",
        text: [
          "In melee both troops strike at once with their melee value, and the losses fall together. Then each tests its morale.",
          "Both fail: the fight is over and nobody holds the field. One fails: it breaks, and the other may pursue. Both pass: a new turn begins, straight into melee, with no orders.",
        ],
      },
      {
        key: "melee", mode: "field", title: "Melee",
        text: [
          "In melee both groups strike at once with their melee value, and the losses fall together. Then each tests its morale.",
          "Both fail: both fall back one march. One fails: it breaks, and the other may pursue. Both pass: they stay in contact, may only hold, and the melee goes on at the start of the next turn, before any other fight.",
        ],
      },
      {
        key: "pursue", mode: "duel", title: "Pursuit",
        text: [
          "Not pursuing an enemy that breaks takes a passed discipline roll; failed, your men pursue anyway.",
          "In each pursuit sequence the pursuers strike first (melee value); the pursued strike back only on a passed discipline roll. Then the pursued try to rally with a morale roll: passed, the fight goes back to melee.",
          "The pursuit also ends if the pursued are faster or shelter is at hand (they get away, and pursuers that can shoot fire once more), or with an event (night, storm, reinforcements) on a 1 on the 20-sided die, that is 5 %, when the game allows it.",
          "Otherwise the pursuers' general chooses: pursue again, or stop, which takes a passed discipline roll.",
        ],
      },
      {
        key: "pursue", mode: "field", title: "Pursuit",
        text: [
          "Not pursuing an enemy that breaks takes a passed discipline roll; failed, your men pursue anyway. A group shooting over its own ranks never pursues: nobody charges through their own lines.",
          "In each pursuit sequence the pursuers strike first (melee value); the pursued strike back only on a passed discipline roll. Then the pursued try to rally with a morale roll: passed, the fight goes back to melee.",
          "The pursuit also ends if the pursued are faster (they get out of range) or reach their fortress, or the river behind their edge (they are safe there): pursuers that can shoot then fire once more. Night, the storm and reinforcements arriving in the lane end the pursuits of their turn.",
          "Otherwise the pursuers' general chooses: pursue again, or stop, which takes a passed discipline roll.",
        ],
      },
      {
        key: "end", mode: "duel", title: "Who wins",
        text: [
          "The winner is the troop that holds the field at the end. A troop holds the field when the enemy withdrew, was wiped out, broke and was not pursued, or got away from a pursuit.",
          "Nobody holds the field when both troops fall back, withdraw or break together in melee, or when night falls: after 12 battle turns, or 60 sequences.",
          "The battle table of the home page plays the same match-up 10,000 times (a battlefield, 1,000 times) to give the odds of each outcome.",
        ],
      },
      {
        key: "end", mode: "field", title: "Who wins",
        text: [
          "The battle ends when a side has nobody left on the field: the other holds it.",
          "Otherwise night falls at the end of the field's set turn: the side with more men on the field holds it; equal, nobody. Men in shelter are safe but do not count.",
          "The battle table of the home page plays the same field 1,000 times to give the odds of each outcome.",
        ],
      },
    ],
    choices: [
      "The text gives no dice and no numbers: discipline and morale use a 20-sided die, passed at or under the value.",
      "Losses of an attack: strength × attack value × a 20-sided die, divided by 400, rounded down, at most the men left.",
      "Morale: −1 for every 10 % of strength lost in the sequence; the text's weapon bonuses apply to every morale roll.",
      "A troop shoots if its missile value and range are above 0.",
      "Orders are given in secret and revealed together.",
      "If one attacks and the other holds (and passes its discipline), it is melee: the attacker meets it where it stands.",
      "Nobody attacks and one troop withdraws: the other keeps the field.",
      "End of a pursuit sequence, in order: the pursued's rally, the event, the escape (faster or shelter), then the pursuers' choice.",
      "An event ends a pursuit on a 1 on the 20-sided die (5 %) when the game allows it; the pursuers keep the field.",
      "A troop down to 0 men is wiped out.",
    ],
    duelChoices: [
      "Night falls after 12 turns or 60 sequences: nobody holds the field.",
      "The troop holding the field at the end wins; a troop wiped out ends the battle.",
    ],
    fieldChoices: [
      "On a field: three lanes 600 paces deep, groups 400 paces apart at the start, a march of speed × 25 paces a turn.",
      "On a field, the engagements of one turn are fought one after the other, west to east.",
      "On a field, night falls on the field's set turn (8 by default): the side with more men on the field holds it; men in shelter are safe but do not hold it.",
    ],
  },
};

// The sections that apply to the battle shown (issue 59: on a field, the panel opened on the one-against-one
// text, « Tu ne déplaces rien », a night where nobody holds the field): a one-against-one battle's, or a
// field's; the sections for both have no mode.
export function textFor(text, view) {
  const field = view?.mode === "field";
  const mode = field ? "field" : "duel";
  return { ...text, sections: text.sections.filter((section) => !section.mode || section.mode === mode),
    choices: [...text.choices, ...(field ? text.fieldChoices : text.duelChoices)] };
}

// The section to open first: what this seat may do in the phase shown.
export function phaseKey(view) {
  if (!view || view.result || view.phase === "over") return "end";
  return { deploy: "deploy", orders: "field", stance: "stance", pursue: "pursue", continue: "pursue" }[view.phase] ?? "deploy";
}
