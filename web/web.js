// The handheld in the browser: loads the MicroPython WebAssembly port, mounts
// the engine/ and firmware/ bytecode from app.pack, builds the firmware's App
// with the browser ports of web/webport.py, and drives it.
//
// URL parameters:
//   ?seed=N        seed of the first match (default: a random one)
//   ?fakeclock=1   test mode: no real time; every key is one scripted press
//                  of tools/sim/simulator.py (same seed + same keys = same frames
//                  as the terminal simulator); saves kept apart from play
//   ?keys=A+R+A    with fakeclock: scripted keys played at start
//
// For tests and benchmarks: window.gin (ready, t: timings, frames, fb(),
// fbHex(), screen(), py(expr), press(name), keysDone, mp, checks; handheld:
// this tab's save slot; link: the link channel's state; onframe: called
// after each new frame is painted).
//
// Link play (docs/LINK.md, "In the browser"): LINK on the title plays
// another tab of this page in the same browser, over a BroadcastChannel
// (makeLink below, webport.LinkPort on the Python side). Each open tab is
// its own handheld with its own saves (claimHandheld).
//
// The "Check a game record" panel (#check) checks a record dropped, chosen or
// pasted with engine/verify.py (webport.check_record) on the same MicroPython:
// the verdict hand by hand, then the overall one and what it means. It needs
// no game: it is wired as soon as app.pack is mounted.

import { loadMicroPython } from "./micropython.mjs";

const BITS = { LEFT: 1, RIGHT: 2, UP: 4, DOWN: 8, A: 16, B: 32 };
// The terminal simulator's keys (tools/sim/simulator.py).
const KEYS = {
  ArrowLeft: "LEFT", ArrowRight: "RIGHT", ArrowUp: "UP", ArrowDown: "DOWN",
  z: "A", Enter: "A", " ": "A", x: "B", Backspace: "B",
};
const LONG_KEYS = { Z: "A", X: "B" }; // shifted: a long press (held 700 ms)
const SCRIPT_NAMES = { LEFT: "L", RIGHT: "R", UP: "U", DOWN: "D", A: "A", B: "B" };
const LONG_HOLD_MS = 700;
const MIN_PRESS_MS = 40; // a tap shorter than this is held this long (debounce)
const MAX_WAIT_MS = 60000;
const ON = 0xffffe9cf; // RGBA (207, 233, 255, 255) as a little-endian uint32
const MUTE_KEY = "gin-rummy-mute";
const RECORD_MAX = 1 << 18; // engine/verify.py's MAX_BYTES: a longer file is refused

const params = new URLSearchParams(location.search);
const fake = params.get("fakeclock") === "1";
const seedParam = params.get("seed");
const seed = seedParam !== null && /^\d+$/.test(seedParam)
  ? Number(seedParam) & 0x3fffffff
  : crypto.getRandomValues(new Uint32Array(1))[0] & 0x3fffffff;

const $ = (id) => document.getElementById(id);
const canvas = $("oled");
const ctx = canvas.getContext("2d");
const image = ctx.createImageData(128, 64);
const pixels = new Uint32Array(image.data.buffer);
const statusEl = $("status");

const gin = (window.gin = {
  ready: false, failed: null, fake, seed, t: { start: performance.now() },
  frames: 0, painted: 0, keysDone: 0, mp: null, web: null, checks: 0,
  fb: new Uint8Array(1024),
});

function setStatus(text, error) {
  statusEl.textContent = text;
  statusEl.classList.toggle("error", !!error);
}

function fail(e) {
  const msg = e && e.name === "PythonError" ? e.message : String(e && e.stack ? e.stack : e);
  gin.failed = msg;
  setStatus("The game stopped:\n" + msg, true);
  console.error(msg);
}

// -- storage: the browser's localStorage, or memory when it keeps nothing --
function browserStore(keep) {
  try {
    if (!keep) throw new Error("not kept");
    const s = window.localStorage;
    const k = "gin-rummy-probe";
    s.setItem(k, "1");
    s.removeItem(k);
    return { kv: s, kept: true };
  } catch (e) {
    const m = new Map();
    return {
      kept: false,
      kv: {
        get length() { return m.size; },
        key: (i) => [...m.keys()].sort()[i] ?? null,
        getItem: (k) => (m.has(k) ? m.get(k) : null),
        setItem: (k, v) => { m.set(k, String(v)); },
        removeItem: (k) => { m.delete(k); },
      },
    };
  }
}

