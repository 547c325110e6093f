// Labels in Turkish and English. Contract names stay Turkish in both, as players know them.
// Each area of the client keeps its own labels in a strings-*.js module, merged here.

import { STRINGS as LISTS } from "./strings-lists.js";
import { STRINGS as TABLE } from "./strings-table.js";
import { STRINGS as INTERNATIONAL } from "./strings-international.js";
import { STRINGS as KONTURLU } from "./strings-konturlu.js";

export const CONTRACT_NAMES = {
  tricks: "El Almaz",
  hearts: "Kupa Almaz",
  queens: "Kız Almaz",
  boys: "Erkek Almaz",
  last_two: "Son İki",
  king_of_hearts: "Rıfkı",
  trump: "Koz",
};

export const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };

const LABELS = {
  en: {
    title: "King (Rıfkı)",
    lobby: "Lobby",
    weekly: "Weekly board",
    ladder: "Ladder",
    profile: "Profile",
    language: "Türkçe",
    guest: "Play as guest",
    login: "Log in",
    signup: "Create an account",
    logout: "Log out",
    name: "Name",
    password: "Password",
    signed_in_as: "Signed in as",
    open_tables: "Open live tables",
    no_tables: "No open tables right now.",
    create_table: "Create a table",
    mode: "Opponents",
    live: "Live (people)",
    computer_easy: "Computer · easy",
    computer_medium: "Computer · medium",
    computer_hard: "Computer · hard",
    hands: "Hands",
    ruleset: "Ruleset",
    create: "Create",
    join: "Sit down",
    refresh: "Refresh",
    seat: "Seat",
    seats: "Seats",
    empty_seat: "empty",
    bot: "bot",
    guest_tag: "guest",
    you: "you",
    your_turn: "Your turn",
    you_forfeited: "You forfeited: the computer plays your seat to the end",
    computer_after_forfeit: "computer, after a forfeit",
    winner: "winner",
    forfeited: "forfeited",
    waiting_for: "Waiting for",
    waiting_players: "Waiting for players…",
    choose_contract: "Choose the contract",
    choose_trump: "Koz: pick the trump suit",
    declarer: "Declarer",
    contract: "Contract",
    trump: "Trump",
    hand_of: "Hand",
    trick: "Trick",
    tricks_taken: "Tricks",
    penalty_taken: "Penalty cards",
    points: "Points",
    total: "Total",
    score_sheet: "Score sheet",
    standings: "Final standings",
    place: "Place",
    move_clock: "Move",
    reserve: "Reserve",
    match_over: "The match is over",
    verify: "Verify deck",
    verifying: "Re-dealing every hand on this device…",
    verify_pass: "Verified: every hand was dealt as committed, and every card played was dealt to its player once.",
    verify_fail: "Verification FAILED",
    verify_no_record: "This device has no record of this match (commitment, seed, hands), so it cannot verify it.",
    seeds_made_by: "Who made each seed",
    seed_client: "its player's device (after the commitment)",
    seed_server: "the server (the player sent none)",
    seed_bot: "a server bot: 32 zero bytes",
    seed_unknown: "not said",
    seed_mine: "this device",
    connection_lost: "Connection lost — reconnecting…",
    illegal: "Refused",
    rank: "Rank",
    player: "Player",
    rating: "Rating",
    score: "Score",
    matches: "Matches",
    rating_history: "Rating history",
    ratings_by_ruleset: "Ratings by ruleset",
    no_history: "No rated matches yet.",
    week_resets: "Resets at",
    unavailable: "Not available right now",
    back_to_lobby: "Back to the lobby",
    commitment: "Deal commitment",
    your_hand: "Your hand",
    legal_hint: "Highlighted cards are legal.",
    computer_table: "Against the computer",
    live_table: "Live table",
    prev: "Previous",
    next: "Next",
    my_matches: "Your matches",
    resign: "Resign",
    leave: "Leave the table",
    resign_confirm: "Resign? Click again",
    logged_out: "You are logged out.",
    name_placeholder: "Your name (optional)",
    guest_intro: "Play at once, no account needed.",
    login_intro: "With an account your rating is kept.",
    loading: "Loading…",
    rules_unavailable: "The rules could not be read; try again.",
    status_waiting: "waiting",
    status_active: "in play",
    status_finished: "finished",
    status_aborted: "aborted",
    outcome_finished: "played to the end",
    outcome_forfeit: "ended by a forfeit",
    outcome_aborted: "aborted",
    level_easy: "easy",
    level_medium: "medium",
    level_hard: "hard",
    computer: "Computer",
    field_name: "Name",
    field_password: "Password",
    field_hands: "Hands",
    field_ruleset: "Ruleset",
    field_mode: "Opponents",
    field_level: "Level",
    field_seat: "Seat",
    field_client_seed: "Seed",
    field_move: "Move",
    field_version: "Version",
    qm_title: "Quick match",
    qm_play_now: "Play now",
    qm_hands: "hands",
    qm_waiting: "Looking for players",
    qm_window: "rating window",
    qm_in_pool: "waiting",
    qm_cancel: "Cancel",
    qm_found: "Table found",
    qm_seat: "seat",
    qm_commitment: "deal commitment",
    qm_accept: "Accept",
    qm_accept_by: "accept within",
    qm_others: "waiting for the others",
    qm_missed: "You did not accept in time.",
    qm_dropped: "You were out of touch and left the queue.",
    qm_guest_note: "Guests play guests (unranked).",
    ruleset_standard: "Standard",
    ruleset_classic20: "Classic 20",
    ruleset_traditional: "Traditional",
    ruleset_konturlu: "Konturlu",
    ruleset_international: "International",
  },
  tr: {
    title: "King (Rıfkı)",
    lobby: "Lobi",
    weekly: "Haftalık tablo",
    ladder: "Genel sıralama",
    profile: "Profil",
    language: "English",
    guest: "Misafir olarak oyna",
    login: "Giriş yap",
    signup: "Hesap oluştur",
    logout: "Çıkış",
    name: "Ad",
    password: "Şifre",
    signed_in_as: "Giriş yapan",
    open_tables: "Açık canlı masalar",
    no_tables: "Şu anda açık masa yok.",
    create_table: "Masa aç",
    mode: "Rakipler",
    live: "Canlı (oyuncular)",
    computer_easy: "Bilgisayar · kolay",
    computer_medium: "Bilgisayar · orta",
    computer_hard: "Bilgisayar · zor",
    hands: "El sayısı",
    ruleset: "Kurallar",
    create: "Aç",
    join: "Otur",
    refresh: "Yenile",
    seat: "Koltuk",
    seats: "Koltuklar",
    empty_seat: "boş",
    bot: "bot",
    guest_tag: "misafir",
    you: "sen",
    your_turn: "Sıra sende",
    you_forfeited: "Hükmen kaybettin: koltuğunu maçın sonuna kadar bilgisayar oynuyor",
    computer_after_forfeit: "hükmen kayıptan sonra bilgisayar",
    winner: "kazanan",
    forfeited: "hükmen kaybetti",
    waiting_for: "Bekleniyor:",
    waiting_players: "Oyuncular bekleniyor…",
    choose_contract: "Oyunu seç",
    choose_trump: "Koz: koz rengini seç",
    declarer: "Oyunu seçen",
    contract: "Oyun",
    trump: "Koz",
    hand_of: "El",
    trick: "Löve",
    tricks_taken: "Löveler",
    penalty_taken: "Ceza kartları",
    points: "Puan",
    total: "Toplam",
    score_sheet: "Puan cetveli",
    standings: "Sonuç sıralaması",
    place: "Sıra",
    move_clock: "Hamle",
    reserve: "Ek süre",
    match_over: "Maç bitti",
    verify: "Desteyi doğrula",
    verifying: "Her el bu cihazda yeniden dağıtılıyor…",
    verify_pass: "Doğrulandı: her el taahhüt edildiği gibi dağıtıldı ve oynanan her kart oyuncusuna dağıtılmıştı, bir kez oynandı.",
    verify_fail: "Doğrulama BAŞARISIZ",
    verify_no_record: "Bu cihazda bu maçın kaydı (taahhüt, tohum, eller) yok; doğrulanamaz.",
    seeds_made_by: "Tohumları kim üretti",
    seed_client: "oyuncunun cihazı (taahhütten sonra)",
    seed_server: "sunucu (oyuncu göndermedi)",
    seed_bot: "sunucu botu: 32 sıfır bayt",
    seed_unknown: "belirtilmemiş",
    seed_mine: "bu cihaz",
    connection_lost: "Bağlantı koptu — yeniden bağlanılıyor…",
    illegal: "Reddedildi",
    rank: "Sıra",
    player: "Oyuncu",
    rating: "Puan",
    score: "Skor",
    matches: "Maç",
    rating_history: "Puan geçmişi",
    ratings_by_ruleset: "Kurallara göre puanlar",
    no_history: "Henüz puanlı maç yok.",
    week_resets: "Sıfırlanma",
    unavailable: "Şu anda kullanılamıyor",
    back_to_lobby: "Lobiye dön",
    commitment: "Dağıtım taahhüdü",
    your_hand: "Elin",
    legal_hint: "Vurgulu kartlar oynanabilir.",
    computer_table: "Bilgisayara karşı",
    live_table: "Canlı masa",
    prev: "Önceki",
    next: "Sonraki",
    my_matches: "Maçların",
    resign: "Çekil",
    leave: "Masadan kalk",
    resign_confirm: "Çekilmek mi? Tekrar tıkla",
    logged_out: "Çıkış yaptın.",
    name_placeholder: "Adın (isteğe bağlı)",
    guest_intro: "Hesap gerekmeden hemen oyna.",
    login_intro: "Hesapla oynarsan puanın saklanır.",
    loading: "Yükleniyor…",
    rules_unavailable: "Kurallar okunamadı; yeniden dene.",
    status_waiting: "bekliyor",
    status_active: "oynanıyor",
    status_finished: "bitti",
    status_aborted: "yarıda kaldı",
    outcome_finished: "sonuna kadar oynandı",
    outcome_forfeit: "hükmen bitti",
    outcome_aborted: "yarıda kaldı",
    level_easy: "kolay",
    level_medium: "orta",
    level_hard: "zor",
    computer: "Bilgisayar",
    field_name: "Ad",
    field_password: "Şifre",
    field_hands: "El sayısı",
    field_ruleset: "Kurallar",
    field_mode: "Rakipler",
    field_level: "Seviye",
    field_seat: "Koltuk",
    field_client_seed: "Tohum",
    field_move: "Hamle",
    field_version: "Sürüm",
    qm_title: "Hızlı oyun",
    qm_play_now: "Hemen oyna",
    qm_hands: "el",
    qm_waiting: "Oyuncu aranıyor",
    qm_window: "puan aralığı",
    qm_in_pool: "bekleyen",
    qm_cancel: "Vazgeç",
    qm_found: "Masa bulundu",
    qm_seat: "koltuk",
    qm_commitment: "dağıtım taahhüdü",
    qm_accept: "Kabul et",
    qm_accept_by: "kabul süresi",
    qm_others: "diğerleri bekleniyor",
    qm_missed: "Zamanında kabul etmedin.",
    qm_dropped: "Bağlantın koptu, sıradan çıktın.",
    qm_guest_note: "Misafirler misafirlerle oynar (puansız).",
    ruleset_standard: "Standart",
    ruleset_classic20: "Klasik 20",
    ruleset_traditional: "Geleneksel",
    ruleset_konturlu: "Konturlu",
    ruleset_international: "Uluslararası",
  },
};

