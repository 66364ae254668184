// Royaumes' words, in French and English, and the small helpers every Royaumes module uses
// (names of kingdoms, numbers of armies, dates in the reader's own format).

export const T = {
  fr: {
    sep: " : ", turn: (n) => `Tour ${n}`, deadline: "Échéance", noDeadline: "quand tous les royaumes auront envoyé leurs ordres",
    sent: "Ordres reçus", waitingFor: "En attente de", yours: "Tes chiffres", level: "Niveau militaire",
    population: "Population", guild: "Guilde des Constructeurs", defence: "Défense des cités",
    resources: "Ressources", known: "Niveaux ennemis connus", spiedOn: (t) => `espionné au tour ${t}`, unknown: "inconnu",
    relations: "Relations", war: "guerre", peace: "paix", ally: "alliance",
    rel: {
      suspended: "alliance suspendue par Imhotep", allied: "alliés", warBoth: "en guerre",
      warMine: "en guerre (tu l'as déclarée)", warTheirs: (k) => `en guerre (${k} te l'a déclarée)`,
      peace: "en paix", offerMine: "en paix ; tu proposes l'alliance", offerTheirs: (k) => `en paix ; ${k} te propose l'alliance`,
    },
    orders: "Ordres du tour", formTab: "Formulaire", textTab: "Message texte",
    pick: "Clique une de tes armées, puis une case voisine en surbrillance.",
    selected: (c, n) => `Armées en ${c} : ${n} ${n > 1 ? "peuvent" : "peut"} partir.`, stay: "Reste sur place", unstay: "Ne reste plus",
    othersStay: "Toutes les autres restent", moves: "Mouvements", none: "aucun", remove: "Retirer",
    removeMove: (m) => `Retirer ${m}`,
    stances: "Guerre et paix", stanceWith: (k) => `Envers ${k}`, create: "Créer une armée à", noCreate: "ne pas créer d'armée",
    createNote: "Ce tour-ci : aucun bâtiment, aucune fête ; la nouvelle armée ne bouge qu'au tour suivant.",
    raising: "Armée, Guilde et espions", victory: "Après une victoire",
    build: "Agrandir la Guilde des Constructeurs", spies: "Espions", spy: (k) => `Espion chez ${k}`,
    conquest: "Une cité prise sera", convert: "convertie", destroy: "détruite",
    tribute: "Tribut, si l'or manque, payé en", mostOf: "ce que j'ai le plus",
    review: "Relire avant d'envoyer", confirmTitle: "Voici l'ordre tel qu'il partira. Seul le premier message compte.",
    checking: "Imhotep relit…", warnings: "À savoir avant d'envoyer",
    send: "Envoyer (définitif)", back: "Revenir", sentMine: "Tes ordres sont partis. Imhotep jugera le tour.",
    yourOrders: "Tes ordres de ce tour",
    paste: "Colle ton message d'ordres : une ligne par ordre, par exemple « C4 -> D5 », « 2 x C4 -> D5 », « C7 reste », « guerre: Thèbes ».",
    pasteLabel: "Message d'ordres",
    read: "Lire le message", understood: "Compris", problem: "Non compris", fill: "Remplir le formulaire",
    lineOk: (n, text) => `ligne ${n} : ${text}`, draftKept: "brouillon conservé",
    droppedTitle: "Lignes du message texte que le formulaire ne reprend pas",
    droppedBack: "Elles ne partiront pas avec le formulaire ; elles reviennent dans le message texte si tu y retournes.",
    council: "Conseil du royaume", councilDraft: (who) => `Brouillon d'ordres de ${who}`, takeUp: "Reprendre ce brouillon",
    saveDraft: "Transmettre ce brouillon au Chef militaire", draftSaved: "Brouillon transmis au Chef militaire.",
    lordNote: "Tu es le Seigneur du Royaume : tu décides des mouvements avec le Chef militaire, qui seul envoie les ordres à Imhotep. Prépare un brouillon : il le verra, le reprendra et l'enverra.",
    allianceLines: "Alliances proposées dans tes messages", addLine: "Ajouter à mes ordres", lineAdded: "Dans mes ordres",
    reports: "Rapports des tours", reportOf: (n) => `Tour ${n}`, nothing: "Rien ne s'est passé ce tour-ci : aucune armée n'a bougé, personne n'a combattu.",
    missed: "Imhotep a jugé ce tour sans tes ordres : ils n'étaient pas arrivés. Tes armées sont restées en place, et rien n'a été levé, construit ni espionné.",
    topics: { relations: "Diplomatie", economy: "Levées, Guilde et espions", moves: "Mouvements", battles: "Batailles",
      cities: "Cités", tribute: "Tribut", imhotep: "Imhotep", other: "Divers" },
    before: "avant les mouvements", afterMoves: "après les mouvements",
    afterBattles: "après les batailles", now: "Maintenant", nowTurn: (n) => `Maintenant (tour ${n})`,
    history: "Carte des tours passés", previous: "Étape précédente", next: "Étape suivante",
    stepOf: (t, s) => `Tour ${t} · ${s}`,
    mapLabel: (n) => `Carte de la campagne, tour ${n} : royaumes, cités, armées, le Nil et les mers`,
    legend: "Légende", cityMark: "cité", capitalMark: "cité initiale (jamais détruite)", ruinMark: "cité détruite",
    enemyMark: "cité ennemie", allyMark: "cité alliée", armyMark: "armée (nombre)", newArmy: "armée levée ce tour",
    nileMark: "le Nil (se traverse comme la terre)", waterMark: "eau (infranchissable)", targetMark: "case où aller",
    land: "terre", valley: "vallée du Nil, terre", water: "eau, infranchissable",
    cellTip: (cell, what) => `${cell} · ${what}`,
    cityTip: (name, cell, owner, extra) => `${name} (${cell}) — ${owner}${extra ? ` · ${extra}` : ""}`,
    ruined: "détruite", initialOf: "cité initiale : ne peut être détruite", noOwner: "sans maître",
    armyTip: (k, n, cell, fresh, mobile) => `${k} : ${armies(n, "fr")} en ${cell}`
      + (fresh ? ` (dont ${fresh} levée${fresh > 1 ? "s" : ""} ce tour, qui ne bouge${fresh > 1 ? "nt" : ""} qu'au tour suivant)` : "")
      + (mobile !== undefined ? ` · ${mobile} ${mobile > 1 ? "peuvent" : "peut"} partir` : ""),
    console: "Console d'Imhotep", secretsTitle: "Royaumes : chiffres secrets et ordres", kingdoms: "Royaume",
    ordersOf: "Ordres reçus", notYet: "pas encore",
    turnTitle: "Le tour", adjudicate: "Juger le tour maintenant", setDeadline: "Fixer l'échéance",
    deadlineAt: "Date et heure de l'échéance", clearDeadline: "Juger quand tous auront envoyé",
    alliancesTitle: "Alliances", noAlliance: "Aucune alliance à suspendre ou rétablir.",
    suspend: "Suspendre l'alliance", restore: "Rétablir l'alliance", edit: "Modifier un royaume",
    editKingdom: "Royaume", editField: "Valeur", editValue: "Nouvelle valeur",
    override: "Trancher", overrideHelp: "Fixer le nombre d'armées d'un royaume sur une case.",
    reason: "Raison (écrite au journal)", apply: "Appliquer", end: "Clore la campagne", endTitle: "Fin de la campagne",
    cell: "Case", count: "Nombre d'armées",
    confirm: "Confirmer", cancel: "Annuler", sure: (what) => `Confirmer : ${what} ?`,
    editWhat: (field, k, v) => `${field} de ${k} : ${v}`, overrideWhat: (k, c, n) => `${k} aura ${armies(n, "fr")} en ${c}`,
    ended: "Campagne terminée.",
    spectator: "Tu regardes la campagne : la carte et ce que tous savent.",
  },
  en: {
    sep: ": ", turn: (n) => `Turn ${n}`, deadline: "Deadline", noDeadline: "when every kingdom has sent its orders",
    sent: "Orders in", waitingFor: "Waiting for", yours: "Your figures", level: "Military level",
    population: "Population", guild: "Builders' Guild", defence: "City defence",
    resources: "Resources", known: "Known enemy levels", spiedOn: (t) => `spied on turn ${t}`, unknown: "unknown",
    relations: "Relations", war: "war", peace: "peace", ally: "alliance",
    rel: {
      suspended: "alliance suspended by Imhotep", allied: "allies", warBoth: "at war",
      warMine: "at war (you declared it)", warTheirs: (k) => `at war (${k} declared it on you)`,
      peace: "at peace", offerMine: "at peace; you propose an alliance", offerTheirs: (k) => `at peace; ${k} proposes an alliance`,
    },
    orders: "This turn's orders", formTab: "Form", textTab: "Text message",
    pick: "Click one of your armies, then a highlighted neighbouring cell.",
    selected: (c, n) => `Armies at ${c}: ${n} may leave.`, stay: "Stays", unstay: "No longer stays",
    othersStay: "All others stay", moves: "Moves", none: "none", remove: "Remove",
    removeMove: (m) => `Remove ${m}`,
    stances: "War and peace", stanceWith: (k) => `Towards ${k}`, create: "Raise an army at", noCreate: "raise no army",
    createNote: "This turn: no building, no feast; the new army moves only next turn.",
    raising: "Army, Guild and spies", victory: "After a victory",
    build: "Enlarge the Builders' Guild", spies: "Spies", spy: (k) => `Spy in ${k}`,
    conquest: "A city taken will be", convert: "converted", destroy: "destroyed",
    tribute: "Tribute, if gold runs short, paid in", mostOf: "what I have most of",
    review: "Review before sending", confirmTitle: "This is the order as it will leave. Only the first message counts.",
    checking: "Imhotep is reading…", warnings: "Worth knowing before you send",
    send: "Send (final)", back: "Back", sentMine: "Your orders are on their way. Imhotep will adjudicate the turn.",
    yourOrders: "Your orders this turn",
    paste: "Paste your order message: one order per line, e.g. 'C4 -> D5', '2 x C4 -> D5', 'C7 stays', 'war: Thebes'.",
    pasteLabel: "Order message",
    read: "Read the message", understood: "Understood", problem: "Not understood", fill: "Fill the form",
    lineOk: (n, text) => `line ${n}: ${text}`, draftKept: "draft kept",
    droppedTitle: "Lines of the text message the form does not take",
    droppedBack: "They will not leave with the form; they come back in the text message if you return to it.",
    council: "The kingdom's council", councilDraft: (who) => `Draft of orders by ${who}`, takeUp: "Take this draft up",
    saveDraft: "Pass this draft to the Military chief", draftSaved: "Draft passed to the Military chief.",
    lordNote: "You are the Lord of the kingdom: you decide the moves with the Military chief, who alone sends the orders to Imhotep. Prepare a draft: he will see it, take it up and send it.",
    allianceLines: "Alliances offered in your messages", addLine: "Add to my orders", lineAdded: "In my orders",
    reports: "Turn reports", reportOf: (n) => `Turn ${n}`, nothing: "Nothing happened this turn: no army moved, nobody fought.",
    missed: "Imhotep judged this turn without your orders: they had not arrived. Your armies stayed where they were, and nothing was raised, built or spied.",
    topics: { relations: "Diplomacy", economy: "Armies raised, Guild and spies", moves: "Moves", battles: "Battles",
      cities: "Cities", tribute: "Tribute", imhotep: "Imhotep", other: "Other" },
    before: "before moves", afterMoves: "after moves",
    afterBattles: "after battles", now: "Now", nowTurn: (n) => `Now (turn ${n})`,
    history: "Map of past turns", previous: "Previous step", next: "Next step",
    stepOf: (t, s) => `Turn ${t} · ${s}`,
    mapLabel: (n) => `Campaign map, turn ${n}: kingdoms, cities, armies, the Nile and the seas`,
    legend: "Legend", cityMark: "city", capitalMark: "initial city (never destroyed)", ruinMark: "destroyed city",
    enemyMark: "enemy city", allyMark: "allied city", armyMark: "army (count)", newArmy: "army raised this turn",
    nileMark: "the Nile (crossed like land)", waterMark: "water (impassable)", targetMark: "cell to go to",
    land: "land", valley: "Nile valley, land", water: "water, impassable",
    cellTip: (cell, what) => `${cell} · ${what}`,
    cityTip: (name, cell, owner, extra) => `${name} (${cell}) — ${owner}${extra ? ` · ${extra}` : ""}`,
    ruined: "destroyed", initialOf: "initial city: can never be destroyed", noOwner: "no master",
    armyTip: (k, n, cell, fresh, mobile) => `${k}: ${armies(n, "en")} at ${cell}`
      + (fresh ? ` (${fresh} raised this turn, moving only next turn)` : "")
      + (mobile !== undefined ? ` · ${mobile} may leave` : ""),
    console: "Imhotep's console", secretsTitle: "Kingdoms: secret figures and orders", kingdoms: "Kingdom",
    ordersOf: "Orders received", notYet: "not yet",
    turnTitle: "The turn", adjudicate: "Adjudicate the turn now", setDeadline: "Set the deadline",
    deadlineAt: "Deadline date and time", clearDeadline: "Adjudicate when all have sent",
    alliancesTitle: "Alliances", noAlliance: "No alliance to suspend or restore.",
    suspend: "Suspend the alliance", restore: "Restore the alliance", edit: "Edit a kingdom",
    editKingdom: "Kingdom", editField: "Value", editValue: "New value",
    override: "Overrule", overrideHelp: "Set a kingdom's number of armies on a cell.",
    reason: "Reason (written in the journal)", apply: "Apply", end: "End the campaign", endTitle: "End of the campaign",
    cell: "Cell", count: "Number of armies",
    confirm: "Confirm", cancel: "Cancel", sure: (what) => `Confirm: ${what}?`,
    editWhat: (field, k, v) => `${k}'s ${field}: ${v}`, overrideWhat: (k, c, n) => `${k} will have ${armies(n, "en")} at ${c}`,
    ended: "Campaign over.",
    spectator: "You are watching the campaign: the map and what everyone knows.",
  },
};

