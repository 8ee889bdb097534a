// What the Hugo and Docusaurus site tests add to the shared harness (common/harness.mjs,
// whose Chromium they launch): a static server for a built site under a base path that
// records every response (path, bytes, gzipped bytes), named checks with a summary, and
// widget helpers by name (name the widgets, read verdicts, edit, dark mode, timings).
import http from "node:http";
import { createReadStream, readFileSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, "../..");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".yaml": "text/plain; charset=utf-8",
  ".xml": "application/xml",
  ".txt": "text/plain; charset=utf-8",
};

const gzCache = new Map();
function gzSize(file) {
  if (!gzCache.has(file)) gzCache.set(file, gzipSync(readFileSync(file), { level: 9 }).length);
  return gzCache.get(file);
}

/**
 * Serves `dir` under `prefix` (e.g. "/docs/") on 127.0.0.1 like a static host: a
 * directory serves its index.html, a path without an extension tries `<path>.html`.
 * Every response is recorded in `log` ({path, bytes, gz}).
 */
export function serveSite(prefix, dir) {
  const log = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    const pathname = decodeURIComponent(url.pathname);
    if (!pathname.startsWith(prefix)) {
      res.writeHead(404).end("not found");
      return;
    }
    const base = path.resolve(dir);
    let file = path.resolve(base, "." + path.sep + pathname.slice(prefix.length));
    if (file !== base && !file.startsWith(base + path.sep)) {
      res.writeHead(403).end("forbidden");
      return;
    }
    const candidates = [file, path.join(file, "index.html"), `${file}.html`];
    const found = candidates.find((f) => {
      try {
        return statSync(f).isFile();
      } catch {
        return false;
      }
    });
    if (!found) {
      res.writeHead(404).end("not found");
      log.push({ path: pathname, status: 404, bytes: 0, gz: 0 });
      return;
    }
    const bytes = statSync(found).size;
    log.push({ path: pathname, status: 200, bytes, gz: gzSize(found) });
    res.writeHead(200, {
      "Content-Type": TYPES[path.extname(found)] ?? "application/octet-stream",
      "Content-Length": bytes,
      "Cache-Control": "no-store",
    });
    createReadStream(found).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({ origin: `http://127.0.0.1:${port}`, url: `http://127.0.0.1:${port}${prefix}`, log, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/** Headless Chromium: the shared harness's launcher (tests/docsites/common). */
export { launch } from "./common/harness.mjs";

let passed = 0;
let failed = 0;
/** Runs one named check; failures are counted and printed, the run goes on. */
export async function check(name, fn) {
  const start = Date.now();
  try {
    await fn();
    passed++;
    console.log(`ok - ${name} (${Date.now() - start} ms)`);
  } catch (e) {
    failed++;
    console.log(`not ok - ${name}\n  ${String(e?.stack ?? e).split("\n").join("\n  ")}`);
  }
}

/** Prints the summary and sets the exit code. */
export function finish(label) {
  console.log(`${label}: ${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

/** A page that records console errors, page errors, failed requests and wasm downloads. */
export async function open(context, url) {
  const page = await context.newPage();
  const errors = [];
  const wasm = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("requestfailed", (r) => errors.push(`request failed: ${r.url()}`));
  page.on("response", (r) => {
    if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.endsWith(".wasm")) wasm.push(r.url());
  });
  await page.goto(url, { waitUntil: "load" });
  return { page, errors, wasm };
}

/** Names the page's widgets in order (sets their ids: fences carry none), scrolls each
 * into view (they load lazily) and waits until each has rendered a verdict or its error. */
export async function settle(page, names, { timeout = 20000 } = {}) {
  await page.waitForFunction((n) => document.querySelectorAll("taint-check").length >= n, names.length, { timeout });
  const count = await page.$$eval("taint-check", (els, names) => {
    els.forEach((e, i) => {
      if (names[i]) e.id = names[i];
    });
    return els.length;
  }, names);
  if (count !== names.length) throw new Error(`${count} widgets on the page, expected ${names.length} (${names.join(", ")})`);
  for (const id of names) {
    await page.locator(`taint-check#${id}`).scrollIntoViewIfNeeded();
    await page.waitForSelector(`taint-check#${id}[data-state="live"], taint-check#${id}[data-state="error"]`, { timeout });
  }
  return names;
}

export const state = (page, id) => page.getAttribute(`taint-check#${id}`, "data-state");

/** pod name -> verdict (scheduled, pending, rejected, ...) of a widget. */
export const verdicts = (page, id) =>
  page.$$eval(`taint-check#${id} section.pod`, (els) => Object.fromEntries(els.map((e) => [e.dataset.pod, e.dataset.verdict])));

/** The widget's verdict lines, as the reader sees them. */
export const verdictText = (page, id) =>
  page.$$eval(`taint-check#${id} .verdict`, (els) => els.map((e) => e.textContent.trim()));

/** The NoExecute eviction times (`data-evicted-at`) shown by a widget. */
export const evictions = (page, id) =>
  page.$$eval(`taint-check#${id} .timeline`, (els) => els.map((e) => e.dataset.evictedAt));

/** Replaces a widget's YAML and waits for the re-render. */
export async function edit(page, id, change) {
  const area = page.locator(`taint-check#${id} textarea.yaml`);
  const before = await area.inputValue();
  const after = change(before);
  if (after === before) throw new Error(`edit of ${id} changes nothing`);
  const rendered = page.evaluate(
    (id) => new Promise((resolve) => document.getElementById(id).addEventListener("taint-check-render", () => resolve(), { once: true })),
    id,
  );
  await area.fill(after);
  await rendered;
}

/** Whether the widget shows its dark palette. */
export const isDark = (page, id) =>
  page.$eval(`taint-check#${id}`, (el) => el.shadowRoot.querySelector(".tc").classList.contains("dark"));

/** Milliseconds from navigation start to the first widget's render, and from the load event. */
export const firstRender = (page) =>
  page.evaluate(() => {
    const mark = performance.getEntriesByName("taint-check:first-render")[0];
    const nav = performance.getEntriesByType("navigation")[0];
    return mark ? { sinceStart: Math.round(mark.startTime), sinceLoad: Math.round(mark.startTime - nav.loadEventEnd) } : null;
  });

/** Raw and gzipped bytes the server sent since `from` (an index into the log). */
export function bytesSince(log, from, filter = () => true) {
  let bytes = 0;
  let gz = 0;
  for (const r of log.slice(from)) {
    if (!filter(r.path)) continue;
    bytes += r.bytes;
    gz += r.gz;
  }
  return { bytes, gz };
}

export function assertEqual(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: got ${a}, expected ${e}`);
}
