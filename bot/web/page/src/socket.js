// The table's WebSocket: hello first, then frames; reconnects by itself with a growing pause and tells the
// server the last event it saw (the server answers with a fresh state either way).

export function socketUrl(path = "ws") {
  // Relative to the page, so it works under any base path (Discord's Activity proxy adds one).
  const url = new URL(path, window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.search = "";
  url.hash = "";
  return url.toString();
}

export class TableSocket {
  constructor(hello, { onFrame, onStatus }) {
    this.hello = hello; // the hello frame without seq
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.seq = null;
    this.ws = null;
    this.attempt = 0;
    this.closed = false; // closed for good (the server refused us): no more tries
    this.timer = null;
    this.pinger = null;
  }

  connect() {
    if (this.closed) return;
    this.onStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    const ws = new WebSocket(socketUrl());
    this.ws = ws;
    ws.addEventListener("open", () => {
      const hello = { type: "hello", ...this.hello };
      if (this.seq !== null) hello.seq = this.seq;
      ws.send(JSON.stringify(hello));
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (msg) => {
      let frame;
      try {
        frame = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (typeof frame.seq === "number") this.seq = Math.max(this.seq ?? 0, frame.seq);
      if (frame.type === "welcome" || frame.type === "state") {
        this.attempt = 0;
        this.onStatus("live");
      }
      this.onFrame(frame);
    });
    ws.addEventListener("close", (ev) => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      // 4000-4099: the server refused this page (bad or revoked token): trying again cannot help.
      if (ev.code >= 4000 && ev.code < 4100) {
        this.closed = true;
        this.onStatus("closed", ev.reason);
        return;
      }
      this.retry();
    });
  }

  retry() {
    if (this.closed) return;
    this.attempt += 1;
    const pause = Math.min(8000, 300 * 2 ** (this.attempt - 1)) * (0.75 + Math.random() * 0.5);
    this.onStatus("reconnecting");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), pause);
  }

  send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }
}