// -- the handheld: which saves this tab keeps --
// Tabs of one origin share localStorage. Each open tab holds one of SLOTS
// handhelds (a Web Lock held while the page lives): the first tab's saves
// are kept as they always were (gin-rummy/), a second tab open at the same
// time gets handheld 2 (gin-rummy-2/), and so on; a reloaded tab takes its
// own back (sessionStorage), waiting for the page it replaces to let go.
// Without Web Locks, the open tabs say which they hold (claimByChannel).
const SLOTS = 8;
const SLOT_KEY = "gin-rummy-handheld";

function holdLock(name, opts) {
  return new Promise((resolve) => {
    navigator.locks.request(name, opts, (lock) => {
      resolve(!!lock);
      return lock ? new Promise(() => {}) : undefined; // held until the page goes
    }).catch(() => resolve(false));
  });
}

// Without Web Locks (a page served over plain HTTP from another computer is
// no secure context): the tabs open answer which handhelds they hold on a
// BroadcastChannel, and this tab takes its own or the lowest free one (two
// tabs opened within SLOT_ASK_MS of each other may take the same one).
const SLOT_CHANNEL = "gin-rummy-handheld";
const SLOT_ASK_MS = 250;
let slotChannel = null; // kept open while the page lives, to answer

async function claimByChannel(was) {
  if (typeof BroadcastChannel === "undefined") return 1;
  const ch = (slotChannel = new BroadcastChannel(SLOT_CHANNEL));
  const taken = new Set();
  let mine = 0;
  ch.onmessage = (e) => {
    const m = e.data;
    if (!m || typeof m !== "object") return;
    if (m.k === "who" && mine) ch.postMessage({ k: "mine", slot: mine });
    else if (m.k === "mine" && typeof m.slot === "number") taken.add(m.slot);
  };
  ch.postMessage({ k: "who" });
  await new Promise((r) => setTimeout(r, SLOT_ASK_MS));
  let slot = was >= 1 && was <= SLOTS && !taken.has(was) ? was : 0;
  for (let n = 1; !slot && n <= SLOTS; n++) if (!taken.has(n)) slot = n;
  mine = slot;
  if (slot) ch.postMessage({ k: "mine", slot }); // to a tab asking at the same time
  return slot;
}

async function claimHandheld() {
  let was = 0;
  try { was = Number(sessionStorage.getItem(SLOT_KEY)) || 0; } catch (e) { /* none */ }
  const slot = navigator.locks ? await claimByLock(was) : await claimByChannel(was);
  if (slot) {
    try { sessionStorage.setItem(SLOT_KEY, String(slot)); } catch (e) { /* not kept */ }
  }
  return slot; // 0: every handheld is open in another tab
}

async function claimByLock(was) {
  let slot = 0;
  if (was >= 1 && was <= SLOTS &&
      await holdLock("gin-rummy-handheld-" + was, { signal: AbortSignal.timeout(1500) })) {
    slot = was;
  }
  for (let n = 1; !slot && n <= SLOTS; n++) {
    if (await holdLock("gin-rummy-handheld-" + n, { ifAvailable: true })) slot = n;
  }
  return slot;
}

// -- the link cable: a BroadcastChannel between tabs --
// webport.LinkPort's host. Every message is {k, from, to, d?}: `from` this
// tab's id (random, a new one each load), `to` one tab's id or 0 (all).
// A tab in a link match with no partner posts "look" whenever its link
// writes (a HELLO every 500 ms); a looking tab claims a looking tab of a
// larger id ("claim"), which answers "ok" and is paired, or "busy" when it
// is paired or has a claim of its own out. Paired, the link's bytes go as
// "data" to the partner only, and "look" from a third tab is answered
// "busy". A tab that leaves its link match, closes or reloads says "bye";
// a partner silent for LINK_QUIET_MS is let go too. Either way the link
// hears silence, says LOST, and goes on when a partner comes back.
const LINK_CHANNEL = "gin-rummy-link";
const LINK_RX_MAX = 4096;      // bytes waiting for the game: more are dropped, as a UART's
const LINK_CLAIM_MS = 1000;    // a claim not answered in this long is dropped
const LINK_QUIET_MS = 10000;   // paired, nothing heard this long: look again
const WORDS_BUSY = "The other tabs are linked to each other: this one waits for one of them.";