export function armies(n, lang) {
  if (lang === "en") return `${n} arm${n === 1 ? "y" : "ies"}`;
  return `${n} armée${n > 1 ? "s" : ""}`;
}

export function seatName(view, seat, lang) {
  if (seat === "imhotep") return "Imhotep";
  const kingdom = view.kingdoms.find((k) => k.id === seat);
  return kingdom ? kingdom.names[lang] ?? kingdom.names.fr : seat;
}

export const colourOf = (view, id) => view.kingdoms.find((k) => k.id === id)?.colour ?? "#8a8170";

export const resourceName = (view, r, lang) => view.resources[r]?.[lang] ?? r;

export const stuff = (view, amounts, lang) =>
  Object.entries(amounts).map(([r, n]) => `${n} ${resourceName(view, r, lang)}`).join(", ");

const LOCALES = { fr: "fr-FR", en: "en-GB" };

// A time as the reader writes it, in the reader's zone: "mardi 15 janvier 2030 à 19:00".
export function when(iso, lang) {
  return new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: "full", timeStyle: "short" }).format(new Date(iso));
}

// "dans 3 jours", "il y a 2 heures", "in 5 minutes".
export function fromNow(iso, lang, now = Date.now()) {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  const format = new Intl.RelativeTimeFormat(LOCALES[lang], { numeric: "auto" });
  const size = Math.abs(seconds);
  if (size < 3600) return format.format(Math.round(seconds / 60), "minute");
  if (size < 48 * 3600) return format.format(Math.round(seconds / 3600), "hour");
  if (size < 60 * 86400) return format.format(Math.round(seconds / 86400), "day");
  if (size < 730 * 86400) return format.format(Math.round(seconds / (30 * 86400)), "month");
  return format.format(Math.round(seconds / (365 * 86400)), "year");
}

// A datetime-local value ("2030-01-15T18:00") as ISO 8601 with the reader's own offset, so the
// journal says the hour Imhotep chose.
export function localIso(value) {
  const at = new Date(value);
  const pad = (n) => String(Math.abs(n)).padStart(2, "0");
  const offset = -at.getTimezoneOffset();
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:00`
    + `${offset >= 0 ? "+" : "-"}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}
