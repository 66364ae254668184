// The lobby's words, in French and English: the home page and « Mes parties » take every visible word from here.

export const TEXT = {
  fr: {
    toggle: "English",
    intro: "Jeux de guerre au tour par tour. Choisis un jeu, puis joue contre l'ordinateur, à deux sur cet écran, "
      + "ou envoie un lien à ton adversaire : la partie peut durer des jours, chaque jet de dé est consigné.",
    games: "Les jeux",
    duration: "Durée",
    players: "Joueurs",
    vs_computer: "Contre l'ordinateur",
    level: "Adversaire",
    side: "Je commande",
    play_computer: "Jouer contre l'ordinateur",
    other_ways: "Contre un ami",
    hotseat_button: "À deux sur cet écran",
    link_button: "Inviter par un lien",
    open_button: "Ouvrir aux autres joueurs",
    per_move: "Temps par coup",
    on_timeout: "Temps écoulé",
    timeout_claim: "l'adversaire peut réclamer la victoire",
    timeout_computer: "l'ordinateur joue le tour",
    no_clock: "sans limite",
    days: (n) => (n === 1 ? "1 jour" : `${n} jours`),
    days_per_move: (n) => (n === 1 ? "1 jour par coup" : `${n} jours par coup`),
    no_time_limit: "sans limite de temps",
    rated_choice: "Partie classée (quand elle est ouverte aux autres joueurs)",
    press: "Messages entre joueurs",
    press_on: "oui", press_full: "à tous et en privé", press_public: "à toute la table seulement",
    press_none: "aucun", press_none_master: "aucun, sauf au maître du jeu",
    councils_choice: "Un Seigneur et un Chef militaire par royaume (deux liens, qui tiennent conseil)",
    master_reads_choice: "Le maître du jeu lit les messages entre royaumes et leurs conseils",
    chief_of: (kingdom) => `${kingdom} — Chef militaire`, lord_of: (kingdom) => `${kingdom} — Seigneur du Royaume`,
    rated: "classée",
    own_scenario: "carte de son créateur",
    friendly: "amicale",
    open_games: "Parties ouvertes",
    open_intro: "Des joueurs attendent un adversaire : prends la place libre.",
    take: "Prendre cette place",
    take_label: (game, seat) => `Prendre la place ${seat} — ${game}`,
    free_seat: (seat) => `place libre : ${seat}`,
    waits: (who) => `attend : ${who}`,
    accounts_only: "réservée aux joueurs connectés",
    waiting_since: (when) => `ouverte le ${when}`,
    campaign_button: "Créer la campagne",
    campaign_intro: (master) => `Tu seras ${master}, le maître du jeu : la campagne te donne un lien pour chaque royaume, `
      + "à envoyer à ses joueurs.",
    campaign_intro_kadesh: "Kadesh arbitrera : la campagne te donne un lien pour chaque royaume ; garde celui du tien et "
      + "envoie les autres à leurs joueurs.",
    referee: "Qui arbitre ?",
    referee_person: "Imhotep, une personne (toi)",
    referee_kadesh: "Kadesh seul",
    per_turn: "Temps par tour",
    days_per_turn: (n) => (n === 1 ? "1 jour par tour" : `${n} jours par tour`),
    referee_kadesh_help: "Chaque tour est jugé dès que tous les royaumes ont envoyé leurs ordres, sinon à l'échéance : "
      + "l'ordinateur écrit alors les ordres d'un royaume en retard.",
    refereed_by_kadesh: "Personne : Kadesh arbitre seul.",
    campaign_help_kadesh: (mine, days) => `Tu gouvernes ${mine} : garde ton lien, envoie à chaque autre royaume le sien. `
      + `Kadesh arbitre : chaque tour est jugé dès que tous les ordres sont là, au plus tard ${days === 1 ? "1 jour" : `${days} jours`} `
      + "après son début ; l'ordinateur écrit les ordres d'un royaume en retard.",
    rulers: "Qui gouverne chaque royaume ?",
    ruler_person: "Une personne",
    ruler_computer: (level) => `L'ordinateur : ${level}`,
    ruled_by_computer: (level) => `Gouverné par l'ordinateur (${level}) : ses ordres partent seuls à chaque tour.`,
    options: "Options de la partie",
    load_file: "Charger un fichier :",
    advanced: "Avancé : ton propre fichier",
    advanced_hint: "Pour qui a écrit sa propre carte ou son propre scénario : charge son fichier, il remplace le choix ci-dessus.",
    setup_more: (title) => `Régler les troupes et calculer les chances : table de ${title}`,
    setup_title: (title) => `Table de ${title}`,
    setup_help: "Règle chaque camp, calcule les chances sur 10 000 batailles (1 000 sur un champ de bataille), puis joue-la.",
    working: "Création…",
    failed: "La création a échoué : ",
    // after creating
    ready: "Ta partie est prête",
    campaign_ready: "Ta campagne est prête",
    links_help: (mine, others) => `Tu commandes ${mine} : garde ton lien. Envoie ${others} à ton adversaire. `
      + "Qui a un lien joue ce camp : ne le publie pas.",
    campaign_help: "Envoie à chaque royaume son lien ; garde celui d'Imhotep, le maître du jeu, qui dépouille les ordres.",
    play_seat: (seat) => `Commander ${seat}`,
    hotseat: "Jouer les deux camps sur cet écran (on se passe la main)",
    open_console: "Ouvrir la console d'Imhotep",
    link_of: (seat) => `le lien ${seat}`,
    spectator: "Spectateurs",
    owner: "Propriétaire",
    open: "Ouvrir",
    copy: "Copier",
    copied: "Copié",
    copy_label: (what) => `Copier : ${what}`,
    link_label: (what) => `Adresse : ${what}`,
    spectator_help: "Le lien des spectateurs montre la partie sans rien pouvoir y jouer.",
    owner_help: "Le lien du propriétaire ouvre la partie en spectateur ; c'est aussi ta clé de propriétaire : "
      + "avec lui, Kadesh peut émettre un nouveau lien pour un camp dont le lien s'est perdu ou a fuité "
      + "(l'ancien cesse alors de marcher). Garde-le pour toi.",
    dice: "Les dés sont-ils honnêtes ?",
    dice_help: "Tous les dés de la partie découlent d'une graine secrète tirée à la création. Kadesh en publie "
      + "dès maintenant l'empreinte ci-dessous et ne révèle la graine qu'à la fin : chacun peut alors vérifier "
      + "que personne, pas même le serveur, n'a changé un seul jet.",
    fingerprint: "Empreinte de la graine",
    and: " et ",
    // my games
    my_games: "Mes parties",
    resume: "Reprendre",
    replay: "Revoir la partie",
    forget: "Oublier",
    forget_label: (game) => `Oublier ${game}`,
    forgotten: (game) => `${game} est oubliée sur ce navigateur.`,
    this_screen: "sur cet écran",
    opened: (when) => `ouverte le ${when}`,
    your_turn: "à toi de jouer",
    their_turn: "à l'adversaire de jouer",
    their_time_out: "l'adversaire n'a pas joué à temps : réclame la victoire",
    my_time_out: "ton temps est écoulé : joue vite",
    seat_turn: (seats) => `à jouer : ${seats}`,
    over: "terminée",
    cancelled: "annulée (retirée des parties ouvertes)",
    winner: (seat) => `${seat} l'emporte`,
    lost: "introuvable sur ce serveur",
    checking: "…",
    // accounts
    sign_in: "Se connecter",
    leaderboards: "Classements",
    watching: "En cours",
    account_games: "Dans mon compte",
    this_browser: "Sur ce navigateur seulement",
    owner_of: "tu en es le propriétaire",
    you_won: "tu l'emportes",
    last_move: (when) => `dernier coup le ${when}`,
    deadline: (when) => `avant le ${when}`,
    versus: (names) => `contre ${names}`,
    by_link: "un joueur par lien",
    by_links: (n) => `${n} joueurs par lien`,
    computer: "l'ordinateur",
  },
  en: {
    toggle: "Français",
    intro: "Turn-based wargames. Pick a game, then play the computer, two of you on this screen, or send a link "
      + "to your opponent: a game may last for days, and every die roll is on the record.",
    games: "The games",
    duration: "Length",
    players: "Players",
    vs_computer: "Against the computer",
    level: "Opponent",
    side: "I command",
    play_computer: "Play against the computer",
    other_ways: "Against a friend",
    hotseat_button: "Two of us on this screen",
    link_button: "Invite by a link",
    open_button: "Open it to other players",
    per_move: "Time per move",
    on_timeout: "Time out",
    timeout_claim: "the opponent may claim the win",
    timeout_computer: "the computer plays the turn",
    no_clock: "no limit",
    days: (n) => (n === 1 ? "1 day" : `${n} days`),
    days_per_move: (n) => (n === 1 ? "1 day per move" : `${n} days per move`),
    no_time_limit: "no time limit",
    rated_choice: "Rated game (when opened to other players)",
    press: "Messages between players",
    press_on: "yes", press_full: "to all and in private", press_public: "to the whole table only",
    press_none: "none", press_none_master: "none, except to the game master",
    councils_choice: "A Lord and a Military chief for each kingdom (two links, who hold council)",
    master_reads_choice: "The game master reads the messages between kingdoms and their councils",
    chief_of: (kingdom) => `${kingdom} — Military chief`, lord_of: (kingdom) => `${kingdom} — Lord of the kingdom`,
    rated: "rated",
    own_scenario: "its creator's own map",
    friendly: "casual",
    open_games: "Open games",
    open_intro: "Players are waiting for an opponent: take the free seat.",
    take: "Take this seat",
    take_label: (game, seat) => `Take the seat ${seat} — ${game}`,
    free_seat: (seat) => `free seat: ${seat}`,
    waits: (who) => `waiting: ${who}`,
    accounts_only: "for signed-in players",
    waiting_since: (when) => `opened ${when}`,
    campaign_button: "Create the campaign",
    campaign_intro: (master) => `You will be ${master}, the game master: the campaign gives you one link for each kingdom, `
      + "to send to its players.",
    campaign_intro_kadesh: "Kadesh will referee: the campaign gives you one link for each kingdom; keep your own "
      + "kingdom's and send the others to their players.",
    referee: "Who referees?",
    referee_person: "Imhotep, a person (you)",
    referee_kadesh: "Kadesh alone",
    per_turn: "Time per turn",
    days_per_turn: (n) => (n === 1 ? "1 day per turn" : `${n} days per turn`),
    referee_kadesh_help: "Each turn is judged as soon as every kingdom has sent its orders, else at its deadline: "
      + "the computer then writes a late kingdom's orders.",
    refereed_by_kadesh: "Nobody: Kadesh referees alone.",
    campaign_help_kadesh: (mine, days) => `You rule ${mine}: keep your link, send each other kingdom its own. `
      + `Kadesh referees: each turn is judged as soon as every order is in, at the latest ${days === 1 ? "1 day" : `${days} days`} `
      + "after it began; the computer writes a late kingdom's orders.",
    rulers: "Who rules each kingdom?",
    ruler_person: "A person",
    ruler_computer: (level) => `The computer: ${level}`,
    ruled_by_computer: (level) => `Ruled by the computer (${level}): its orders go out by themselves each turn.`,
    options: "Game options",
    load_file: "Load a file:",
    advanced: "Advanced: a file of your own",
    advanced_hint: "For whoever wrote a map or a scenario of their own: load its file, it replaces the choice above.",
    setup_more: (title) => `Set up the troops and work out the odds: the ${title} table`,
    setup_title: (title) => `The ${title} table`,
    setup_help: "Set up each side, work out the odds over 10,000 battles (1,000 on a battlefield), then play it.",
    working: "Creating…",
    failed: "Could not create the game: ",
    ready: "Your game is ready",
    campaign_ready: "Your campaign is ready",
    links_help: (mine, others) => `You command ${mine}: keep your link. Send ${others} to your opponent. `
      + "Whoever has a link plays that side: don't publish it.",
    campaign_help: "Send each kingdom its link; keep Imhotep's, the game master's, who opens the orders.",
    play_seat: (seat) => `Command ${seat}`,
    hotseat: "Play both sides on this screen (hand over in turn)",
    open_console: "Open Imhotep's console",
    link_of: (seat) => `${seat} link`,
    spectator: "Spectators",
    owner: "Owner",
    open: "Open",
    copy: "Copy",
    copied: "Copied",
    copy_label: (what) => `Copy: ${what}`,
    link_label: (what) => `Address: ${what}`,
    spectator_help: "The spectators' link shows the game without being able to play in it.",
    owner_help: "The owner's link opens the game as a spectator; it is also your owner's key: with it, Kadesh "
      + "can issue a new link for a side whose link was lost or leaked (the old one then stops working). "
      + "Keep it to yourself.",
    dice: "Are the dice fair?",
    dice_help: "All the game's dice come from a secret seed drawn when it was created. Kadesh publishes its "
      + "fingerprint below right now and reveals the seed only at the end: then anyone can check that nobody, "
      + "not even the server, changed a single roll.",
    fingerprint: "Fingerprint of the seed",
    and: " and ",
    my_games: "My games",
    resume: "Resume",
    replay: "Replay the game",
    forget: "Forget",
    forget_label: (game) => `Forget ${game}`,
    forgotten: (game) => `${game} is forgotten on this browser.`,
    this_screen: "on this screen",
    opened: (when) => `opened ${when}`,
    your_turn: "your turn",
    their_turn: "your opponent's turn",
    their_time_out: "your opponent did not play in time: claim the win",
    my_time_out: "your time has run out: play now",
    seat_turn: (seats) => `to play: ${seats}`,
    over: "over",
    cancelled: "cancelled (withdrawn from the open games)",
    winner: (seat) => `${seat} wins`,
    lost: "not found on this server",
    checking: "…",
    sign_in: "Sign in",
    leaderboards: "Leaderboards",
    watching: "Live",
    account_games: "In my account",
    this_browser: "On this browser only",
    owner_of: "you own it",
    you_won: "you won",
    last_move: (when) => `last move ${when}`,
    deadline: (when) => `before ${when}`,
    versus: (names) => `against ${names}`,
    by_link: "a player by link",
    by_links: (n) => `${n} players by link`,
    computer: "the computer",
  },
};

