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
    campaign_button: "Créer la campagne",
    campaign_intro: (master) => `Tu seras ${master}, le maître du jeu : la campagne te donne un lien pour chaque royaume, `
      + "à envoyer à ses joueurs.",
    rulers: "Qui gouverne chaque royaume ?",
    ruler_person: "Une personne",
    ruler_computer: (level) => `L'ordinateur : ${level}`,
    ruled_by_computer: (level) => `Gouverné par l'ordinateur (${level}) : ses ordres partent seuls à chaque tour.`,
    options: "Options de la partie",
    load_file: "Charger un fichier :",
    setup_more: (title) => `Régler les troupes et calculer les chances : table de ${title}`,
    setup_title: (title) => `Table de ${title}`,
    setup_help: "Règle chaque camp, calcule les chances sur dix mille batailles, puis joue-la.",
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
    forget: "Oublier",
    forget_label: (game) => `Oublier ${game}`,
    forgotten: (game) => `${game} est oubliée sur ce navigateur.`,
    this_screen: "sur cet écran",
    opened: (when) => `ouverte le ${when}`,
    your_turn: "à toi de jouer",
    their_turn: "à l'adversaire de jouer",
    seat_turn: (seats) => `à jouer : ${seats}`,
    over: "terminée",
    winner: (seat) => `${seat} l'emporte`,
    lost: "introuvable sur ce serveur",
    checking: "…",
    // accounts
    sign_in: "Se connecter",
    account_games: "Dans mon compte",
    this_browser: "Sur ce navigateur seulement",
    owner_of: "tu en es le propriétaire",
    you_won: "tu l'emportes",
    last_move: (when) => `dernier coup le ${when}`,
    deadline: (when) => `avant le ${when}`,
    versus: (names) => `contre ${names}`,
    by_link: "un joueur par lien",
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
    campaign_button: "Create the campaign",
    campaign_intro: (master) => `You will be ${master}, the game master: the campaign gives you one link for each kingdom, `
      + "to send to its players.",
    rulers: "Who rules each kingdom?",
    ruler_person: "A person",
    ruler_computer: (level) => `The computer: ${level}`,
    ruled_by_computer: (level) => `Ruled by the computer (${level}): its orders go out by themselves each turn.`,
    options: "Game options",
    load_file: "Load a file:",
    setup_more: (title) => `Set up the troops and work out the odds: the ${title} table`,
    setup_title: (title) => `The ${title} table`,
    setup_help: "Set up each side, work out the odds over ten thousand battles, then play it.",
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
    forget: "Forget",
    forget_label: (game) => `Forget ${game}`,
    forgotten: (game) => `${game} is forgotten on this browser.`,
    this_screen: "on this screen",
    opened: (when) => `opened ${when}`,
    your_turn: "your turn",
    their_turn: "your opponent's turn",
    seat_turn: (seats) => `to play: ${seats}`,
    over: "over",
    winner: (seat) => `${seat} wins`,
    lost: "not found on this server",
    checking: "…",
    sign_in: "Sign in",
    account_games: "In my account",
    this_browser: "On this browser only",
    owner_of: "you own it",
    you_won: "you won",
    last_move: (when) => `last move ${when}`,
    deadline: (when) => `before ${when}`,
    versus: (names) => `against ${names}`,
    by_link: "a player by link",
    computer: "the computer",
  },
};

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
  en: { bow: "bow", blade: "blade" },
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