function makeLink(onData) {
  if (typeof BroadcastChannel === "undefined") return null;
  const ch = new BroadcastChannel(LINK_CHANNEL);
  const me = 1 + (crypto.getRandomValues(new Uint32Array(1))[0] >>> 1);
  const L = {
    me, state: "off", peer: 0, pending: 0, pendingAt: 0, heard: 0, busyAt: -1e9,
    q: [], qOff: 0, qLen: 0, dropped: 0, sent: 0, got: 0, arrivals: [], sends: [],
  };
  const now = () => performance.now();
  const send = (k, to, d) => ch.postMessage(d ? { k, from: me, to, d } : { k, from: me, to });
  const flush = () => { L.q = []; L.qOff = 0; L.qLen = 0; };
  const pair = (x) => {
    L.state = "paired"; L.peer = x; L.pending = 0; L.heard = now(); flush();
    if (statusEl.textContent === WORDS_BUSY) setStatus("");
  };
  const unpair = () => { L.state = "looking"; L.peer = 0; flush(); };
  const claimOut = () => L.pending && now() - L.pendingAt < LINK_CLAIM_MS;
  const stamp = (list) => {
    list.push(performance.timeOrigin + now());
    if (list.length > 32) list.shift();
  };
  ch.onmessage = (ev) => {
    const m = ev.data;
    if (!m || typeof m !== "object" || typeof m.from !== "number") return;
    const x = m.from;
    if (m.to && m.to !== me) return;
    if (m.k === "bye") {
      if (L.pending === x) L.pending = 0;
      if (L.state === "paired" && L.peer === x) unpair();
      return;
    }
    if (L.state === "off") {
      if (m.k === "claim") send("busy", x);
      else if (m.k === "data" || m.k === "ok") send("bye", x);
      return;
    }
    switch (m.k) {
      case "look":
        if (L.state === "paired") {
          if (x !== L.peer) { send("busy", x); return; }
          unpair(); // the partner looks again: it let this tab go
        }
        if (x > me && !claimOut()) {
          L.pending = x;
          L.pendingAt = now();
          send("claim", x);
        }
        return;
      case "claim":
        if (L.state === "paired" ? L.peer === x : !claimOut() || L.pending === x) {
          if (L.state !== "paired") pair(x);
          send("ok", x);
        } else {
          send("busy", x);
        }
        return;
      case "ok":
        if (L.state === "looking" && L.pending === x) pair(x);
        else if (!(L.state === "paired" && L.peer === x)) send("bye", x);
        return;
      case "busy":
        if (L.pending === x) L.pending = 0;
        L.busyAt = now();
        if (L.state === "looking" && statusEl.textContent !== WORDS_BUSY) setStatus(WORDS_BUSY);
        return;
      case "data":
        if (L.state !== "paired" || L.peer !== x || !(m.d instanceof Uint8Array)) {
          send("bye", x);
          return;
        }
        L.heard = now();
        L.got++;
        stamp(L.arrivals);
        if (L.qLen + m.d.length > LINK_RX_MAX) {
          L.dropped += m.d.length;
        } else {
          L.q.push(m.d);
          L.qLen += m.d.length;
        }
        onData();
        return;
      default:
    }
  };
  const host = {
    any() {
      if (L.state === "paired" && now() - L.heard > LINK_QUIET_MS) unpair();
      return L.qLen;
    },
    take(at, n) {
      const mod = gin.mp._module;
      let k = 0;
      while (k < n && L.q.length) {
        const d = L.q[0];
        while (k < n && L.qOff < d.length) mod.setValue(at + k++, d[L.qOff++], "i8");
        if (L.qOff >= d.length) { L.q.shift(); L.qOff = 0; }
      }
      L.qLen -= k;
      return k;
    },
    post(at, n) {
      if (L.state === "paired") {
        const d = new Uint8Array(n);
        for (let i = 0; i < n; i++) d[i] = getValue(at + i, "i8") & 255;
        L.sent++;
        stamp(L.sends);
        send("data", L.peer, d);
      } else if (L.state === "looking") {
        send("look", 0);
      }
    },
    use(on) {
      if (on && L.state === "off") {
        L.state = "looking";
        flush();
      } else if (!on && L.state !== "off") {
        if (L.state === "paired") send("bye", L.peer);
        L.state = "off";
        L.peer = 0;
        L.pending = 0;
        flush();
      }
    },
  };
  window.addEventListener("pagehide", () => { if (L.state === "paired") send("bye", L.peer); });
  gin.link = L;
  return host;
}