for (const part of [LISTS, TABLE, INTERNATIONAL, KONTURLU]) {
  for (const code of Object.keys(LABELS)) Object.assign(LABELS[code], part[code]);
}

/** Every label by language (read-only use: the tests compare a page's text against it). */
export const CATALOGUE = LABELS;

let language =
  localStorage.getItem("king.lang") || ((navigator.language || "").toLowerCase().startsWith("tr") ? "tr" : "en");

export function lang() {
  return language;
}

export function setLang(value) {
  language = value === "tr" ? "tr" : "en";
  localStorage.setItem("king.lang", language);
  document.documentElement.lang = language;
}

export function t(key) {
  return LABELS[language][key] ?? LABELS.en[key] ?? key;
}

/** A label by key when the catalogue has one, else `fallback` (a code the client shows as is). */
function known(key, fallback) {
  return LABELS[language][key] ?? LABELS.en[key] ?? fallback;
}

export function contractLabel(code, trump) {
  if (!code) return "—";
  // international: "trump:S"; its other contracts have their names in the catalogue.
  if (code.startsWith("trump:")) return `${t("contract_trump_intl")} ${SUIT_SYMBOLS[code[6]] || code[6]}`;
  const name = CONTRACT_NAMES[code] || known(`contract_${code}`, code);
  return code === "trump" && trump ? `${name} ${SUIT_SYMBOLS[trump] || trump}` : name;
}

