// The messages of the page's socket, as bot/activity/state.py and server.py write them.

export type Words = Record<string, string>;

export interface Move {
  key: string;
  label: string;
  kind: string;
  card: string | null;
  target: string | null;
  style: string;
}

export interface Player {
  seat: number;
  name: string;
  score: number | null;
  turn: boolean;
  dealer: boolean;
  hand: number | null;
  badges: string[];
  progress: string[];
  captured: string[];
  team: number | null;
  shown: string[];
  stack: number | null;
  bet: number | null;
  status: string;
  out: boolean;
  hand_name: string;
  pi: number | null;
  hand_text: string;
  score_text: string;
}

export interface SummaryRow {
  player: string;
  name: string;
  cards: string[];
  points: number;
}

export interface ShownHand {
  player: string;
  name: string;
  cards: string[];
  detail: string;
  won: number;
  net: number;
  winner: boolean;
  note: string;
}

export interface Summary {
  key: string;
  title: string;
  rows: SummaryRow[];
  multipliers: string[];
  lines: string[];
  hands: ShownHand[];
  pots: string[];
  banner: string;
}

export interface State {
  type: "state";
  language: string;
  // daily: a game of the day's deal, which its player alone sees
  game: { id: number; kind: string; name: string; title: string; seq: number; over: boolean; footer: string;
          daily: boolean };
  you: { seat: number | null };
  players: Player[];
  field: string[];
  stock: number | null;
  drawn: string | null;
  highlight: string[];
  korean: boolean;
  discard: { top: string | null; count: number } | null;
  pots: [string, number, string][];
  to_call: number | null;
  stage: string;
  log: string[];
  last: string;
  turn: { seat: number | null; text: string; deadline: number | null; now: number };
  // achievements: what the game earned its players, one line ("" when nothing); series: the
  // tally of the rematches it ends ("" when it replays no game); daily: where a game of the
  // day's deal came on the day's board, and the player's run of days ("" for any other game);
  // share: the words its player may share with the Activity's link (their result, no card)
  result: { text: string; achievements: string; series: string; daily: string; share: string } | null;
  summary: Summary | null;
  race: { text: string; can_slap: boolean } | null;
  hand: { cards: string[]; playable: string[]; legend: string; caption: string } | null;
  moves: Move[];
  prompt: string;
  fields: [string, string][];
  hint: boolean;
  again: boolean;
  cards: Record<string, string>;
}

// The search's prices of the player's turn (bot/tables/hints.py), for the turn it was asked at.
export interface Hint {
  type: "hint";
  n: number;
  game: number;
  seq: number;
  title: string;
  lines: string[];
  note: string;
}

// How a game is played, the rules it is played by where the page is, its yaku sheet and its cards.
export interface Rules {
  type: "rules";
  n: number;
  game: string;
  title: string;
  text: string;
  house_title: string;
  house: string;
  sheet: string;
  sheet_alt: string;
  cards_title: string;
  cards: string;
  cards_alt: string;
}

// The board of today's deal of a game: its first places and the reader's.
export interface Board {
  type: "board";
  n: number;
  game: string;
  title: string;
  subtitle: string;
  rows: { place: string; name: string; value: string; me: boolean }[];
  note: string;
  seal: string;
}

export interface LobbyGame {
  id: string;
  name: string;
  low: number;
  high: number;
}

export interface Lobby {
  games: LobbyGame[];
  levels: { id: string; name: string }[];
  // rematch: the seats are for the players of a finished game, to play it again by its rules;
  // closed: why this page may not take one (it did not play that game)
  open: { game: string; name: string; seats: number; taken: string[]; mine: boolean; host: boolean;
          rematch: boolean; text: string; closed: string | null } | null;
}

export type FromServer =
  | State
  | { type: "welcome"; user: { id: string; name: string }; language: string; words: Words }
  | { type: "idle"; language: string; lobby: Lobby | null; why?: string }
  | { type: "played"; n: number }
  | Hint
  | Rules
  | Board
  // how the reader stands with today's deal of each game they started here (a line each)
  | { type: "today"; games: Record<string, string> }
  | { type: "refused"; n: number | null; code: string; text: string }
  | { type: "warn"; seconds: number; text: string }
  | { type: "error"; code: string; text: string };

export type ToServer =
  | { type: "hello"; v: 1; session: string; instance: string }
  | { type: "press"; game: number; seq: number; key: string; n: number }
  | { type: "slap"; game: number; n: number }
  | { type: "hint"; game: number; n: number }
  | { type: "rules"; play: string; n: number }
  | { type: "board"; play: string; n: number }
  | { type: "ai"; play: string; level: string; rounds: number; n: number }
  | { type: "open"; play: string; seats: number; rounds: number; n: number }
  | { type: "sit"; n: number }
  | { type: "unseat"; n: number }
  | { type: "again"; n: number }
  | { type: "lobby"; n: number }
  | { type: "daily"; play: string; n: number };

// A lobby message as the view asks for it; the page adds the nonce.
export type LobbyAsk =
  | { type: "ai"; play: string; level: string; rounds: number }
  | { type: "open"; play: string; seats: number; rounds: number }
  | { type: "sit" }
  | { type: "unseat" }
  | { type: "again" }
  | { type: "lobby" }
  | { type: "daily"; play: string };
