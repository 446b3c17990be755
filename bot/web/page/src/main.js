// How the page was opened decides what it shows: a signed link (?t=), a public view (?watch=, a signed watch token), a replay
// (?replay=) or a Discord Activity launch (?frame_id=&instance_id=...).
import { authenticateActivity, launchedAsActivity } from "./activity.js";
import { h } from "./dom.js";
import { showReplay } from "./replay.js";
import { TableSocket } from "./socket.js";
import { TablePage } from "./table.js";
import { setTexts } from "./texts.js";

const root = document.getElementById("app");

function play(hello) {
  let page = null;
  const socket = new TableSocket(hello, {
    onFrame: (frame) => {
      if (frame.type === "welcome") setTexts(frame.texts);
      page.frame(frame);
    },
    onStatus: (status) => page.setStatus(status),
  });
  page = new TablePage(root, (frame) => socket.send(frame));
  // Tests (and the curious) reach the page's parts here; nothing in it is private to this person's seat.
  window.klaverjas = { page, socket };
  socket.connect();
}

function fail(message) {
  root.className = "table felt-green";
  root.replaceChildren(h("div.fatal", { role: "alert" }, message));
}

async function start() {
  const params = new URLSearchParams(window.location.search);
  if (params.get("t")) {
    play({ token: params.get("t") });
  } else if (params.get("watch")) {
    play({ watch: params.get("watch") });  // a signed watch token, not a table id
  } else if (params.get("replay")) {
    await showReplay(root, params.get("replay"));
  } else if (launchedAsActivity(params)) {
    root.replaceChildren(h("p.boot", {}, "…"));
    const { session, instanceId, channelId } = await authenticateActivity(params, (step) => {
      root.dataset.activity = step;
    });
    root.dataset.activity = "connected";
    // The instance is what the server checks with Discord; the channel only has to agree with it.
    const hello = { token: session, instance_id: instanceId };
    if (channelId) hello.channel_id = channelId;
    play(hello);
  } else {
    fail("Klaverjas");
  }
}

start().catch((error) => fail(String(error?.message || error)));
