// Headless Chromium for the web handheld's tests and benchmark, driven by
// web/browser.py over stdin/stdout: one JSON request per line in,
// one JSON reply per line out ({"ok": value} or {"error": message}).
//
//   node web/driver.mjs [--chromium PATH]
//
// Requests ({"cmd": ..., ...}):
//   page {url, touch?, width?, height?}  a fresh context and page at url
//                                        (the previous ones are closed): tab 0
//   page {url, init?}                    init: a script run in every page of the
//                                        context before its own (addInitScript)
//   page {url, same: true}               one more page (tab) in the same context
//                                        (its storage, BroadcastChannel, locks);
//                                        answers the tab's number
//   close {tab}                          close that tab
// Every request below takes tab (default 0): the page it acts on.
//   wait {js, timeout?}                  until the expression is truthy
//   eval {js}                            the expression's value (awaited)
//   key {key, delay?}                    keyboard.press (delay: ms held)
//   keydown / keyup {key}
//   pointer {selector, hold?}            mouse down on the element, hold ms, up
//   tap {selector}                       a touch tap (context made with touch)
//   click {selector}                     a mouse click on the element
//   fill {selector, text}                type text into a text field (replacing it)
//   upload {selector, name, data}        choose a file (data: base64) in a file input
//   reload {}                            reload, wait for "load"
//   screenshot {path, selector?}         PNG of the page or one element
//   network {}                           [{url, status, body, headers}] of
//                                        every response since the page opened
//   console {}                           console messages and page errors
//   quit {}
//
// Chromium is Debian's (/usr/bin/chromium, or --chromium / $CHROMIUM).

import readline from "node:readline";
import { chromium } from "playwright-core";

const ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const executablePath = argValue("--chromium") || process.env.CHROMIUM || "/usr/bin/chromium";
let browser = null;
let context = null;
let pages = [];
let responses = [];
let messages = [];

async function openPage(req) {
  if (req.same && context) {
    const tab = pages.length;
    const p = await context.newPage();
    p.on("console", (m) => messages.push("tab " + tab + ": " + m.type() + ": " + m.text()));
    p.on("pageerror", (e) => messages.push("tab " + tab + ": pageerror: " + e.message));
    pages.push(p);
    await p.goto(req.url, { waitUntil: "load" });
    return tab;
  }
  if (context) await context.close();
  responses = [];
  messages = [];
  context = await browser.newContext({
    viewport: { width: req.width || 1100, height: req.height || 700 },
    hasTouch: !!req.touch,
  });
  if (req.init) await context.addInitScript(req.init);
  const page = await context.newPage();
  pages = [page];
  page.on("response", (r) => {
    const entry = { url: r.url(), status: r.status(), body: null, headers: null };
    entry.done = r.request().sizes().then(
      (s) => { entry.body = s.responseBodySize; entry.headers = s.responseHeadersSize; },
      () => {},
    );
    responses.push(entry);
  });
  page.on("console", (m) => messages.push(m.type() + ": " + m.text()));
  page.on("pageerror", (e) => messages.push("pageerror: " + e.message));
  await page.goto(req.url, { waitUntil: "load" });
  return true;
}

function pg(req) {
  const p = pages[req.tab || 0];
  if (!p) throw new Error("no tab " + (req.tab || 0));
  return p;
}

const handlers = {
  async close(req) {
    await pg(req).close();
    pages[req.tab || 0] = null;
    return true;
  },
  page: openPage,
  async wait(req) {
    await pg(req).waitForFunction(req.js, null, { timeout: req.timeout || 30000, polling: 20 });
    return true;
  },
  async eval(req) {
    return await pg(req).evaluate(req.js);
  },
  async key(req) {
    await pg(req).keyboard.press(req.key, { delay: req.delay || 0 });
    return true;
  },
  async keydown(req) {
    await pg(req).keyboard.down(req.key);
    return true;
  },
  async keyup(req) {
    await pg(req).keyboard.up(req.key);
    return true;
  },
  async pointer(req) {
    const box = await pg(req).locator(req.selector).boundingBox();
    await pg(req).mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await pg(req).mouse.down();
    if (req.hold) await pg(req).waitForTimeout(req.hold);
    await pg(req).mouse.up();
    return true;
  },
  async tap(req) {
    await pg(req).locator(req.selector).tap();
    return true;
  },
  async click(req) {
    await pg(req).locator(req.selector).click();
    return true;
  },
  async fill(req) {
    await pg(req).locator(req.selector).fill(req.text);
    return true;
  },
  async upload(req) {
    await pg(req).locator(req.selector).setInputFiles({
      name: req.name, mimeType: "text/plain", buffer: Buffer.from(req.data, "base64"),
    });
    return true;
  },
  async reload(req) {
    responses = [];
    await pg(req).reload({ waitUntil: "load" });
    return true;
  },
  async screenshot(req) {
    const target = req.selector ? pg(req).locator(req.selector) : pg(req);
    await target.screenshot({ path: req.path });
    return req.path;
  },
  async network() {
    await Promise.all(responses.map((r) => r.done));
    return responses.map(({ url, status, body, headers }) => ({ url, status, body, headers }));
  },
  async console() {
    return messages;
  },
};

async function main() {
  browser = await chromium.launch({ executablePath, headless: true, args: ARGS });
  const rl = readline.createInterface({ input: process.stdin });
  const reply = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
  reply({ ok: browser.version() });
  for await (const line of rl) {
    if (!line.trim()) continue;
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      reply({ error: "bad request: " + e.message });
      continue;
    }
    if (req.cmd === "quit") break;
    const h = handlers[req.cmd];
    if (!h) {
      reply({ error: "unknown command " + req.cmd });
      continue;
    }
    try {
      const v = await h(req);
      reply({ ok: v === undefined ? null : v });
    } catch (e) {
      reply({ error: String(e && e.message ? e.message : e) });
    }
  }
  await browser.close();
  process.exit(0);
}

main().catch((e) => {
  process.stdout.write(JSON.stringify({ error: "driver: " + (e && e.stack ? e.stack : e) }) + "\n");
  process.exit(1);
});