/** A ruleset's name for people ("standard" -> "Standart"); an unknown one shows its code. */
export const rulesetLabel = (name) => known(`ruleset_${name}`, name);
/** A bot level ("easy" -> "kolay"). */
export const levelLabel = (level) => known(`level_${level}`, level);
/** A table's or match's status: waiting, active, finished, aborted. */
export const statusLabel = (status) => known(`status_${status}`, status);
/** How a match ended (a finished match's `outcome`): finished, forfeit, aborted. */
export const outcomeLabel = (outcome) => known(`outcome_${outcome}`, outcome);

// ------------------------------------------------------------------ card names

const RANK_CODES = "23456789TJQKA";
const SUIT_CODES = "CDHS";
// Turkish as players say it: the suit, then the rank with its possessive ("kupa onlusu",
// "maça kızı"). The jack is "vale" (some say "oğlan"; the contract is Erkek Almaz either way).
const CARD_WORDS = {
  en: {
    suits: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
    ranks: { 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
      T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" },
  },
  tr: {
    suits: { C: "sinek", D: "karo", H: "kupa", S: "maça" },
    ranks: { 2: "ikilisi", 3: "üçlüsü", 4: "dörtlüsü", 5: "beşlisi", 6: "altılısı", 7: "yedilisi",
      8: "sekizlisi", 9: "dokuzlusu", T: "onlusu", J: "valesi", Q: "kızı", K: "papazı", A: "ası" },
  },
};

/** A card code as an id 0..51 (suit * 13 + rank, the engine's numbering) or "QH"/"10H". */
function cardCodeOf(card) {
  if (Number.isInteger(card) && card >= 0 && card < 52) {
    return RANK_CODES[card % 13] + SUIT_CODES[Math.floor(card / 13)];
  }
  const text = String(card ?? "").trim().toUpperCase();
  return text.startsWith("10") ? `T${text.slice(2)}` : text;
}

/**
 * cardName(code, language = lang()) -> the card as players say it: "QH" -> "queen of hearts" /
 * "kupa kızı", "TH" or "10H" -> "ten of hearts" / "kupa onlusu". Also takes the engine's card
 * id (0..51). Anything else comes back unchanged.
 */
export function cardName(code, language_ = language) {
  const words = CARD_WORDS[language_] || CARD_WORDS.en;
  const text = cardCodeOf(code);
  const rank = words.ranks[text[0]];
  const suit = words.suits[text[1]];
  if (text.length !== 2 || !rank || !suit) return String(code ?? "");
  return language_ === "tr" ? `${suit} ${rank}` : `${rank} of ${suit}`;
}

const capital = (text) => text.charAt(0).toLocaleUpperCase(language) + text.slice(1);

// ------------------------------------------------------------------ error messages

// One message per code of services/game/king_game/errorcodes.py (tests/web/test_turkish.py
// checks the table against it), plus the rating service's and the client's own: [en, tr].
const ERROR_MESSAGES = {
  validation_failed: ["Some fields are not right", "Bazı alanlar hatalı"],
  bad_request: ["The request could not be read", "İstek okunamadı"],
  payload_too_large: ["The request is too large", "İstek çok büyük"],
  request_timeout: ["The request came too slowly: please try again", "İstek çok yavaş geldi: lütfen yeniden dene"],
  uri_too_long: ["The address is too long", "Adres çok uzun"],
  request_header_fields_too_large: ["The request headers are too large", "İstek başlıkları çok büyük"],
  unsupported_media_type: ["The request is not JSON", "İstek JSON değil"],
  method_not_allowed: ["That action does not exist here", "Bu işlem burada yok"],
  not_found: ["Not found: no such table or match", "Bulunamadı: böyle bir masa ya da maç yok"],
  rate_limited: ["Too many requests: wait a moment and try again", "Çok fazla istek: biraz bekleyip yeniden dene"],
  unauthenticated: ["Please sign in again", "Lütfen yeniden giriş yap"],
  token_expired: ["Your sign-in has expired: please sign in again", "Oturumunun süresi doldu: lütfen yeniden giriş yap"],
  invalid_credentials: ["Wrong name or password", "Ad ya da şifre yanlış"],
  forbidden: ["You may not do that", "Bunu yapamazsın"],
  not_seated: ["You do not sit at this match", "Bu maçta oturmuyorsun"],
  name_taken: ["That name is taken: choose another", "Bu ad alınmış: başka bir ad seç"],
  bad_table: ["These table settings are not possible", "Bu masa ayarları olmaz"],
  bad_seed: ["This device's seed is not valid", "Bu cihazın tohumu geçersiz"],
  seed_before_commit: ["A seed may only be sent after the commitment", "Tohum ancak taahhütten sonra gönderilebilir"],
  seat_taken: ["That seat is taken", "Bu koltuk dolu"],
  table_full: ["The table is full or its match has started", "Masa dolu ya da maç başladı"],
  already_seated: ["You already sit at this table", "Bu masada zaten oturuyorsun"],
  table_started: ["The match has started: resign instead of leaving", "Maç başladı: kalkmak yerine çekil"],
  seat_reserved: ["This table's seats are held for its quick-match players", "Bu masanın koltukları hızlı oyun oyuncularına ayrıldı"],
  already_queued: ["You are already waiting in another quick match", "Zaten başka bir hızlı oyunda bekliyorsun"],
  already_playing: ["You are playing a live match: finish or resign it first", "Canlı bir maç oynuyorsun: önce bitir ya da çekil"],
  table_found: ["A table is waiting for you: accept it or cancel", "Seni bir masa bekliyor: kabul et ya da vazgeç"],
  no_table_found: ["No table is waiting for you", "Seni bekleyen masa yok"],
  table_expired: ["The table was closed before you accepted", "Masa sen kabul etmeden kapandı"],
  not_your_turn: ["It is not your turn", "Sıra sende değil"],
  wrong_phase: ["Not now: another move is due (a contract, a call or a card)", "Şimdi olmaz: sırada başka bir hamle var (oyun seçimi, bir cevap ya da kart)"],
  match_not_started: ["The match has not started yet", "Maç daha başlamadı"],
  match_not_over: ["The match is not over yet", "Maç daha bitmedi"],
  match_over: ["The match has ended", "Maç bitti"],
  seat_forfeited: ["You forfeited: the computer plays your seat", "Hükmen kaybettin: koltuğunu bilgisayar oynuyor"],
  stale_version: ["The table moved on: try again", "Masa ilerledi: yeniden dene"],
  card_not_in_hand: ["You do not hold that card", "Bu kart elinde yok"],
  illegal_card: ["That card is not allowed here", "Bu kart burada oynanamaz"],
  contract_unavailable: ["That contract is not available", "Bu oyun seçilemez"],
  bad_move: ["That move cannot be read", "Bu hamle okunamadı"],
  bad_card: ["That is not a card", "Bu bir kart değil"],
  bad_suit: ["That is not a suit", "Bu bir renk değil"],
  unknown_contract: ["No such contract", "Böyle bir oyun yok"],
  trump_required: ["Koz needs a trump suit", "Koz için koz rengi seçilmeli"],
  contract_cap_reached: ["That penalty was played twice already", "Bu ceza iki kez oynandı"],
  no_penalty_picks_left: ["Your three penalty picks are used", "Üç ceza hakkını kullandın"],
  no_koz_picks_left: ["Your two Koz picks are used", "İki koz hakkını kullandın"],
  koz_not_yet: ["The first four hands are penalties", "İlk dört el cezalıdır"],
  penalty_required_after_redeal: ["A redealt hand must be a penalty", "Yeniden dağıtılan elde ceza seçilmeli"],
  not_eligible_for_redeal: ["You may not ask for a redeal now", "Şimdi yeniden dağıtım isteyemezsin"],
  illegal_call: ["You may not make that call", "Bu konuşmayı yapamazsın"],
  pass_not_allowed: ["The server passes for you when no card is playable", "Oynanacak kart yoksa sunucu senin yerine pas geçer"],
  already_passed: ["You passed: you bid no more in this auction", "Pas dedin: bu artırmada artık teklif veremezsin"],
  bid_too_low: ["A bid must beat the top bid", "Teklif en yüksek teklifi geçmeli"],
  match_not_allowed: ["Only a player with priority may match the top bid", "En yüksek teklife yalnız öncelikli oyuncu eşitleyebilir"],
  bid_off_ladder: ["That bid is not on this deck's ladder", "Bu teklif bu destenin basamaklarında yok"],
  accept_not_allowed: ["There is no bid to accept", "Kabul edilecek teklif yok"],
  refuse_not_allowed: ["The top bid cannot be refused", "En yüksek teklif reddedilemez"],
  annul_not_allowed: ["The bids are too high to annul the hand", "Teklifler eli iptal etmek için fazla yüksek"],
  ultimatum_too_low: ["An ultimatum must ask more than the top bid", "Ültimatom en yüksek tekliften fazlasını istemeli"],
  contract_not_allowed: ["You may not name that contract", "Bu oyunu söyleyemezsin"],
  trump_not_allowed: ["A penalty contract has no trump suit", "Ceza oyununda koz rengi olmaz"],
  idempotency_key_reused: ["That request was already sent with other contents", "Bu istek başka içerikle zaten gönderildi"],
  busy: ["The table is busy: try again", "Masa meşgul: yeniden dene"],
  service_unavailable: ["The service is unavailable: try again shortly", "Hizmet şu anda yok: birazdan yeniden dene"],
  internal_error: ["Something went wrong on our side", "Bizim tarafta bir hata oldu"],
  match_not_found: ["No such match", "Böyle bir maç yok"],
  not_bot_seat: ["Something went wrong on our side", "Bizim tarafta bir hata oldu"],
  unknown_ruleset: ["No such ruleset", "Böyle bir kural takımı yok"],
  bad_match_length: ["The ruleset does not play that many hands", "Bu kurallar bu kadar el oynatmaz"],
  bad_option: ["The ruleset has no such option", "Bu kurallarda böyle bir seçenek yok"],
  bad_match_id: ["No such match", "Böyle bir maç yok"],
  bad_seat: ["No such seat", "Böyle bir koltuk yok"],
  bad_state: ["Something went wrong on our side", "Bizim tarafta bir hata oldu"],
  // the rating service (through the client's proxy) and the client itself
  rating_unavailable: ["The rating service is unavailable", "Puan hizmeti şu anda yok"],
  database_unavailable: ["The rating database is unavailable", "Puan veritabanı şu anda yok"],
  player_not_found: ["No such player", "Böyle bir oyuncu yok"],
  network: ["No connection to the server", "Sunucuya bağlanılamadı"],
};

/** Why a card was refused (`details.rule` of illegal_card). */
const RULE_MESSAGES = {
  follow_suit: ["you must follow the suit led", "açılan rengi izlemelisin"],
  penalty_discard: ["you cannot follow suit, so you must throw a penalty card", "açılan renk yoksa ceza kartı atmalısın"],
  hearts_not_broken: ["hearts may not be led before one has been played", "kupa atılmadan kupa açılamaz"],
  must_trump: ["you cannot follow suit, so you must trump", "açılan renk yoksa koz çakmalısın"],
  must_overtrump: ["you must play a higher trump", "daha büyük koz atmalısın"],
  no_trump_first_trick: ["no trump on the first trick", "ilk lövede koz atılmaz"],
  trump_not_broken: ["trumps may not be led before one has been played", "koz atılmadan koz açılamaz"],
  highest_heart: ["with only hearts left you must lead the highest", "elinde yalnız kupa varsa en büyüğünü açmalısın"],
  must_play_heart: ["you cannot follow suit, so you must play a heart", "açılan renk yoksa kupa atmalısın"],
  durt_layout: ["the card must open its suit at the named rank or extend a row", "kart, rengini söylenen sayıyla açmalı ya da sırayı uzatmalı"],
  heart_lead: ["a heart may be led only when you hold nothing else", "elinde başka kart yoksa kupa açabilirsin"],
  king_of_hearts_lead: ["the king of hearts may be led only as your last card", "kupa papazı ancak son kartınsa açılır"],
  must_play_king_of_hearts: ["you cannot follow suit, so you must play the king of hearts", "açılan renk yoksa kupa papazını atmalısın"],
};

/** Why a contract is refused (`details.reason` of contract_unavailable). */
const REASON_MESSAGES = {
  quota: ["you have used all your picks of it", "bunu seçme hakkın bitti"],
  cap: ["it has been played as often as the match allows", "maçta oynanabileceği kadar oynandı"],
  trump_quota: ["you have chosen Koz as often as you may", "Koz seçme hakkın bitti"],
};

const pick = (pair) => (pair ? pair[language === "tr" ? 1 : 0] : null);

/** The error catalogue as [en, tr] pairs (the tests check it covers the service's table). */
export const ERROR_CATALOGUE = { codes: ERROR_MESSAGES, rules: RULE_MESSAGES, reasons: REASON_MESSAGES };

// marshmallow's and the game service's field messages we know, as [pattern, en, tr builder].
const FIELD_MESSAGES = [
  [/^Length must be between (\d+) and (\d+)\.$/, (m) => [`${m[1]} to ${m[2]} characters`, `${m[1]}–${m[2]} karakter olmalı`]],
  [/^Shorter than minimum length (\d+)\.$/, (m) => [`at least ${m[1]} characters`, `en az ${m[1]} karakter olmalı`]],
  [/^Longer than maximum length (\d+)\.$/, (m) => [`at most ${m[1]} characters`, `en çok ${m[1]} karakter olmalı`]],
  [/^at most (\d+) characters$/, (m) => [`at most ${m[1]} characters`, `en çok ${m[1]} karakter olmalı`]],
  [/^Missing data for required field\.$/, () => ["required", "gerekli"]],
  [/^the name needs a visible character$/, () => ["needs a visible character", "görünür bir karakter gerekli"]],
  [/^the name may not contain/, () => ["contains a character that is not allowed", "izin verilmeyen bir karakter içeriyor"]],
  [/^Not a valid (string|integer|boolean)\.$/, () => ["not a valid value", "geçersiz değer"]],
  [/^Must be one of: (.*)\.$/, (m) => [`must be one of: ${m[1]}`, `şunlardan biri olmalı: ${m[1]}`]],
];

function fieldMessage(text) {
  for (const [pattern, build] of FIELD_MESSAGES) {
    const match = pattern.exec(String(text));
    if (match) return pick(build(match));
  }
  return String(text); // a message we do not know: the service's own words
}

/** The `errors` of a problem (field -> messages, possibly nested) as "Field: message" lines. */
export function fieldErrors(error) {
  const errors = error?.body?.errors;
  if (!errors || typeof errors !== "object") return [];
  const lines = [];
  const walk = (value, field) => {
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
      const label = field ? known(`field_${field}`, field) : "";
      for (const text of value) lines.push(label ? `${label}: ${fieldMessage(text)}` : fieldMessage(text));
    } else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) walk(inner, /^\d+$/.test(key) ? field : key);
    } else if (typeof value === "string") {
      walk([value], field);
    }
  };
  walk(errors, "");
  return lines;
}