// -- sound: a few short WebAudio beeps; the mute switch silences them --
let audio = null;
let muted = false;
try { muted = localStorage.getItem(MUTE_KEY) === "1"; } catch (e) { /* no storage */ }
// Beeps for a firmware without tunes of its own ([hz, seconds], ...).
const TONES = {
  draw: [[880, 0.03]],
  discard: [[660, 0.04]],
  knock: [[523, 0.08], [392, 0.12]],
  gin: [[523, 0.07], [659, 0.07], [784, 0.07], [1047, 0.16]],
  win: [[523, 0.1], [659, 0.1], [784, 0.1], [1047, 0.25]],
  lose: [[392, 0.15], [330, 0.15], [262, 0.3]],
  error: [[140, 0.12]],
};
function unlockAudio() {
  if (muted) return;
  const C = window.AudioContext || window.webkitAudioContext;
  if (!C) return;
  if (!audio) {
    try { audio = new C(); } catch (e) { return; }
  }
  if (audio.state === "suspended") audio.resume();
}
// The sound port's output: `notes` is the device's tune "hz,ms,hz,ms,..."
// (hz 0: a rest), or "" for the beep above.
const played = []; // the last sounds' names (tests)
const sound = {
  play(name, notes) {
    played.push(name);
    if (played.length > 50) played.shift();
    if (muted || !audio || audio.state !== "running") return;
    let tune = TONES[name] || [];
    if (notes) {
      const v = notes.split(",").map(Number);
      tune = [];
      for (let i = 0; i + 1 < v.length; i += 2) tune.push([v[i], v[i + 1] / 1000]);
    }
    let t = audio.currentTime + 0.01;
    for (const [f, d] of tune) {
      if (!f) {
        t += d;
        continue;
      }
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.type = "square";
      o.frequency.value = f;
      g.gain.setValueAtTime(0.05, t);
      g.gain.exponentialRampToValueAtTime(0.0001, t + d);
      o.connect(g).connect(audio.destination);
      o.start(t);
      o.stop(t + d + 0.02);
      t += d;
    }
  },
};
function showMute() {
  $("mute").setAttribute("aria-checked", muted ? "false" : "true");
}
function toggleMute() {
  muted = !muted;
  try { localStorage.setItem(MUTE_KEY, muted ? "1" : "0"); } catch (e) { /* not kept */ }
  showMute();
  if (!muted) unlockAudio();
}

// -- the app pack: a JSON index line, then the files' bytes in order --
function mount(FS, pack) {
  const nl = pack.indexOf(10);
  const index = JSON.parse(new TextDecoder().decode(pack.subarray(0, nl)));
  const made = new Set();
  let off = nl + 1;
  for (const [path, size] of index.files) {
    const parts = ("app/" + path).split("/");
    let dir = "";
    for (const p of parts.slice(0, -1)) {
      dir += "/" + p;
      if (!made.has(dir)) {
        try { FS.mkdir(dir); } catch (e) { /* exists */ }
        made.add(dir);
      }
    }
    FS.writeFile("/app/" + path, pack.subarray(off, off + size));
    off += size;
  }
  return index;
}

// -- the screen --
let web = null;
let py = null;
let getValue = null;
let shownFrames = -1;
let shownLevel = -1;

function paint() {
  const addr = py.frameAddr();
  const fb = gin.fb;
  for (let i = 0; i < 1024; i++) fb[i] = getValue(addr + i, "i8") & 255;
  for (let page = 0; page < 8; page++) {
    for (let x = 0; x < 128; x++) {
      const b = fb[page * 128 + x];
      let p = page * 8 * 128 + x;
      for (let bit = 0; bit < 8; bit++, p += 128) pixels[p] = (b >> bit) & 1 ? ON : 0;
    }
  }
  ctx.putImageData(image, 0, 0);
  gin.painted++;
}

