// Headless Chromium for the web handheld's tests and benchmark, driven by
// web/browser.py over stdin/stdout: one JSON request per line in,
// one JSON reply per line out ({"ok": value} or {"error": message}).
//
//   node web/driver.mjs [--chromium PATH]
//
// Requests ({"cmd": ..., ...}):
//   page {url, touch?, width?, height?}  a fresh context and page at url
//                                        (the previous ones are closed)
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
let page = null;
let responses = [];
let messages = [];

async function openPage(req) {
  if (context) await context.close();
  responses = [];
  messages = [];
  context = await browser.newContext({
    viewport: { width: req.width || 1100, height: req.height || 700 },
    hasTouch: !!req.touch,
  });
  page = await context.newPage();
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

const handlers = {
  page: openPage,
  async wait(req) {
    await page.waitForFunction(req.js, null, { timeout: req.timeout || 30000, polling: 20 });
    return true;
  },
  async eval(req) {
    return await page.evaluate(req.js);
  },
  async key(req) {
    await page.keyboard.press(req.key, { delay: req.delay || 0 });
    return true;
  },
  async keydown(req) {
    await page.keyboard.down(req.key);
    return true;
  },
  async keyup(req) {
    await page.keyboard.up(req.key);
    return true;
  },
  async pointer(req) {
    const box = await page.locator(req.selector).boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    if (req.hold) await page.waitForTimeout(req.hold);
    await page.mouse.up();
    return true;
  },
  async tap(req) {
    await page.locator(req.selector).tap();
    return true;
  },
  async click(req) {
    await page.locator(req.selector).click();
    return true;
  },
  async fill(req) {
    await page.locator(req.selector).fill(req.text);
    return true;
  },
  async upload(req) {
    await page.locator(req.selector).setInputFiles({
      name: req.name, mimeType: "text/plain", buffer: Buffer.from(req.data, "base64"),
    });
    return true;
  },
  async reload() {
    responses = [];
    await page.reload({ waitUntil: "load" });
    return true;
  },
  async screenshot(req) {
    const target = req.selector ? page.locator(req.selector) : page;
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
