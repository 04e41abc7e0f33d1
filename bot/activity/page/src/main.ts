// The page's start: Discord's frame protocol through the Embedded App SDK, the sign-in (the code
// goes to our server, which alone holds the client secret), then one socket to the table of the
// Activity's channel, opened again whenever it drops.

import { DiscordSDK } from "@discord/embedded-app-sdk";

import type { FromServer, LobbyAsk, Move, State, ToServer } from "./protocol";
import { View } from "./view";

// Relative to the page: Discord's proxy serves it from the application's own origin.
const here = new URL(".", window.location.href);

interface SignedIn {
  access_token: string;
  session: string;
  language: string;
}

class Refused extends Error {}

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(new URL(path, here), {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
}

class Page {
  private sdk!: DiscordSDK;
  private clientId = "";
  private signed: SignedIn | null = null;
  private socket: WebSocket | null = null;
  private nonce = 0;
  private state: State | null = null;
  private retries = 0;
  private view: View;

  constructor() {
    this.view = new View(
      document.getElementById("table")!, document.getElementById("dialog") as HTMLDialogElement,
      document.getElementById("status")!, {
        press: (m) => this.press(m), slap: () => this.slap(), hint: () => this.hint(), ask: (a) => this.ask(a),
        rules: (game) => this.send({ type: "rules", play: game, n: ++this.nonce }),
        board: (game) => this.send({ type: "board", play: game, n: ++this.nonce }),
        share: (message, game) => void this.share(message, game),
        invite: () => void this.invite(),
      });
  }

  async start(): Promise<void> {
    const config = await (await fetch(new URL("api/config", here))).json();
    this.clientId = String(config.client_id);
    this.sdk = new DiscordSDK(this.clientId, { disableConsoleLogOverride: true });
    await this.sdk.ready();
    // Opened through a shared result ("daily:<game>"): the lobby shows that game's deal of the
    // day, if the lobby offers that game (the id is only ever compared with the lobby's own).
    const shared = /^daily:([a-z]{1,16})$/.exec(this.sdk.customId ?? "");
    if (shared) this.view.arrivedFor(shared[1]);
    await this.signIn();
    this.connect();
  }

  private async signIn(): Promise<void> {
    const { code } = await this.sdk.commands.authorize({
      client_id: this.clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
    });
    const answer = await post("api/token", { code });
    const body = await answer.json();
    if (!answer.ok) throw new Refused(String(body.error ?? ""));
    await this.sdk.commands.authenticate({ access_token: body.access_token });
    this.signed = body as SignedIn;
  }

  private connect(): void {
    const url = new URL("ws", here);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.send({ type: "hello", v: 1, session: this.signed!.session, instance: this.sdk.instanceId });
    });
    socket.addEventListener("message", (event) => this.receive(JSON.parse(String(event.data)) as FromServer));
    socket.addEventListener("close", (event) => this.closed(event.code));
  }

  private receive(message: FromServer): void {
    switch (message.type) {
      case "welcome":
        this.retries = 0;
        this.view.setWords(message.words, message.language);
        this.view.say("");
        break;
      case "idle":
        this.state = null;
        this.view.idle(message.lobby, message.why ?? "");
        break;
      case "state":
        this.state = message;
        this.view.show(message);
        break;
      case "refused":
      case "warn":
      case "error":
        this.view.say(message.text);
        break;
      case "played":
        this.view.say("");
        break;
      case "rules":
        this.view.say("");
        this.view.rules(message);
        break;
      case "board":
        this.view.say("");
        this.view.board(message);
        break;
      case "today":
        this.view.today(message.games);
        break;
      case "hint": // shown only while its turn is still the one on the table
        this.view.say("");
        if (this.state && message.game === this.state.game.id && message.seq === this.state.game.seq) this.view.hint(message);
        break;
    }
  }

  private async closed(code: number): Promise<void> {
    this.socket = null;
    if (code === 4003 || code === 1008 || code === 1009) return; // told why; opening again would not help
    if (code === 4001) {
      await this.signIn(); // the session ended: the SDK signs in again without asking
      this.connect();
      return;
    }
    this.view.say(this.view.words.reconnecting ?? "");
    const wait = Math.min(15000, 500 * 2 ** this.retries++);
    window.setTimeout(() => this.connect(), wait);
  }

  private send(message: ToServer): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private press(move: Move): void {
    if (!this.state) return;
    this.send({ type: "press", game: this.state.game.id, seq: this.state.game.seq, key: move.key, n: ++this.nonce });
  }

  private ask(ask: LobbyAsk): void {
    this.send({ ...ask, n: ++this.nonce } as ToServer);
  }

  // Discord's own window to share the result with the Activity's link, sent by the member.
  private async share(message: string, game: string): Promise<void> {
    try {
      const done = await this.sdk.commands.shareLink({ message, custom_id: `daily:${game}` });
      if (done.success) this.view.say(this.view.words.shared ?? "");
    } catch {
      this.view.say(this.view.words.share_failed ?? "");
    }
  }

  private async invite(): Promise<void> {
    try {
      await this.sdk.commands.openInviteDialog();
    } catch {
      this.view.say(this.view.words.invite_failed ?? "");
    }
  }

  private hint(): void {
    if (!this.state) return;
    this.send({ type: "hint", game: this.state.game.id, n: ++this.nonce });
  }

  private slap(): void {
    if (!this.state) return;
    this.send({ type: "slap", game: this.state.game.id, n: ++this.nonce });
  }
}

new Page().start().catch((error: unknown) => {
  const status = document.getElementById("status");
  if (status) status.textContent = error instanceof Refused ? error.message : "⚠";
});