function refresh() {
  const f = web.frames;
  if (f !== shownFrames) {
    shownFrames = f;
    gin.frames = f;
    paint();
    const screen = py.screen();
    gin.screenName = screen;
    document.body.dataset.screen = screen;
    if (gin.t.title === undefined && screen === "title") gin.t.title = performance.now();
    const err = py.kvError();
    if (err) setStatus(err, true);
    if (gin.onframe) gin.onframe();
  }
  const level = py.level();
  if (level !== shownLevel) {
    shownLevel = level;
    // The panel's contrast: 0xCF (high) shows at full brightness, the idle
    // dimming (0x01) at about a third.
    canvas.style.setProperty("--bright", Math.min(1, 0.35 + 0.65 * level / 0xcf).toFixed(3));
  }
}

// -- real time: step when the app asks to, or at once after a button change --
let timer = 0;
let stepFn = null;
let stopped = false;

function schedule(ms) {
  clearTimeout(timer);
  if (!stopped) timer = setTimeout(tick, Math.max(0, Math.min(ms, MAX_WAIT_MS)));
}

// A message from the other tab: step at once (a tab in the background has
// its timers slowed to once a second, not its messages).
function wake() {
  if (web && !fake && !stopped) {
    clearTimeout(timer);
    tick();
  }
}

function tick() {
  let wait;
  try {
    wait = stepFn();
    refresh();
  } catch (e) {
    stopped = true;
    fail(e);
    return;
  }
  schedule(wait);
}

// Buttons: each is down while any source (a key, a pointer) holds it.
const holders = {};
const pressedAt = {};
let mask = 0;
for (const name in BITS) holders[name] = new Set();

function applyMask() {
  let m = 0;
  for (const name in BITS) if (holders[name].size) m |= BITS[name];
  for (const el of document.querySelectorAll("[data-btn]")) {
    el.classList.toggle("pressed", !!(m & BITS[el.dataset.btn]));
  }
  if (m === mask) return;
  mask = m;
  if (web && !fake && !stopped) {
    try { py.setButtons(m); } catch (e) { stopped = true; fail(e); return; }
    schedule(0);
  }
}

function down(name, src) {
  unlockAudio();
  if (fake) {
    if (!holders[name].size) scripted(SCRIPT_NAMES[name]);
    holders[name].add(src);
    applyMask();
    return;
  }
  if (!holders[name].size) pressedAt[name] = performance.now();
  gin.t.key = performance.timeOrigin + performance.now();
  holders[name].add(src);
  applyMask();
}

function up(name, src) {
  if (!holders[name].has(src)) return;
  const held = performance.now() - (pressedAt[name] || 0);
  if (!fake && holders[name].size === 1 && held < MIN_PRESS_MS) {
    // Too short for the debounce to see: keep it down a little longer.
    setTimeout(() => up(name, src), MIN_PRESS_MS - held);
    return;
  }
  holders[name].delete(src);
  if (!holders[name].size) gin.t.keyup = performance.timeOrigin + performance.now();
  applyMask();
}

function releaseAll() {
  for (const name in BITS) holders[name].clear();
  applyMask();
}

// Test mode: one scripted press per key, as the simulator's --keys.
function scripted(name) {
  if (!web || stopped) return;
  try {
    gin.keysDone = py.press(name);
    refresh();
  } catch (e) {
    stopped = true;
    fail(e);
  }
}

function onKeyDown(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target && e.target.closest && e.target.closest("#check")) return; // typing a record
  if (e.key === "m" || e.key === "M") {
    if (!e.repeat) toggleMute();
    return;
  }
  let name = KEYS[e.key];
  const long = LONG_KEYS[e.key];
  if (!name && !long) return;
  e.preventDefault();
  if (e.repeat) return;
  if (long) {
    if (fake) {
      unlockAudio();
      scripted("L" + long);
      return;
    }
    const src = "long:" + e.key;
    down(long, src);
    setTimeout(() => up(long, src), LONG_HOLD_MS);
    return;
  }
  down(name, "key:" + e.key);
}

