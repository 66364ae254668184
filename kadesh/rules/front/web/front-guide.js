// Front, for players: what the game is, what you may do now, how fights are decided, how to win.
// The game page shows it in its rules panel, the lobby shows the title, tagline, length and picture.
// The numbers are those of kadesh/rules/front/units.toml, terrain.toml and time.toml.

export const GUIDE = {
  fr: {
    title: "Front",
    tagline: "Guerre moderne interarmes : points d'action, carburant, munitions, brouillard, mines, drones, hélicoptères et missions.",
    duration: "20 minutes (l'escarmouche du gué) à 2 heures",
    players: "2 joueurs, ou contre l'ordinateur",
    sections: [
      {
        key: "orders", title: "Ton tour : les points d'action",
        text: [
          "Bleu joue d'abord. Chaque camp donne tous les ordres qu'il veut à ses unités, puis passe la main (Fin du tour, ou la touche Tab).",
          "Chaque unité reçoit ses points d'action (PA) au début de ton tour : 8 pour l'infanterie, 10 pour le char lourd, 14 pour les camions. Ils paient les pas, les tirs (un tir coûte la moitié des PA de l'unité) et les autres ordres : monter dans un camion ou décharger 2, ravitailler 2, se mettre en alerte 2, construire, déblayer, déminer ou poser une mine 4.",
          "Clique une de tes unités (ou amènes-y le curseur avec les flèches, puis Entrée) : les cases où elle peut aller s'éclairent, les cibles qu'elle peut toucher sont cerclées de rouge. Pointe une case pour voir le chemin et son coût en PA et en carburant, une cible pour voir les dégâts attendus et la chance de la détruire ; clique une seconde fois (ou Entrée) pour ordonner, Échap pour reprendre. Ses autres ordres sont des boutons, chacun avec son coût, à côté de la carte.",
        ],
      },
      {
        key: "move", title: "Se déplacer",
        text: [
          "Un pas coûte selon le terrain : route et pont 1 ; prairie 2 à pied, 3 en véhicule à roues ; forêt et colline 3 à pied ; marécage 4 à pied, interdit aux roues. L'eau ne se passe qu'au pont, et seules les troupes à pied entrent dans un village en ruine.",
          "Un véhicule brûle 1 de carburant par case de route, 2 ailleurs. Une unité réduite à la moitié de ses points de vie paie chaque pas double.",
          "Un camion emporte deux petites unités ou une moyenne, et remorque un canon. Une unité à bord ne tire pas et ne peut pas être touchée.",
        ],
      },
      {
        key: "fire", title: "Tirer",
        text: [
          "Une unité tire une fois par tour, deux au contact d'un ravitailleur ou à 5 cases de son général ; le char lourd, l'hélicoptère d'attaque, la batterie anti-aérienne et le général tirent deux fois, une arme par tir. Chaque tir coûte une munition.",
          "Après un déplacement, la portée tombe de moitié ; le lance-roquettes et le sniper ne tirent qu'à l'arrêt. Une unité, une forêt ou une colline sur le trajet arrête un tir tendu ; le mortier et le canon tirent par-dessus tout.",
          "Les dégâts dépendent de l'arme et de la taille de la cible (petite, moyenne, grande). Chaque point de couvert (forêt, colline, ruine, épave, ouvrage) en retire 15 %, jusqu'à 4 points, et le général proche en ajoute un ; un peu de chance ajoute de 0 à 10 %.",
          "Une unité en alerte garde un tir pour le tour adverse et tire sur le premier ennemi qui bouge à sa portée. Une unité en patrouille surveille 2 cases autour d'elle et tire à la fin du tour adverse.",
        ],
      },
      {
        key: "air", title: "La guerre aérienne",
        text: [
          "Un droniste emporte 2 drones. Il en fait décoller un au-dessus de sa case ou d'une case voisine (2 PA) ; le drone revient se poser près de lui (1 PA). En vol, un drone paie 1 PA par case, par-dessus tout, mais reste à 8 cases de son droniste, 12 avec un drone de surveillance en l'air ou à 8 cases d'une tour de garde achevée : plus loin, il s'écrase.",
          "Sa batterie dure 6 tours (surveillance), 5 (bombardier) ou 4 (kamikaze) ; posé près du droniste, il en regagne 3 par tour, et le bombardier retrouve ses 2 bombes. Le bombardier frappe le sol sous lui ou à côté ; le kamikaze fonce sur une unité au sol ou un hélicoptère en vol, et y reste. Un drone voit de nuit, par tous les temps, et perce le camouflage.",
          "Un hélicoptère vole par-dessus tout, 2 PA par case, et brûle 2 de carburant (12 au plein) à chaque tour en vol, même immobile. Se poser (2 PA) sur une prairie, une terre brûlée ou la plateforme de son héliport : posé, il ne consomme rien et ne tire pas ; il redécolle en bougeant, et ne se ravitaille que posé, près d'un ravitailleur, d'un stockage ou sur sa plateforme. Posé, l'hélicoptère de transport prend à bord 2 petites unités ou une moyenne.",
          "Infanterie, lance-roquettes, sniper, éclaireur, char lourd et batterie anti-aérienne abattent un drone d'un tir ; le brouilleur (4 PA, une fois par tour) détruit tous les drones ennemis à 6 cases. En vol, un hélicoptère ne craint que le lance-roquettes, la roquette du char lourd, la batterie anti-aérienne, les drones kamikazes et l'hélicoptère d'attaque ; posé, tout tir le touche, sauf ceux du sniper et de la batterie anti-aérienne, qui ne vise jamais le sol. Feu, mines, obus et bombes ne touchent pas un appareil en vol.",
          "Un appareil abattu ou à sec s'écrase avec sa cargaison jusqu'à 1 case plus loin (drone) ou 2 (hélicoptère) et fait 1 dégât à ce qui s'y trouve. Sur la carte, un appareil en vol est une pastille dans le coin de sa case, au-dessus de l'unité au sol : clique-la pour le choisir, ou pour tirer dessus.",
        ],
      },
      {
        key: "fog", title: "Le brouillard de guerre",
        text: [
          "Tu ne vois que ce que voient tes unités et tes bâtiments, à 10 cases au plus. La nuit retire 2 cases de vue, l'aube et le crépuscule 1, la pluie d'automne et la neige d'hiver encore 1.",
          "Le couvert cache une unité, d'autant mieux qu'elle est petite. Les mines ennemies restent invisibles : un ingénieur les repère à 2 cases. Le terrain que tu ne vois plus reste tel que tu l'as vu.",
        ],
      },
      {
        key: "victory", title: "Gagner",
        text: [
          "Sans mission : détruire toutes les unités adverses, ou tenir {points_to_win} des {points} points de victoire de la bataille. Seul un ingénieur prend un point : posté dessus, il le prend au bout de 2 fins de tour de son camp, sans ennemi à 4 cases.",
          "Une mission fixe ses propres objectifs, écrits au-dessus de la carte : tenir des cases jusqu'à un tour donné, faire sortir un convoi, abattre un général. Un camp qui n'a plus aucune unité perd toujours.",
          "Tu peux abandonner à tout moment, même pendant le tour adverse (Abandonner, puis confirmer) : l'autre camp l'emporte alors.",
        ],
      },
    ],
    choices: [
      "Une unité ne traverse jamais la case d'une unité qu'elle connaît ; le chemin pris est le moins cher en points d'action.",
      "Dégâts selon la taille de la cible, que les valeurs de départ laissaient ouverts : par exemple infanterie 4, 3 ou 2 ; char lourd 5, 6 ou 7.",
      "Un tir en coûte la moitié des points d'action de l'unité ; chaque point de couvert retire 15 % des dégâts, 4 points au plus ; la chance ajoute 0 à 10 %.",
      "Une forêt en feu fait perdre 2 points de vie à chaque fin de tour à l'unité qui y reste.",
      "Une mine fait 3 dégâts et disparaît ; un ingénieur porte 3 mines.",
      "La vue est un rayon autour de l'unité, sans ligne de vue : le texte ne parle que de distance et de couvert.",
      "Les ordres se jugent sur ce que le camp sait : une unité qui se heurte à un ennemi caché s'arrête juste avant, un tir arrêté par une unité cachée est perdu.",
      "Une unité à bord d'un camion ne voit pas, ne tire pas et ne peut pas être touchée.",
      "En alerte, c'est le dernier ordre de l'unité pour son tour ; une patrouille tire à la fin du tour adverse, pas du sien.",
      "La batterie anti-aérienne ne tire jamais sur une unité au sol ; la mitrailleuse et les roquettes de l'hélicoptère d'attaque touchent le sol et les hélicoptères en vol, pas les drones.",
      "Un drone posé rentre dans le paquetage de son droniste, hors de la carte, et le suit ; un drone dont le droniste tombe, ou s'éloigne trop, s'écrase aussitôt.",
    ],
  },
  en: {
    title: "Front",
    tagline: "Modern combined arms: action points, fuel, ammunition, fog of war, mines, drones, helicopters and missions.",
    duration: "20 minutes (the skirmish at the ford) to 2 hours",
    players: "2 players, or against the computer",
    sections: [
      {
        key: "orders", title: "Your turn: action points",
        text: [
          "Blue plays first. Each side gives all the orders it wants to its units, then hands over (End turn, or the Tab key).",
          "Each unit gets its action points (AP) at the start of your turn: 8 for infantry, 10 for the heavy tank, 14 for trucks. They pay for steps, shots (a shot costs half the unit's AP) and the other orders: boarding or unloading 2, resupplying 2, going on alert 2, building, clearing, demining or laying a mine 4.",
          "Click one of your units (or bring the cursor to it with the arrow keys, then Enter): the cells it can reach light up, the targets it can hit are ringed in red. Point at a cell to see the way and its cost in AP and fuel, at a target to see the expected damage and the chance of destroying it; click a second time (or Enter) to give the order, Escape to take it back. Its other orders are buttons, each with its cost, beside the map.",
        ],
      },
      {
        key: "move", title: "Moving",
        text: [
          "A step costs by terrain: road and bridge 1; meadow 2 on foot, 3 on wheels; forest and hill 3 on foot; swamp 4 on foot, closed to wheels. Water is crossed only at a bridge, and only foot troops enter a ruined village.",
          "A vehicle burns 1 fuel per road cell, 2 elsewhere. A unit down to half its hit points pays every step double.",
          "A truck carries two small units or one medium one, and tows a cannon. A unit aboard does not shoot and cannot be hit.",
        ],
      },
      {
        key: "fire", title: "Firing",
        text: [
          "A unit fires once a turn, twice beside a supply truck or within 5 cells of its general; the heavy tank, the attack helicopter, the AA battery and the general fire twice, one weapon a shot. Each shot costs a round.",
          "After a move the range is halved; the rocket launcher and the sniper fire only when still. A unit, a forest or a hill in the way stops a direct shot; the mortar and the cannon fire over everything.",
          "Damage depends on the weapon and the target's size (small, medium, large). Each cover point (forest, hill, ruins, wreck, work) takes 15 % off, up to 4 points, and a general nearby adds one; a little luck adds 0 to 10 %.",
          "A unit on alert keeps a shot for the enemy's turn and fires at the first enemy moving within its range. A unit on patrol watches 2 cells around it and fires at the end of the enemy's turn.",
        ],
      },
      {
        key: "air", title: "The air war",
        text: [
          "A drone operator carries 2 drones. It sends one up over its cell or a neighbouring one (2 AP); the drone comes back down beside it (1 AP). In flight a drone pays 1 AP a cell, over everything, but stays within 8 cells of its operator, 12 with a surveillance drone in the air or within 8 cells of a finished watchtower: any further and it crashes.",
          "Its battery lasts 6 turns (surveillance), 5 (bomb) or 4 (kamikaze); landed by its operator it gains 3 back a turn, and the bomb drone gets its 2 bombs back. The bomb drone hits the ground under it or next to it; the kamikaze dives onto a unit on the ground or a helicopter in flight, and is spent. A drone sees at night, in any weather, and through camouflage.",
          "A helicopter flies over everything, 2 AP a cell, and burns 2 fuel (12 when full) every turn in flight, even standing still. Land (2 AP) on meadow, burnt ground or its heliport's pad: landed it burns nothing and does not fire; it takes off by moving, and refuels only landed, beside a supply truck or a storage depot or on its pad. Landed, the transport helicopter takes on 2 small units or one medium one.",
          "Infantry, rocket launchers, snipers, scouts, heavy tanks and AA batteries bring a drone down with one shot; the jammer (4 AP, once a turn) destroys every enemy drone within 6 cells. In flight a helicopter fears only the rocket launcher, the heavy tank's rocket, the AA battery, kamikaze drones and the attack helicopter; landed, any shot hits it but the sniper's and the AA battery's, which never aims at the ground. Fire, mines, shells and bombs never touch an aircraft in flight.",
          "An aircraft shot down or out of fuel crashes with its cargo up to 1 cell away (drone) or 2 (helicopter) and deals 1 damage to whatever is there. On the map an aircraft in flight is a badge in its cell's corner, above the unit on the ground: click it to pick it, or to fire at it.",
        ],
      },
      {
        key: "fog", title: "Fog of war",
        text: [
          "You see only what your units and buildings see, 10 cells at most. Night takes 2 cells of sight off, dawn and dusk 1, autumn rain and winter snow 1 more.",
          "Cover hides a unit, the better the smaller it is. Enemy mines stay invisible: an engineer spots them at 2 cells. Ground you no longer see stays as you last saw it.",
        ],
      },
      {
        key: "victory", title: "Winning",
        text: [
          "Without a mission: destroy every enemy unit, or hold {points_to_win} of the battle's {points} victory points. Only an engineer takes a point: posted on it, it takes it after 2 ends of its side's turn with no enemy within 4 cells.",
          "A mission sets its own objectives, written above the map: hold cells until a given turn, get a convoy out, bring down a general. A side with no unit left always loses.",
          "You may resign at any time, even during the other side's turn (Resign, then confirm): the other side then wins.",
        ],
      },
    ],
    choices: [
      "A unit never crosses the cell of a unit it knows of; the way it takes is the cheapest in action points.",
      "Damage by target size, which the starting values left open: for example infantry 4, 3 or 2; heavy tank 5, 6 or 7.",
      "A shot costs half the unit's action points; each cover point takes 15 % off the damage, 4 points at most; luck adds 0 to 10 %.",
      "A burning forest takes 2 hit points off a unit staying in it at each end of its turn.",
      "A mine deals 3 damage and is gone; an engineer carries 3 mines.",
      "Sight is a radius around the unit, with no line of sight: the text speaks only of distance and cover.",
      "Orders are judged on what the side knows: a unit that runs into a hidden enemy stops just short of it, a shot stopped by a hidden unit is spent.",
      "A unit aboard a truck does not see, does not shoot and cannot be hit.",
      "Alert is the unit's last order of its turn; a patrol fires at the end of the enemy's turn, not its own.",
      "The AA battery never fires at units on the ground; the attack helicopter's machine gun and rockets hit the ground and helicopters in flight, not drones.",
      "A drone lands in its operator's kit, off the map, and follows it; a drone whose operator falls, or goes beyond its reach, crashes at once.",
    ],
  },
};

// The section to open first: the mission at the start of a battle, then what a turn allows.
export function phaseKey(view) {
  if (view?.victory?.objectives?.length && (view.turn ?? 1) <= 1) return "victory";
  return "orders";
}

// The numbers of the battle on the page, for the guide's « {points_to_win} des {points} » (each battle its own).
export function fill(view) {
  if (!view?.victory) return {};
  return { points_to_win: String(view.victory.points_to_win), points: String(Object.keys(view.points ?? {}).length) };
}
