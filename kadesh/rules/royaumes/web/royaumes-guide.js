// Royaumes, for players: what the game is, what you may do now, how fights are decided, how to win.
// The game page shows it in its rules panel, the lobby shows the title, tagline, length and picture.
// The numbers are those of kadesh/rules/royaumes/rules.toml and of the scenario « Le Nil des quatre
// royaumes » (scenarios/nil.toml); the choices are docs/rules/royaumes.md's.

export const GUIDE = {
  fr: {
    title: "Royaumes",
    tagline: "Quatre royaumes du Nil écrivent leurs ordres en secret ; Imhotep, l'arbitre, les exécute ensemble.",
    duration: "plusieurs semaines, un tour par jour ou par semaine",
    players: "4 royaumes et un maître du jeu",
    sections: [
      { key: "orders", title: "Écrire les ordres du tour", text: [
        "Chaque tour, le Chef militaire de ton royaume envoie à Imhotep un seul message d'ordres, décidé avec le Seigneur du royaume. Seul le premier message compte : relis-le avant de l'envoyer.",
        "Déplacements : une armée avance d'une case par tour, dans les huit directions, sur la terre. Une diagonale demande de la terre sur l'une des deux cases qu'elle coupe. Le Nil n'arrête personne ; la mer, les lacs et la Mer Rouge, si. Sur la carte, clique une de tes armées puis une case en surbrillance (un clic par armée) ; ou écris « H17 -> I16 », « 2 x H6 -> H7 ».",
        "Précise les armées qui restent (« G19 reste ») : une armée sans ordre clair ne bouge pas, et le rapport le signale.",
        "Rappelle tes relations : guerre, paix ou alliance envers chaque royaume. Tu peux aussi créer une armée (100 or, une par tour, dans l'une de tes cités ; ce tour-là, ni bâtiment ni fête, et la nouvelle armée ne bouge qu'au tour suivant), agrandir la Guilde des Constructeurs (150 or et 100 pierre) et payer des espions (50 or chacun).",
        "Avant d'envoyer, la page te montre l'ordre tel qu'Imhotep le lira, et te prévient de ce qui ne se fera pas (plus d'armées demandées qu'il n'y en a, une case d'eau…). Ton brouillon reste dans ce navigateur jusqu'à l'envoi.",
      ] },
      { key: "waiting", title: "Ordres envoyés : le jugement d'Imhotep", text: [
        "Quand le dernier royaume a envoyé ses ordres, ou à l'échéance fixée par Imhotep, le tour est jugé d'un bloc : d'abord les relations, puis, royaume par royaume dans l'ordre d'arrivée des messages, les armées levées, la Guilde et les espions ; ensuite tous les mouvements à la fois ; puis les batailles, case par case ; enfin le tribut.",
        "Les armées qui se croisent en chemin ne se battent pas : seules se battent celles qui finissent sur la même case. Le rapport du tour dit à chacun ce qu'il peut savoir ; la carte de chaque étape du tour se rejoue sous la carte.",
      ] },
      { key: "battles", title: "Batailles et sièges", text: [
        "Deux royaumes en guerre sur la même case se battent. Chacun fait son total : niveau militaire × nombre d'armées. Le plus faible total perd toutes ses armées. À totaux égaux, toutes les armées périssent.",
        "Le vainqueur perd une part de ses armées à la mesure de la résistance : ses armées × total du vaincu ÷ son total, arrondi en dessous, et il en garde toujours au moins une. Exemple : 3 armées de niveau 2 (total 6) battent 1 armée de niveau 2 (total 2) et perdent 1 armée.",
        "Une cité défendue par au moins une armée ajoute 2 au total de ses défenseurs, plus 1 par niveau de la Guilde des Constructeurs. Une cité sans défenseur est prise par l'assaillant. À trois ou plus, les deux premiers arrivés (par l'ordre des messages) se battent d'abord, puis les survivants.",
        "Tu ne connais pas le niveau militaire de tes ennemis, sauf à payer un espion : il te donne ce niveau au tour de sa mission ; pour le connaître à nouveau, il faut payer de nouveau. Niveaux de départ : Basse-Égypte 3, Haute-Égypte 3, Koush 2, Libye 2.",
      ] },
      { key: "cities", title: "Cités, occupation et tribut", text: [
        "Une cité prise est convertie (elle devient tienne) ou détruite, à ton choix, tour par tour. Un royaume tient 4 cités au plus : au-delà, la cité prise est détruite, sauf si ton allié a une armée sur place et moins de 4 cités.",
        "La cité initiale d'un royaume (marquée d'un carré d'or) n'est jamais détruite : ses défenseurs vaincus, elle est occupée. L'occupant en guerre qui y reste reçoit chaque tour un tribut : population du royaume occupé ÷ 10 × armées qui y restent, en or d'abord, puis dans la ressource que le payeur choisit (« tribut: blé »).",
        "Une cité occupée peut encore lever une armée : elle attaque aussitôt les occupants, avec la défense de la cité plus 2.",
      ] },
      { key: "diplomacy", title: "Guerre, paix et alliances", text: [
        "La guerre se déclare seule : si l'un des deux la déclare, les deux royaumes sont en guerre. La paix se fait à deux. Une alliance est proposée, et conclue quand l'autre la propose aussi ; un royaume a un allié au plus.",
        "Un allié peut défendre ta cité : il se bat le premier, avec son niveau et la défense de ta cité. Si le rapport de force devient trop injuste, Imhotep peut suspendre une alliance un temps.",
        "Les royaumes se parlent dans les Messages, sous le journal : à toute la table, en privé à un royaume, à Imhotep. Une offre d'alliance faite dans un message devient une ligne de tes prochains ordres : elle ne part qu'avec eux.",
        "Un royaume peut avoir deux joueurs : le Seigneur du Royaume décide des mouvements avec le Chef militaire au Conseil, et lui prépare un brouillon d'ordres ; seul le Chef militaire les envoie à Imhotep.",
      ] },
      { key: "winning", title: "Gagner", text: [
        "Il n'y a pas de victoire automatique : la campagne dure tant qu'Imhotep le veut, et c'est lui qui la clôt, en nommant un vainqueur s'il y en a un. Tenir ses cités, en prendre, occuper la cité initiale d'un ennemi pour en tirer tribut, choisir le bon allié : c'est ainsi qu'un royaume pèse.",
      ] },
      { key: "console", title: "Imhotep, le maître du jeu", text: [
        "Imhotep voit tout : les chiffres secrets de chaque royaume et les ordres reçus. Il juge le tour quand il le décide (les ordres manquants comptent pour rien), fixe l'échéance du tour, suspend ou rétablit une alliance.",
        "Il tient aussi l'économie hors des règles militaires (bâtiments, fêtes, progrès du niveau militaire) : il modifie niveau, population, Guilde et ressources d'un royaume. Il est le seul juge des batailles : il peut trancher un résultat (armées sur une case, sort d'une cité, jamais la destruction d'une cité initiale), avec une raison écrite au journal. Il clôt la campagne.",
      ] },
      { key: "over", title: "Fin de la campagne", text: [
        "Imhotep a clos la campagne. Le journal garde chaque tour ; la carte de chaque tour passé se rejoue sous la carte.",
      ] },
    ],
    choices: [
      "Un message mal formé est refusé et ne compte pas comme premier message ; un message lisible mais obscur est accepté, et chaque ligne non comprise est expliquée.",
      "Demander plus d'armées qu'il n'y en a fait partir celles qui sont là ; la page le signale avant l'envoi.",
      "La guerre se déclare seule ; l'alliance demande que les deux la déclarent, et la guerre l'emporte sur elle.",
      "Une relation non rappelée garde sa dernière valeur (la paix au départ) ; le rapport dit chaque changement.",
      "Un second allié est refusé, le premier gardé ; la paix et la guerre sont lues avant les alliances.",
      "Des armées qui se croisent ne se battent pas.",
      "Imhotep ne lit pas les messages entre royaumes ni leurs conseils, sauf si la campagne le prévoit ; on peut toujours lui écrire.",
      "Les pertes du vainqueur : ses armées × total du vaincu ÷ son total, arrondi en dessous (le tableau manque au texte) ; les armées perdues sont les plus récentes.",
      "Un allié défend la cité de son allié en premier, même sans avoir déclaré la guerre à l'assaillant ; plusieurs assaillants en paix entre eux attaquent l'un après l'autre, dans l'ordre d'arrivée.",
      "À 4 cités, une cité sauvée par l'allié du vainqueur va à cet allié s'il en a moins de 4, sinon elle est détruite.",
      "Le tribut se paie pour les armées qui restent sur la cité initiale d'un tour à l'autre, seulement à un occupant en guerre ; ce qui ne peut être payé ne l'est pas.",
      "Convertir ou détruire se choisit à chaque tour (convertir par défaut) ; la ressource du tribut reste choisie jusqu'à nouvel ordre.",
      "La Guilde grandit d'un niveau par tour au plus ; chaque niveau ajoute 1 à la défense des cités.",
      "Les coûts se paient au jugement du tour ; ce qui ne peut être payé n'est pas fait, et le rapport le dit.",
      "Un rapport d'espion donne le niveau du tour de sa mission, jamais mis à jour.",
      "Chacun lit son propre total de bataille, pas celui de l'ennemi ; tous voient qui s'est battu, les pertes et le vainqueur.",
      "Le Nil est dessiné sur la carte mais n'arrête pas les armées : seules la mer et les lacs sont de l'eau.",
      "Il n'y a pas de dé dans Royaumes ; la campagne ne finit que quand Imhotep la clôt.",
    ],
  },
  en: {
    title: "Kingdoms",
    tagline: "Four Nile kingdoms write their orders in secret; Imhotep, the referee, carries them out together.",
    duration: "several weeks, one turn a day or a week",
    players: "4 kingdoms and a game master",
    sections: [
      { key: "orders", title: "Writing the turn's orders", text: [
        "Each turn, your kingdom's military chief sends Imhotep a single order message, decided with the kingdom's Lord. Only the first message counts: read it again before sending it.",
        "Moves: an army goes one cell a turn, in any of the eight directions, over land. A diagonal needs land on one of the two cells it cuts between. The Nile stops nobody; the sea, the lakes and the Red Sea do. On the map, click one of your armies then a highlighted cell (one click per army); or write 'H17 -> I16', '2 x H6 -> H7'.",
        "Say which armies stay ('G19 stays'): an army without a clear order does not move, and the report says so.",
        "Restate your relations: war, peace or alliance towards each kingdom. You may also raise an army (100 gold, one a turn, in one of your cities; that turn, no building and no feast, and the new army moves only next turn), enlarge the Builders' Guild (150 gold and 100 stone) and pay spies (50 gold each).",
        "Before sending, the page shows the order as Imhotep will read it, and warns you of what will not happen (more armies asked than there are, a water cell…). Your draft stays in this browser until you send it.",
      ] },
      { key: "waiting", title: "Orders sent: Imhotep's ruling", text: [
        "When the last kingdom has sent its orders, or at the deadline Imhotep set, the turn is adjudicated at once: relations first; then, kingdom by kingdom in the order the messages arrived, armies raised, the Guild and spies; then every move at the same time; then the battles, cell by cell; then tribute.",
        "Armies that cross on the way do not fight: only those that end on the same cell do. The turn's report tells each what it may know; each stage of the turn can be stepped through under the map.",
      ] },
      { key: "battles", title: "Battles and sieges", text: [
        "Two kingdoms at war on the same cell fight. Each makes its total: military level × number of armies. The lower total loses all its armies. With equal totals, every army perishes.",
        "The winner loses a share of its armies in proportion to the resistance: its armies × the loser's total ÷ its own total, rounded down, and it always keeps at least one. Example: 3 armies of level 2 (total 6) beat 1 army of level 2 (total 2) and lose 1 army.",
        "A city defended by at least one army adds 2 to its defenders' total, plus 1 per level of the Builders' Guild. A city without defenders is taken by the attacker. With three or more, the first two to arrive (by the order of the messages) fight first, then the survivors.",
        "You do not know your enemies' military level unless you pay a spy: it tells you the level as of its turn; to know it again, pay again. Starting levels: Lower Egypt 3, Upper Egypt 3, Kush 2, Libya 2.",
      ] },
      { key: "cities", title: "Cities, occupation and tribute", text: [
        "A city taken is converted (it becomes yours) or destroyed, as you choose, turn by turn. A kingdom holds 4 cities at most: beyond that, the city taken is destroyed, unless your ally has an army there and fewer than 4 cities.",
        "A kingdom's initial city (marked with a gold square) is never destroyed: once its defenders are beaten, it is occupied. An occupier at war that stays there receives tribute every turn: the occupied kingdom's population ÷ 10 × the armies that stay, in gold first, then in the resource the payer chooses ('tribute: wheat').",
        "An occupied city may still raise an army: it attacks the occupiers at once, with the city's defence plus 2.",
      ] },
      { key: "diplomacy", title: "War, peace and alliances", text: [
        "War is declared alone: if either declares it, both kingdoms are at war. Peace takes both. An alliance is proposed, and sealed when the other proposes it too; a kingdom has one ally at most.",
        "An ally may defend your city: it fights first, with its own level and your city's defence. If the balance of forces becomes too unfair, Imhotep may suspend an alliance for a while.",
        "Kingdoms talk in the Messages, under the journal: to the whole table, privately to one kingdom, to Imhotep. An alliance offered in a message becomes a line of your next orders: it leaves only with them.",
        "A kingdom may have two players: the Lord of the kingdom decides the moves with the Military chief in the Council and prepares him a draft of orders; only the Military chief sends them to Imhotep.",
      ] },
      { key: "winning", title: "Winning", text: [
        "There is no automatic victory: the campaign lasts as long as Imhotep wants, and he ends it, naming a winner if there is one. Holding your cities, taking others, occupying an enemy's initial city for tribute, choosing the right ally: that is how a kingdom weighs.",
      ] },
      { key: "console", title: "Imhotep, the game master", text: [
        "Imhotep sees everything: every kingdom's secret figures and the orders received. He adjudicates the turn when he decides (missing orders count as nothing), sets the turn's deadline, suspends or restores an alliance.",
        "He also keeps the economy outside the military rules (buildings, feasts, growth of the military level): he edits a kingdom's level, population, Guild and resources. He is the only judge of battles: he may overrule a result (armies on a cell, a city's fate, never destroying an initial city), with a reason written in the journal. He ends the campaign.",
      ] },
      { key: "over", title: "End of the campaign", text: [
        "Imhotep has ended the campaign. The journal keeps every turn; each past turn's map can be stepped through under the map.",
      ] },
    ],
    choices: [
      "A malformed message is refused and does not count as the first one; a readable but unclear message is accepted, and each line not understood is explained.",
      "Asking for more armies than there are moves those that are there; the page says so before sending.",
      "War is declared alone; an alliance needs both to declare it, and war overrides it.",
      "A relation not restated keeps its last value (peace at first); the report names every change.",
      "A second ally is refused, the first kept; peace and war are read before alliances.",
      "Armies that cross each other do not fight.",
      "Imhotep does not read the messages between kingdoms nor their councils, unless the campaign says so; one may always write to him.",
      "The winner's losses: its armies × the loser's total ÷ its own total, rounded down (the text's table is missing); the armies lost are the newest.",
      "An ally defends its ally's city first, even without having declared war on the attacker; several attackers at peace with each other attack one after the other, in order of arrival.",
      "At 4 cities, a city saved by the winner's ally goes to that ally if it has fewer than 4, else it is destroyed.",
      "Tribute is paid for armies that stay on the initial city from one turn to the next, only to an occupier at war; what cannot be paid is not.",
      "Convert or destroy is chosen each turn (convert by default); the tribute resource stays chosen until changed.",
      "The Guild grows by one level a turn at most; each level adds 1 to the cities' defence.",
      "Costs are paid when the turn is adjudicated; what cannot be paid is not done, and the report says so.",
      "A spy report gives the level as of its mission's turn, never refreshed.",
      "Each side reads its own battle total, not the enemy's; everyone sees who fought, the losses and the winner.",
      "The Nile is drawn on the map but does not stop armies: only the sea and the lakes are water.",
      "There is no die in Kingdoms; the campaign ends only when Imhotep ends it.",
    ],
  },
};

// The section to open first: what this seat may do in the phase shown.
export function phaseKey(view) {
  if (view.over) return "over";
  if (view.secrets) return "console";
  if (view.you && !view.you.orders) return "orders";
  return "waiting";
}