function onKeyUp(e) {
  const name = KEYS[e.key];
  if (name) up(name, "key:" + e.key);
  // Shift released first: the lower-case key's release comes as upper case.
  const lower = e.key.length === 1 ? KEYS[e.key.toLowerCase()] : null;
  if (lower) up(lower, "key:" + e.key.toLowerCase());
}

function wireInput() {
  window.addEventListener("keydown", onKeyDown);
  window.addEventListener("keyup", onKeyUp);
  window.addEventListener("blur", releaseAll);
  document.addEventListener("visibilitychange", () => { if (document.hidden) releaseAll(); });
  for (const el of document.querySelectorAll("[data-btn]")) {
    const name = el.dataset.btn;
    el.addEventListener("pointerdown", (e) => {
      if (e.button !== undefined && e.button > 0) return;
      e.preventDefault();
      try { el.setPointerCapture(e.pointerId); } catch (err) { /* synthetic */ }
      down(name, "ptr:" + e.pointerId);
    });
    const release = (e) => up(name, "ptr:" + e.pointerId);
    el.addEventListener("pointerup", release);
    el.addEventListener("pointercancel", release);
    el.addEventListener("lostpointercapture", release);
    el.addEventListener("contextmenu", (e) => e.preventDefault());
    // Keyboard focus on a button must not turn Enter/space into clicks.
    el.addEventListener("click", (e) => e.preventDefault());
  }
  $("mute").addEventListener("click", (e) => { e.preventDefault(); toggleMute(); });
}

// -- start --
const PY_BOOT = (seed, fake, prefix, link) => `
import sys
sys.path.insert(0, "/app")
import ginhost
import webport
web = webport.Web(ginhost.kv, seed=${seed}, fake=${fake ? "True" : "False"},
                  sound=webport.WebSound(ginhost.sound), prefix=${prefix ? JSON.stringify(prefix) : "None"},
                  link=${link ? "ginhost.link" : "None"})
`;

