// Launched as a Discord Activity: the Embedded App SDK's handshake with the Discord client (the parent frame),
// the OAuth code exchanged by our server for an access token and a session token, then the table's socket.
import { DiscordSDK } from "@discord/embedded-app-sdk";

export function launchedAsActivity(params) {
  return params.has("frame_id") && params.has("instance_id");
}

async function clientId() {
  const meta = document.querySelector('meta[name="discord-client-id"]');
  if (meta && meta.content) return meta.content;
  // Discord's proxy serves an Activity at <application id>.discordsays.com.
  const proxied = /^(\d+)\.discordsays\.com$/.exec(window.location.hostname);
  if (proxied) return proxied[1];
  const answer = await fetch("./api/config", { headers: { Accept: "application/json" } });
  if (!answer.ok) throw new Error(`config: ${answer.status}`);
  const config = await answer.json();
  return String(config.client_id);
}

// Returns what the socket's hello needs: the session token, the Activity's instance (the server asks Discord which
// channel it runs in and who is in it) and the channel the Activity says it was launched in.
export async function authenticateActivity(params, onStep = () => {}) {
  const id = await clientId();
  // The SDK wants a platform; Discord always sends one, but an old client or a test may not.
  if (!params.has("platform")) {
    const url = new URL(window.location.href);
    url.searchParams.set("platform", "desktop");
    window.history.replaceState(null, "", url);
  }
  // Our own console stays ours: the SDK would otherwise forward every log line to the Discord client.
  const sdk = new DiscordSDK(id, { disableConsoleLogOverride: true });
  onStep("ready");
  await sdk.ready();
  onStep("authorize");
  const { code } = await sdk.commands.authorize({
    client_id: id,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  onStep("token");
  const answer = await fetch("./api/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  if (!answer.ok) throw new Error(`token: ${answer.status}`);
  const { access_token: accessToken, session } = await answer.json();
  onStep("authenticate");
  await sdk.commands.authenticate({ access_token: accessToken });
  return {
    session,
    instanceId: sdk.instanceId || params.get("instance_id") || null,
    channelId: sdk.channelId || params.get("channel_id") || null,
  };
}