// The others at a game's table, in words: each name, the computer once, the players by link counted
// (« Kheops, l'ordinateur et 3 joueurs par lien »). ``computer(player)`` names a computer seat.
export function opponentsWords(players, lang, computer = () => TEXT[lang].computer) {
  const t = TEXT[lang];
  const words = [...new Set(players.filter((p) => p.name || p.bot).map((p) => p.name ?? computer(p)))];
  const byLink = players.filter((p) => !p.name && !p.bot).length;
  if (byLink) words.push(byLink === 1 ? t.by_link : t.by_links(byLink));
  return words.length > 1 ? `${words.slice(0, -1).join(", ")}${t.and}${words.at(-1)}` : words[0] ?? "";
}

// Seat names, by seat id: [alone, in a sentence (with its article), after "of" (French: du, de la)].
export const SEATS = {
  fr: {
    north: ["Nord", "le Nord", "du Nord"], south: ["Sud", "le Sud", "du Sud"], blue: ["Bleu", "le Bleu", "du Bleu"],
    red: ["Rouge", "le Rouge", "du Rouge"],
    basse_egypte: ["Basse-Égypte", "la Basse-Égypte", "de la Basse-Égypte"],
    haute_egypte: ["Haute-Égypte", "la Haute-Égypte", "de la Haute-Égypte"],
    koush: ["Koush", "Koush", "de Koush"], libye: ["Libye", "la Libye", "de la Libye"],
    imhotep: ["Imhotep (maître du jeu)", "Imhotep", "d'Imhotep"],
  },
  en: {
    north: ["North", "North", "North's"], south: ["South", "South", "South's"], blue: ["Blue", "Blue", "Blue's"],
    red: ["Red", "Red", "Red's"], basse_egypte: ["Lower Egypt", "Lower Egypt", "Lower Egypt's"],
    haute_egypte: ["Upper Egypt", "Upper Egypt", "Upper Egypt's"], koush: ["Kush", "Kush", "Kush's"],
    libye: ["Libya", "Libya", "Libya's"], imhotep: ["Imhotep (game master)", "Imhotep", "Imhotep's"],
  },
};