// The game record link: the match in play's record (or the newest kept) as a
// text file, for tools/records/replay.py (and its --review).
function wireRecord() {
  const a = $("record");
  if (!a) return;
  a.addEventListener("click", (ev) => {
    ev.preventDefault();
    const text = py.recordText();
    if (!text) {
      setStatus("No game record yet: one is kept once a move is played.");
      return;
    }
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "gin-rummy-record.txt";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
}

// -- the "Check a game record" panel --
const VERDICT_CLASS = {
  VERIFIED: "ok", "NOT VERIFIED": "refused", INCOMPLETE: "refused", UNREADABLE: "refused",
  "NOT CHECKED": "refused",
};

function showVerdict(source, r) {
  $("check-out").hidden = false;
  $("check-source").textContent = source;
  const v = $("check-verdict");
  v.textContent = r.verdict;
  v.className = "check-verdict " + VERDICT_CLASS[r.verdict];
  $("check-meaning").textContent = r.meaning;
  const hands = $("check-hands");
  hands.replaceChildren();
  for (const [state, line] of r.hands) {
    const li = document.createElement("li");
    li.className = state;
    li.textContent = line;
    hands.appendChild(li);
  }
  const lines = $("check-lines");
  lines.replaceChildren();
  for (const line of r.lines) {
    const li = document.createElement("li");
    li.textContent = line;
    lines.appendChild(li);
  }
}

// A file's bytes as text, one character per byte (engine/verify.py's
// record_text says which byte is not ASCII); one byte past the limit is
// enough to refuse a longer file.
async function fileText(file) {
  const b = new Uint8Array(await file.slice(0, RECORD_MAX + 1).arrayBuffer());
  let s = "";
  for (let i = 0; i < b.length; i += 8192) {
    s += String.fromCharCode.apply(null, b.subarray(i, i + 8192));
  }
  return s;
}

function wireCheck(mp) {
  mp.runPython('import sys\nif "/app" not in sys.path: sys.path.insert(0, "/app")\n' +
               "from webport import check_record");
  const checkRecord = mp.globals.get("check_record");
  // the check itself, for the tests: (text, notes as the panel takes them) -> JSON
  gin.check = (text, noted) => checkRecord(text, noted || "");
  const check = (source, text) => {
    $("check-out").hidden = false;
    $("check-source").textContent = source + ": checking\u2026";
    // after a paint, so the page says it is checking a long record
    setTimeout(() => {
      let r;
      try {
        r = JSON.parse(checkRecord(text, $("check-noted").value));
      } catch (e) {
        r = { verdict: "UNREADABLE", meaning: "The check stopped: " + String(e && e.message || e),
              hands: [], lines: [] };
      }
      showVerdict(source, r);
      gin.checks++;
    }, 0);
  };
  const checkFile = (file) => {
    fileText(file).then((t) => check("file " + file.name, t),
                        (e) => showVerdict("file " + file.name, {
                          verdict: "UNREADABLE", meaning: "The browser could not read it: " + e,
                          hands: [], lines: [] }));
  };
  $("check-go").addEventListener("click", () => {
    let t = $("check-text").value;
    // a pasted record often loses its last line's end: it is not a cut
    if (t && !t.endsWith("\n")) t += "\n";
    check("pasted text", t);
  });
  $("check-file").addEventListener("change", (e) => {
    const f = e.target.files && e.target.files[0];
    if (f) checkFile(f);
  });
  const zone = $("check");
  zone.addEventListener("dragover", (e) => {
    e.preventDefault();
    zone.classList.add("dragging");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("dragging");
    const dt = e.dataTransfer;
    if (dt && dt.files && dt.files.length) {
      checkFile(dt.files[0]);
    } else if (dt) {
      const t = dt.getData("text/plain");
      $("check-text").value = t;
      check("dropped text", t && !t.endsWith("\n") ? t + "\n" : t);
    }
  });
  $("check-go").disabled = false;
  $("check-file").disabled = false;
}

async function boot() {
  showMute();
  wireInput();
  const slotP = fake ? Promise.resolve(1) : claimHandheld();
  const packP = fetch("app.pack").then((r) => {
    if (!r.ok) throw new Error("app.pack: HTTP " + r.status);
    return r.arrayBuffer();
  });
  const mp = await loadMicroPython({
    heapsize: 2 * 1024 * 1024,
    stdout: (line) => console.log(line),
    stderr: (line) => console.warn(line),
  });
  gin.t.runtime = performance.now();
  gin.mp = mp;
  const index = mount(mp.FS, new Uint8Array(await packP));
  gin.t.mounted = performance.now();
  gin.pack = index;
  wireCheck(mp);
  const slot = await slotP;
  gin.handheld = slot;
  const store = browserStore(slot > 0);
  const link = fake ? null : makeLink(wake);
  mp.registerJsModule("ginhost", { kv: store.kv, sound, link });
  mp.runPython(PY_BOOT(seed, fake, slot > 1 ? "gin-rummy-" + slot + "/" : null, link));
  web = mp.globals.get("web");
  gin.web = web;
  getValue = mp._module.getValue;
  // The port's methods, looked up once (each lookup makes a proxy).
  py = {
    step: web.step, frameAddr: web.frame_addr, screen: web.screen, level: web.level,
    kvError: web.kv_error, setButtons: web.set_buttons, press: web.press,
    recordText: web.record_text,
  };
  wireRecord();
  stepFn = py.step;
  gin.t.app = performance.now();
  refresh();
  const notes = [];
  if (!slot) {
    notes.push("Every handheld is open in another tab: this one keeps its saves until it closes.");
  } else if (!store.kept) {
    notes.push("This browser keeps no storage here: saves last until the page closes.");
  } else if (slot > 1) {
    notes.push("Handheld " + slot + ": another tab is open, so this one keeps saves of its own.");
  }
  if (fake) notes.push("test mode: fake clock, seed " + seed);
  setStatus(notes.join(" "));
  gin.screen = () => py.screen();
  gin.py = (expr) => web.eval(expr);
  gin.fbHex = () => Array.from(gin.fb, (b) => b.toString(16).padStart(2, "0")).join("");
  gin.press = (name) => { scripted(name); return gin.keysDone; };
  gin.sounds = played;
  gin.ready = true;
  if (fake) {
    const keys = (params.get("keys") || "").split(/[\s+,]+/).filter(Boolean);
    for (const k of keys) scripted(k);
  } else {
    schedule(web.wait);
  }
}

boot().catch(fail);
