// Draws one state into the page: the table at the top, the player's hand under the thumb.
// Every card is a picture from the server's card art with its name in the reader's language;
// a card that can capture, or that just moved, carries a shape besides its colour.

import { fill, h } from "./dom";
import type { Board, Hint, Lobby, LobbyAsk, Move, Player, Rules, State, Summary, Words } from "./protocol";

export interface Actions {
  press(move: Move): void;
  slap(): void;
  hint(): void;
  ask(ask: LobbyAsk): void;
  rules(game: string): void;
  board(game: string): void;
  share(message: string, game: string): void;
  invite(): void;
}

// The marks the rules' texts are written with (bold, italics, code), as elements: never as HTML.
const MARKS = /(\*\*[^*]+\*\*|\*[^*\s][^*]*\*|`[^`]+`)/;

function marked(line: string): (HTMLElement | string)[] {
  return line.split(MARKS).filter(Boolean).map((part) =>
    part.startsWith("**") && part.length > 4 ? h("strong", {}, part.slice(2, -2))
      : part.startsWith("`") && part.length > 2 ? h("code", {}, part.slice(1, -1))
        : part.startsWith("*") && part.length > 2 ? h("em", {}, part.slice(1, -1)) : part);
}

export class View {
  words: Words = {};
  private state: State | null = null;
  private dismissed = "";
  private received = 0;
  private timer = 0;
  private shown = 0;
  // The lobby's last choices, so that the next game is one press away after a finished one.
  private chosen: Record<string, string> = {};
  // How the reader stands with today's deal of each game, by game (none: not started).
  private standing: Record<string, string> = {};
  // The game of a shared result the page was launched through: the first lobby shows its deal
  // of the day, if it offers that game.
  private arriving = "";

  constructor(private root: HTMLElement, private dialog: HTMLDialogElement, private status: HTMLElement,
              private actions: Actions) {}

  setWords(words: Words, language: string): void {
    this.words = words;
    document.documentElement.lang = language;
  }

  say(text: string): void {
    this.status.textContent = text;
  }

  // The page was opened through a member's shared result of ``game``'s deal of the day.
  arrivedFor(game: string): void {
    this.arriving = game;
  }

  idle(lobby: Lobby | null, why: string): void {
    this.state = null;
    this.root.dataset.seq = "";
    this.root.dataset.over = "";
    if (!lobby) {
      this.root.replaceChildren(h("p", { class: "idle" }, why || (this.words.idle ?? "")));
      return;
    }
    const arriving = lobby.games.some((g) => g.id === this.arriving);
    if (arriving) this.chosen.game = this.arriving;
    this.arriving = "";
    this.root.replaceChildren(this.lobby(lobby));
    if (arriving) {
      const play = this.root.querySelector<HTMLElement>('[data-key="lobby:daily"]');
      play?.scrollIntoView({ block: "center" });
      play?.focus();
    }
  }

