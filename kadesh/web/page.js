// The shell of the small pages (leaderboards, games to watch): their language (the address's, else the last one
// chosen, else French), the header's words, and the button that switches language.

const $ = (id) => document.getElementById(id);

export function startingLang(texts) {
  const lang = new URLSearchParams(location.search).get("lang") || localStorage.getItem("kadesh.lang") || "fr";
  return texts[lang] ? lang : "fr";
}

// ``words``: {home, account, toggle, title} in the page's language.
export function drawHeader(lang, words) {
  document.documentElement.lang = lang;
  document.title = `${words.title} · Kadesh`;
  $("home").textContent = words.home;
  $("account-link").textContent = words.account;
  $("lang").textContent = words.toggle;
  $("lang").lang = lang === "fr" ? "en" : "fr";
}

// The language button: ``switched(lang)`` draws the page again in the other language, which is remembered.
export function onLanguageSwitch(current, switched) {
  $("lang").addEventListener("click", () => {
    const lang = current() === "fr" ? "en" : "fr";
    localStorage.setItem("kadesh.lang", lang);
    switched(lang);
  });
}

// The games in the lobby's order, quickest first: the pages that list them agree.
const PLAY_ORDER = ["manoeuvre", "bataille", "front", "royaumes"];
export function inPlayOrder(rulesets) {
  const rank = (name) => PLAY_ORDER.indexOf(name) + 1 || 99;
  return [...rulesets].sort((a, b) => rank(a.name) - rank(b.name));
}
