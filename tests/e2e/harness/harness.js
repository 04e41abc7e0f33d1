// Plays the Discord client's side of the Embedded App SDK's frame protocol for a test: the
// handshake's READY, AUTHORIZE (a code the stand-in mints for the page's user) and AUTHENTICATE
// (the stand-in says whose token it is), and SHARE_LINK (kept, as if the member sent it). A launch
// through a shared link carries its custom_id. Opcodes: 0 handshake, 1 frame, 2 close.
const params = new URLSearchParams(location.search);
const frame = document.getElementById("activity");
const answered = [];
const shared = [];
window.harness = { answered, shared };

const query = new URLSearchParams({
  frame_id: "test-frame", instance_id: params.get("instance"), platform: params.get("platform") || "mobile",
  guild_id: params.get("guild"), channel_id: params.get("channel"),
});
if (params.get("custom_id")) query.set("custom_id", params.get("custom_id"));
frame.src = `/?${query}`;

function reply(payload) {
  frame.contentWindow.postMessage([1, payload], location.origin);
  answered.push(payload.cmd === "DISPATCH" ? payload.evt : payload.cmd);
}

async function ask(path) {
  const response = await fetch(path);
  return response.ok ? response.json() : null;
}

window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, data] = event.data;
  if (opcode === 0) {
    reply({ cmd: "DISPATCH", evt: "READY", nonce: null,
            data: { v: 1, config: { api_endpoint: "//discord.com/api", environment: "production" } } });
    return;
  }
  if (opcode !== 1) return;
  const base = { cmd: data.cmd, evt: null, nonce: data.nonce };
  if (data.cmd === "AUTHORIZE") {
    const minted = await ask(`/harness/code?user=${params.get("user")}`);
    reply({ ...base, data: { code: minted.code } });
  } else if (data.cmd === "AUTHENTICATE") {
    const who = await ask(`/harness/whose?token=${encodeURIComponent(data.args.access_token)}`);
    if (who === null) {
      reply({ ...base, evt: "ERROR", data: { code: 4009, message: "invalid token" } });
      return;
    }
    reply({ ...base, data: { access_token: data.args.access_token, user: who, scopes: ["identify"],
                             expires: new Date(Date.now() + 3600e3).toISOString(),
                             application: { id: params.get("client"), name: "test", description: "" } } });
  } else if (data.cmd === "SHARE_LINK") {
    shared.push(data.args);
    reply({ ...base, data: { success: true, didCopyLink: false, didSendMessage: true } });
  } else {
    reply({ ...base, data: null });
  }
});