  // The lobby: the seats open in this channel, else a game, its length and an opponent.
  private lobby(lobby: Lobby): HTMLElement {
    const w = this.words;
    const open = lobby.open;
    if (open) {
      return h("section", { class: "lobby", "aria-label": w.lobby },
        h("h1", {}, open.name),
        h("p", { class: "seats", "aria-live": "polite" }, open.text),
        h("ul", { class: "taken" }, ...open.taken.map((name) => h("li", {}, name))),
        open.mine ? h("p", {}, w.waiting) : null,
        // a seated player brings friends in through Discord's own window; the others sit down
        open.mine ? h("button", { class: "move primary", "data-key": "lobby:invite", onclick: () => this.actions.invite() }, w.invite)
          : open.closed ? h("p", { class: "closed" }, open.closed)
          : h("button", { class: "move primary", "data-key": "lobby:sit", onclick: () => this.actions.ask({ type: "sit" }) }, w.take_seat),
        // the host closes the seats; anyone else seated gives theirs up
        open.mine ? h("button", { class: "move", "data-key": "lobby:unseat", onclick: () => this.actions.ask({ type: "unseat" }) },
          open.host ? w.cancel : w.leave) : null);
    }
    const game = h("select", { id: "lobby-game", "data-key": "lobby:game" },
      ...lobby.games.map((g) => h("option", { value: g.id }, g.name))) as HTMLSelectElement;
    const length = h("select", { id: "lobby-length", "data-key": "lobby:length" },
      h("option", { value: "1" }, w.one_round), h("option", { value: "0" }, w.full_match)) as HTMLSelectElement;
    const level = h("select", { id: "lobby-level", "data-key": "lobby:level" },
      ...lobby.levels.map((l) => h("option", { value: l.id, selected: l.id === "normal" }, l.name))) as HTMLSelectElement;
    const players = h("select", { id: "lobby-players", "data-key": "lobby:players" }) as HTMLSelectElement;
    const seatsOf = (): void => {
      const chosen = lobby.games.find((g) => g.id === game.value) ?? lobby.games[0];
      players.replaceChildren(...Array.from({ length: chosen.high - chosen.low + 1 }, (_, i) =>
        h("option", { value: String(chosen.low + i) }, String(chosen.low + i))));
    };
    game.addEventListener("change", seatsOf);
    game.addEventListener("change", () => this.showToday(game.value));
    this.restore(game, "game");
    seatsOf();
    this.restore(length, "length");
    this.restore(level, "level");
    this.restore(players, "players");
    for (const [name, control] of [["game", game], ["length", length], ["level", level], ["players", players]] as const) {
      control.addEventListener("change", () => { this.chosen[name] = control.value; });
    }
    const rounds = (): number => Number(length.value);
    const field = (label: string, control: HTMLElement): HTMLElement =>
      h("p", { class: "field-row" }, h("label", { for: control.id }, label), control);
    return h("section", { class: "lobby", "aria-label": w.lobby },
      h("h1", {}, w.lobby),
      field(w.game, game),
      h("button", { class: "move link", "data-key": "lobby:rules", onclick: () => this.actions.rules(game.value) }, w.how_to_play),
      field(w.length, length),
      h("div", { class: "choice" }, field(w.level, level),
        h("button", { class: "move primary", "data-key": "lobby:ai",
          onclick: () => this.actions.ask({ type: "ai", play: game.value, level: level.value, rounds: rounds() }) }, w.play_ai)),
      h("div", { class: "choice" }, field(w.players, players),
        h("button", { class: "move", "data-key": "lobby:open",
          onclick: () => this.actions.ask({ type: "open", play: game.value, seats: Number(players.value), rounds: rounds() }) }, w.open_seats)),
      // the chosen game's deal of the day: the same cards for every member, played alone
      h("section", { class: "daily", "aria-label": w.daily },
        h("h2", {}, `🌅 ${w.daily}`),
        h("p", {}, w.daily_text),
        h("p", { class: "today", id: "lobby-today", "aria-live": "polite" }, this.standing[game.value] ?? ""),
        h("button", { class: "move", "data-key": "lobby:daily",
          onclick: () => this.actions.ask({ type: "daily", play: game.value }) }, w.play_daily),
        h("button", { class: "move link", "data-key": "lobby:board", onclick: () => this.actions.board(game.value) }, w.daily_board)));
  }

  // How the reader stands with today's deals, as the server last said; shown for the game chosen.
  today(games: Record<string, string>): void {
    this.standing = games;
    const chosen = document.getElementById("lobby-game") as HTMLSelectElement | null;
    if (chosen) this.showToday(chosen.value);
  }

  private showToday(game: string): void {
    const line = document.getElementById("lobby-today");
    if (line) line.textContent = this.standing[game] ?? "";
  }

  // A lobby choice as last made, when the lobby still offers it.
  private restore(control: HTMLSelectElement, name: string): void {
    const value = this.chosen[name];
    if (value !== undefined && Array.from(control.options).some((o) => o.value === value)) control.value = value;
  }