/**
 * errorMessage(error) -> a sentence in the player's language for an ApiError (api.js): its
 * stable `code` looked up here, with the card and the rule of illegal_card, the reason of
 * contract_unavailable, and the field messages of validation errors. A code we do not know
 * keeps the service's own `detail`.
 */
export function errorMessage(error) {
  const code = error?.code;
  const details = error?.details || {};
  if (code === "illegal_card") {
    const rule = pick(RULE_MESSAGES[details.rule]);
    const card = details.card !== undefined ? capital(cardName(details.card)) : null;
    if (card && rule) return language === "tr" ? `${card} oynanamaz: ${rule}` : `${card} is not allowed: ${rule}`;
    if (rule) return `${pick(ERROR_MESSAGES.illegal_card)}: ${rule}`;
  }
  if (code === "contract_unavailable" && REASON_MESSAGES[details.reason]) {
    return `${pick(ERROR_MESSAGES.contract_unavailable)}: ${pick(REASON_MESSAGES[details.reason])}`;
  }
  if (code === "card_not_in_hand" && details.card !== undefined) {
    const card = cardName(details.card);
    return language === "tr" ? `${capital(card)} elinde yok` : `You do not hold the ${card}`;
  }
  const fields = fieldErrors(error);
  if (fields.length) return fields.join("; ");
  return pick(ERROR_MESSAGES[code]) || error?.message || String(error ?? "");
}