// A seat's name, never its id: ``form`` 0 alone, 1 in a sentence, 2 after "of" (true means 1).
export function seatName(seat, lang, form = 0) {
  const names = SEATS[lang][seat];
  return names ? names[form === true ? 1 : form] : seat.replaceAll("_", " ");
}

// Names for option values the server sends without labels.
export const VALUES = {
  fr: { bow: "archer", blade: "lame" },
  en: { bow: "archer", blade: "blade" },
};

// The lobby's pictures, described for those who do not see them.
export const PICTURES = {
  fr: {
    manoeuvre: "Le champ de Manœuvre, douze cases sur douze : les éléments du Nord en bleu face à ceux du Sud en rouge.",
    royaumes: "La carte du Nil : le fleuve, son delta et les villes des quatre royaumes.",
    bataille: "Deux troupes face à face, le Nord en bleu, le Sud en rouge, les traits volant entre elles.",
    front: "Une carte de Front en cases carrées : rivière, pont, bois, les unités bleues et rouges, et un hélicoptère en vol.",
  },
  en: {
    manoeuvre: "The Manoeuvre field, twelve squares by twelve: North's elements in blue facing South's in red.",
    royaumes: "The Nile map: the river, its delta and the cities of the four kingdoms.",
    bataille: "Two bodies of troops facing each other, North in blue, South in red, missiles flying between.",
    front: "A Front map of square cells: river, bridge, woods, the blue and red units, and a helicopter in flight.",
  },
};