  show(state: State): void {
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.key;
    this.state = state;
    this.received = Date.now();
    this.root.dataset.seq = String(state.game.seq); // what a test (or a stylesheet) reads
    this.root.dataset.over = state.game.over ? "1" : "0";
    this.root.dataset.shown = String(++this.shown); // states drawn since the page opened
    this.root.replaceChildren(...this.table(state), ...this.mine(state));
    if (focused) this.root.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]`)?.focus();
    this.tick();
    window.clearInterval(this.timer);
    if (state.turn.deadline !== null) this.timer = window.setInterval(() => this.tick(), 1000);
    if (state.summary && state.summary.key !== this.dismissed && !this.dialog.open) this.summary(state.summary);
  }

  // -- pieces -----------------------------------------------------------------------------------
  private name(id: string): string {
    return this.state?.cards[id] ?? id;
  }

  private src(id: string): string {
    return `cards/${id}${this.state?.korean ? "_k" : ""}.png`;
  }

  private card(id: string, extra = ""): HTMLElement {
    const moved = this.state?.highlight.includes(id);
    const label = moved ? `${this.name(id)} (${this.words.moved})` : this.name(id);
    return h("span", { class: `card${moved ? " moved" : ""}${extra}`, role: "img", "aria-label": label, title: label },
      h("img", { src: this.src(id), alt: "", draggable: "false" }));
  }

  private pile(ids: string[], label: string): HTMLElement {
    return h("ul", { class: "pile", "aria-label": label }, ...ids.map((id) => h("li", {}, this.card(id, " small"))));
  }

  private table(state: State): HTMLElement[] {
    const w = this.words;
    const header = h("header", { class: "top" },
      h("h1", {}, state.game.title),
      state.game.daily ? h("p", { class: "tag" }, `🌅 ${w.daily}`) : null,
      h("button", { class: "move link rules", "data-key": "rules", onclick: () => this.actions.rules(state.game.kind) }, w.rules),
      h("p", { class: "turn", "aria-live": "polite" }, state.result ? "" : state.turn.text),
      h("p", { class: "clock", id: "clock", "aria-live": "off" }));
    const others = state.players.filter((p) => p.seat !== state.you.seat).map((p) => this.player(p));
    const field = h("section", { class: "field", "aria-label": w.field },
      h("h2", { class: "label" }, w.field),
      h("ul", { class: "cards" }, ...state.field.map((id) => h("li", {}, this.card(id)))),
      state.stock !== null ? h("p", { class: "stock", "aria-label": `${w.stock}: ${state.stock}` },
        h("span", { class: "card back small", "aria-hidden": "true" }, h("img", { src: "cards/back.png", alt: "" })),
        h("span", {}, `${w.stock} ${state.stock}`)) : null,
      state.drawn ? h("div", { class: "drawn" }, this.card(state.drawn)) : null,
      state.discard?.top ? h("div", { class: "discard" }, this.card(state.discard.top), h("span", {}, String(state.discard.count))) : null,
      state.pots.length ? h("ul", { class: "pots" }, ...state.pots.map(([label, , shown]) => h("li", {}, `${label}: ${shown}`))) : null);
    const last = h("section", { class: "log", "aria-label": w.log },
      h("p", { class: "last", "aria-live": "polite" }, state.result ? state.result.text : state.last),
      state.result?.achievements ? h("p", { class: "achievements" }, state.result.achievements) : null,
      state.result?.series ? h("p", { class: "series" }, state.result.series) : null,
      ...(state.result?.daily ?? "").split("\n").filter(Boolean).map((line) => h("p", { class: "daily-result" }, line)),
      state.result?.share ? h("button", { class: "move", "data-key": "daily:share",
        onclick: () => this.actions.share(state.result!.share, state.game.kind) }, `📣 ${w.share}`) : null,
      state.result?.daily ? h("button", { class: "move link", "data-key": "daily:board",
        onclick: () => this.actions.board(state.game.kind) }, w.daily_board) : null,
      state.again ? h("button", { class: "move primary", "data-key": "lobby:again",
        onclick: () => this.actions.ask({ type: "again" }) }, w.again) : null,
      state.game.over ? h("button", { class: state.again ? "move" : "move primary", "data-key": "lobby:back",
        onclick: () => this.actions.ask({ type: "lobby" }) }, w.new_game) : null,
      state.log.length > 1 ? h("details", {}, h("summary", {}, w.log),
        h("ol", {}, ...state.log.map((line) => h("li", {}, line)))) : null);
    return [header, h("section", { class: "others" }, ...others), field, last];
  }

  private player(p: Player): HTMLElement {
    const w = this.words;
    const facts = [
      p.score_text,
      p.hand_text,
      p.dealer ? w.dealer : "", ...p.badges, p.status, p.hand_name,
    ].filter(Boolean);
    return h("article", { class: `player${p.turn ? " turn" : ""}${p.out ? " out" : ""}` },
      h("h2", {}, p.turn ? h("span", { class: "mark", "aria-label": w.turn }, "▶ ") : null, p.name),
      h("p", { class: "facts" }, facts.join(" · ")),
      p.progress.length ? h("p", { class: "progress" }, p.progress.join(" · ")) : null,
      p.shown.length ? this.pile(p.shown, p.name) : null,
      p.captured.length ? this.pile(p.captured, `${w.captured}: ${p.name}`) : null);
  }

  private mine(state: State): HTMLElement[] {
    const w = this.words;
    const me = state.players.find((p) => p.seat === state.you.seat);
    if (!me || !state.hand) return [h("p", { class: "watching" }, w.watching)];
    const out: HTMLElement[] = [this.player(me)];
    const decisions = state.moves.filter((m) => m.card === null || !state.hand!.cards.includes(m.card));
    const panel = h("section", { class: "prompt", "aria-label": w.moves },
      state.moves.length ? h("p", { class: "ask" }, state.prompt || w.your_turn) : null,
      state.hand.caption ? h("p", {}, state.hand.caption) : null,
      state.hand.legend ? h("p", { class: "legend" }, state.hand.legend) : null,
      ...state.fields.map(([name, value]) => h("p", { class: "yaku" }, `${name}: ${value}`)),
      decisions.length ? h("div", { class: "decisions" }, ...decisions.map((m) =>
        h("button", { class: `move ${m.style}`, "data-key": `move:${m.key}`, onclick: () => this.actions.press(m) }, m.label))) : null,
      state.hint ? h("button", { class: "move hint", "data-key": "hint", onclick: () => this.actions.hint() }, `💡 ${w.hint}`) : null,
      state.race ? h("div", { class: "race" }, h("p", {}, state.race.text),
        state.race.can_slap ? h("button", { class: "move danger slap", "data-key": "slap", onclick: () => this.actions.slap() }, w.slap) : null) : null);
    out.push(panel);
    const playable = new Set(state.hand.playable);
    const hand = h("ul", { class: "hand", "aria-label": w.hand }, ...state.hand.cards.map((id) => {
      const moves = state.moves.filter((m) => m.card === id);
      const label = playable.has(id) ? `${this.name(id)}, ${w.playable}` : this.name(id);
      return h("li", {}, h("button", {
        class: `card big${playable.has(id) ? " playable" : ""}`, "data-key": `hand:${id}`, "aria-label": label, title: label,
        disabled: moves.length === 0, onclick: () => this.playCard(id, moves),
      }, h("img", { src: this.src(id), alt: "", draggable: "false" })));
    }));
    out.push(h("section", { class: "mine", "aria-label": w.hand }, h("h2", { class: "label" }, w.hand), hand));
    return out;
  }

  private playCard(id: string, moves: Move[]): void {
    if (moves.length === 1) {
      this.actions.press(moves[0]);
      return;
    }
    // two field cards of the month: the player picks which one the card takes
    const w = this.words;
    this.open(h("h2", {}, w.choose), h("p", {}, this.name(id)),
      h("ul", { class: "choices" }, ...moves.map((m) => h("li", {}, h("button", {
        class: "card big", "aria-label": m.target ? this.name(m.target) : m.label, onclick: () => { this.dialog.close(); this.actions.press(m); },
      }, m.target ? h("img", { src: this.src(m.target), alt: "" }) : null,
        h("span", { class: "caption", "aria-hidden": "true" }, m.target ? this.name(m.target) : m.label))))),
      h("button", { class: "move", onclick: () => this.dialog.close() }, w.cancel));
  }

  private summary(summary: Summary): void {
    const w = this.words;
    this.open(h("h2", {}, `${w.summary} · ${summary.title}`),
      summary.banner ? h("p", {}, summary.banner) : null,
      h("ul", { class: "rows" }, ...summary.rows.map((r) => h("li", {},
        h("p", {}, `${r.player}: ${r.name} ${r.points}`), this.pile(r.cards, r.name)))),
      h("ul", { class: "rows" }, ...summary.hands.map((hand) => h("li", {},
        h("p", {}, `${hand.winner ? "★ " : ""}${hand.player}: ${hand.name} ${hand.detail} ${hand.note}`), this.pile(hand.cards, hand.name)))),
      ...[...summary.multipliers, ...summary.pots, ...summary.lines].map((line) => h("p", {}, line)),
      h("button", { class: "move primary", autofocus: true, onclick: () => { this.dismissed = summary.key; this.dialog.close(); } }, w.close));
    this.dialog.addEventListener("close", () => { this.dismissed = summary.key; }, { once: true });
  }

  // The search's prices of this turn, over the table until closed.
  hint(hint: Hint): void {
    this.open(h("h2", {}, hint.title),
      ...hint.lines.map((line) => h("p", { class: "hint-line" }, line)),
      h("p", { class: "note" }, hint.note),
      h("button", { class: "move primary", autofocus: true, "data-key": "hint:close", onclick: () => this.dialog.close() }, this.words.close));
  }

  // How a game is played, over the table or the lobby until closed.
  rules(rules: Rules): void {
    // the title takes the focus, so the dialog opens at its top (not at the Close button's end)
    this.open(h("h2", { tabindex: "-1", autofocus: true }, ...marked(rules.title)),
      ...rules.text.split("\n").filter((line) => line.trim()).map((line) => h("p", {}, ...marked(line))),
      h("h3", {}, rules.house_title),
      ...rules.house.split("\n").map((line) => h("p", { class: "house" }, ...marked(line))),
      h("div", { class: "sheet-box" }, this.sheet(rules.sheet, rules.sheet_alt, "rules:sheet")),
      h("h3", {}, rules.cards_title),
      h("div", { class: "sheet-box" }, this.sheet(rules.cards, rules.cards_alt, "rules:cards")),
      h("button", { class: "move primary", "data-key": "rules:close", onclick: () => this.dialog.close() }, this.words.close));
  }

  // The board of today's deal, over the lobby or the table until closed.
  board(board: Board): void {
    this.open(h("h2", { tabindex: "-1", autofocus: true }, board.title),
      h("p", {}, board.subtitle),
      board.rows.length ? h("ol", { class: "board", "aria-label": this.words.against_ai }, ...board.rows.map((row) =>
        h("li", { class: row.me ? "me" : "" }, h("span", { class: "place" }, `${row.place}.`),
          h("span", { class: "name" }, row.name), h("span", { class: "value" }, row.value)))) : null,
      board.note ? h("p", {}, board.note) : null,
      h("p", { class: "note seal" }, board.seal),
      h("button", { class: "move primary", "data-key": "board:close", onclick: () => this.dialog.close() }, this.words.close));
  }

  // A picture fits the dialog; a tap shows it at its own size, to read on a phone.
  private sheet(src: string, alt: string, key: string): HTMLElement {
    const button = h("button", { class: "sheet", "data-key": key, "aria-pressed": "false", title: alt },
      h("img", { src, alt }));
    button.addEventListener("click", () => {
      button.setAttribute("aria-pressed", button.getAttribute("aria-pressed") === "true" ? "false" : "true");
    });
    return button;
  }

  private open(...children: (HTMLElement | null)[]): void {
    this.dialog.replaceChildren(...children.filter((c): c is HTMLElement => c !== null));
    if (!this.dialog.open) this.dialog.showModal();
  }

  private tick(): void {
    const clock = document.getElementById("clock");
    const turn = this.state?.turn;
    if (!clock || !turn || turn.deadline === null) return;
    const now = turn.now + (Date.now() - this.received) / 1000;
    const left = Math.max(0, Math.round(turn.deadline - now));
    clock.textContent = fill(this.words.due, { seconds: left });
    clock.classList.toggle("short", left <= 10);
  }
}
