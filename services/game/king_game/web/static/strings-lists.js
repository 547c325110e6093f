// The lists pages' labels, Turkish and English (merged into i18n.js's catalogue): the lobby,
// the weekly board, the ladder, a profile and the match replay. `{n}`-style holes are filled by
// `fmt` in the page modules.

export const STRINGS = {
  en: {
    // lobby
    play_now_title: "Play now",
    play_now_text: "8 hands of the standard rules against three computer players (easy). It starts at once.",
    play_now_button: "Play now against the computer",
    computer_unrated:
      "Matches against the computer are practice: they are not rated and do not count on the weekly board.",
    lobby_auto: "This list updates by itself: a new table shows up as soon as somebody sits at it.",
    table_row: "{ruleset} · {hands} hands · {taken}/4 seated",
    table_by: "at the table: {names}",
    my_matches_none: "You have no matches yet. Press Play now, or sit at a live table.",
    recent_matches: "Recently ended",
    hands_n: "{n} hands",
    their_turn: "Waiting for the others to play",
    waiting_seated: "Waiting for players · {taken}/4 seated",
    move_by: "move by {time}",
    ended_finished: "Finished",
    ended_forfeit: "Ended by a forfeit",
    ended_aborted: "Aborted",
    you_forfeited_short: "you forfeited",
    open_table: "Open the table",
    replay: "Replay",
    opponents: "Opponents",
    nobody_yet: "Nobody else yet",
    // boards
    weekly_about:
      "The weekly board ranks this week's rated matches (Monday to Monday, Istanbul time). Places earn 3, 2, 1 and 0 points; the score is (points + 15) / (matches + 10), so a few lucky matches do not top the board.",
    weekly_how:
      "To get on it, play at least 5 rated matches this week. A match is rated when four people play it at a live table.",
    weekly_empty: "Nobody is on this week's board yet.",
    ladder_about:
      "The ladder lists players by rating once they have 15 rated matches and played one in the last 30 days.",
    ladder_how: "To get on it, play 15 rated matches: live tables of four people.",
    ladder_empty: "Nobody is on the ladder yet.",
    go_play: "Go to the lobby",
    provisional_explained:
      "A question mark after a rating (1500?) means it is provisional: fewer than 15 rated matches, so it still moves a lot after each match and says little yet.",
    provisional_count: "Provisional: {n} of 15 rated matches played.",
    rating_settled: "Settled: 15 or more rated matches.",
    rating_start: "Everyone starts at 1500.",
    profile_new:
      "No finished match on record yet. Everyone starts at 1500? — provisional until 15 rated matches.",
    profile_matches: "Matches",
    profile_no_matches: "No finished matches yet.",
    rated_tag: "rated",
    unrated_tag: "not rated",
    place_n: "place {n}",
    // history
    history: "Match replay",
    hand_n: "Hand {n}",
    trick_n: "Trick {n} of {m}",
    replay_leads: "leads",
    replay_takes: "takes it",
    trick_points: "{points} points to {name}",
    replay_hand_points: "This hand",
    unfinished_trick: "The match ended during this trick.",
    no_hands: "No hand was played in this match.",
    not_over: "This match has not ended: its seeds are revealed when it ends.",
    standings_rule:
      "How places are decided: the higher total is better and equal totals share a place. A player who forfeited (resigned or ran out of time) is placed below everyone who stayed, in the order they left: the first to leave is last.",
    left_nth: "forfeited · left {n}.",
    verify_public:
      "Re-dealt on this device from the revealed seeds: every card played was dealt to its player, once. This device did not sit at this match, so it cannot confirm that the commitment was published before play or check a seed of its own.",
    outcome: "Outcome",
  },
  tr: {
    play_now_title: "Hemen oyna",
    play_now_text: "Üç bilgisayar oyuncusuna (kolay) karşı standart kurallarla 8 el. Hemen başlar.",
    play_now_button: "Bilgisayara karşı hemen oyna",
    computer_unrated:
      "Bilgisayara karşı maçlar antrenmandır: puanlanmaz ve haftalık tabloya sayılmaz.",
    lobby_auto: "Bu liste kendiliğinden yenilenir: biri oturduğu anda yeni masa burada görünür.",
    table_row: "{ruleset} · {hands} el · {taken}/4 dolu",
    table_by: "masada: {names}",
    my_matches_none: "Henüz maçın yok. Hemen oyna'ya bas ya da canlı bir masaya otur.",
    recent_matches: "Yeni biten maçlar",
    hands_n: "{n} el",
    their_turn: "Diğerlerinin oynaması bekleniyor",
    waiting_seated: "Oyuncular bekleniyor · {taken}/4 dolu",
    move_by: "son hamle {time}",
    ended_finished: "Bitti",
    ended_forfeit: "Hükmen bitti",
    ended_aborted: "Yarıda kaldı",
    you_forfeited_short: "hükmen kaybettin",
    open_table: "Masaya git",
    replay: "Tekrar izle",
    opponents: "Rakipler",
    nobody_yet: "Henüz başka kimse yok",
    weekly_about:
      "Haftalık tablo bu haftanın puanlı maçlarını sıralar (pazartesiden pazartesiye, İstanbul saati). Sıralar 3, 2, 1 ve 0 puan getirir; skor (puan + 15) / (maç + 10) olduğundan birkaç şanslı maç tablonun başına geçirmez.",
    weekly_how:
      "Tabloya girmek için bu hafta en az 5 puanlı maç oyna. Canlı bir masada dört kişinin oynadığı maç puanlıdır.",
    weekly_empty: "Bu haftanın tablosunda henüz kimse yok.",
    ladder_about:
      "Genel sıralama, 15 puanlı maçı olan ve son 30 günde puanlı maç oynamış oyuncuları puana göre dizer.",
    ladder_how: "Sıralamaya girmek için 15 puanlı maç oyna: dört kişilik canlı masalar.",
    ladder_empty: "Genel sıralamada henüz kimse yok.",
    go_play: "Lobiye git",
    provisional_explained:
      "Puanın ardındaki soru işareti (1500?) puanın geçici olduğunu söyler: 15'ten az puanlı maç; puan her maçtan sonra hâlâ çok değişir ve henüz pek bir şey söylemez.",
    provisional_count: "Geçici: 15 puanlı maçın {n} tanesi oynandı.",
    rating_settled: "Kesin: 15 ya da daha çok puanlı maç.",
    rating_start: "Herkes 1500'den başlar.",
    profile_new:
      "Henüz kayıtlı biten maç yok. Herkes 1500? ile başlar — 15 puanlı maça kadar geçici.",
    profile_matches: "Maçlar",
    profile_no_matches: "Henüz biten maç yok.",
    rated_tag: "puanlı",
    unrated_tag: "puansız",
    place_n: "{n}. sıra",
    history: "Maç tekrarı",
    hand_n: "{n}. el",
    trick_n: "Löve {n} / {m}",
    replay_leads: "açar",
    replay_takes: "alır",
    trick_points: "{name}: {points} puan",
    replay_hand_points: "Bu el",
    unfinished_trick: "Maç bu löve sırasında bitti.",
    no_hands: "Bu maçta hiç el oynanmadı.",
    not_over: "Bu maç bitmedi: tohumlar maç bitince açıklanır.",
    standings_rule:
      "Sıralama: yüksek toplam öndedir, eşit toplamlar aynı sırayı paylaşır. Hükmen kaybeden (çekilen ya da süresi biten) oyuncu, kalan herkesin altına, ayrılış sırasıyla yerleşir: ilk ayrılan en sondadır.",
    left_nth: "hükmen · {n}. ayrılan.",
    verify_public:
      "Açıklanan tohumlarla bu cihazda yeniden dağıtıldı: oynanan her kart oyuncusuna dağıtılmıştı ve bir kez oynandı. Bu cihaz bu maçta oturmadı; taahhüdün oyundan önce yayımlandığını ya da kendi tohumunu doğrulayamaz.",
    outcome: "Sonuç",
  },
};

/** A label with its `{name}` holes filled from `values`. */
export function fmt(text, values = {}) {
  return String(text).replace(/\{(\w+)\}/g, (hole, key) => (key in values ? String(values[key]) : hole));
}
