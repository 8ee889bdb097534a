// The doc-site browser harness: serve a built site on 127.0.0.1, load its pages in
// headless Chromium (playwright-core from wasm/js/node_modules, Debian's chromium) and
// read what every <taint-check> on a page shows. Each generator's test (mdbook/test.mjs,
// hugo/, docusaurus/) builds on these functions; see ../README.md.
//
// Environment: CHROMIUM (browser binary, default /usr/bin/chromium).
import path from "node:path";
import fs from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import assert from "node:assert/strict";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const ROOT = path.resolve(here, "../../..");

const { serve: serveRoutes } = await import(pathToFileURL(path.join(ROOT, "wasm/js/test/server.mjs")).href);
const { chromium } = await import(pathToFileURL(path.join(ROOT, "wasm/js/node_modules/playwright-core/index.mjs")).href);

export { assert };

/**
 * Serves directories: `routes` is [urlPrefix, directory] pairs, longest prefix first
 * (`[["/zh/", zhSite], ["/", site]]`). Returns `{url, requests, close}`; `requests` lists
 * every path asked for, in order.
 */
export function serve(routes) {
  return serveRoutes(routes);
}

/** Headless Chromium, as the npm package's browser tests start it. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
  });
}

/** Named checks: each runs, prints ok/not ok with its time, and the run fails if one does. */
export class Checks {
  passed = 0;
  failed = 0;
  notes = [];
  constructor(title) {
    this.title = title;
    console.log(`# ${title}`);
  }
  async check(name, fn) {
    const start = Date.now();
    try {
      await fn();
      this.passed++;
      console.log(`ok - ${name} (${Date.now() - start} ms)`);
    } catch (e) {
      this.failed++;
      console.log(`not ok - ${name}\n  ${String(e?.stack ?? e).split("\n").join("\n  ")}`);
    }
  }
  /** A figure to print in the summary (bytes, times). */
  note(line) {
    this.notes.push(line);
    console.log(`  ${line}`);
  }
  /** Prints the summary; the process exits 1 when a check failed. */
  finish() {
    console.log(`\n${this.title}: ${this.passed} passed, ${this.failed} failed`);
    for (const n of this.notes) console.log(`  ${n}`);
    process.exitCode = this.failed ? 1 : 0;
  }
}

/**
 * Opens `url` in a new page of `context` and records console errors, page errors, failed
 * requests and every request's path. Returns `{page, errors, requests}`.
 */
export async function open(context, url) {
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("requestfailed", (r) => errors.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ""}`));
  page.on("response", (r) => {
    if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.on("request", (r) => requests.push(new URL(r.url()).pathname));
  await page.goto(url, { waitUntil: "load" });
  return { page, errors, requests };
}

/** Scrolls every widget into view (they load lazily) and waits until each has rendered or shown a problem. */
export async function settle(page, { count, timeout = 20000 } = {}) {
  if (count !== undefined) {
    await page.waitForFunction((n) => document.querySelectorAll("taint-check").length === n, count, { timeout });
  }
  const n = await page.locator("taint-check").count();
  for (let i = 0; i < n; i++) {
    const w = page.locator("taint-check").nth(i);
    await w.scrollIntoViewIfNeeded();
    await page.waitForFunction((i) => {
      const el = document.querySelectorAll("taint-check")[i];
      return el?.dataset.state === "live" || el?.dataset.state === "error";
    }, i, { timeout });
  }
  return n;
}

/**
 * What every widget of the page shows, in page order: its state (`live` or `error`), the
 * problem kind (`input`, `indentation`, `fence`), the heading and badge, each pod's
 * verdict (`data-verdict`) and verdict sentence, the eviction time of each pod with a
 * NoExecute timeline, the error text, whether the playground link is shown, the
 * language of the words and whether the dark palette is on.
 */
export function widgets(page) {
  return page.$$eval("taint-check", (els) =>
    els.map((el) => {
      const root = el.shadowRoot;
      const pods = {};
      const sentences = {};
      const evictedAt = {};
      for (const s of root?.querySelectorAll("section.pod") ?? []) {
        pods[s.dataset.pod] = s.dataset.verdict;
        sentences[s.dataset.pod] = s.querySelector("p.verdict")?.textContent ?? "";
        const tl = s.querySelector(".timeline");
        if (tl) evictedAt[s.dataset.pod] = tl.dataset.evictedAt;
      }
      const link = root?.querySelector("a.playground");
      return {
        state: el.dataset.state ?? null,
        problem: el.dataset.problem ?? null,
        heading: root?.querySelector(".heading")?.textContent ?? null,
        badge: root?.querySelector(".badge")?.textContent ?? null,
        pods,
        sentences,
        evictedAt,
        title: root?.querySelector("p.verdict")?.textContent ?? null,
        error: root?.querySelector(".error")?.textContent ?? null,
        playgroundShown: !!link && !link.hidden && getComputedStyle(link).display !== "none",
        playgroundHref: link?.href ?? null,
        dark: !!root?.querySelector(".tc.dark"),
        source: root?.querySelector("textarea")?.value ?? null,
      };
    }),
  );
}

/**
 * Replaces the text of widget `index`'s editor with `edit(text)` and waits for the update
 * that follows (a verdict or a problem shown); returns the text before.
 */
export async function edit(page, index, edit) {
  const area = page.locator("taint-check").nth(index).locator("textarea").first();
  const before = await area.inputValue();
  const after = edit(before);
  assert.notEqual(after, before, "the edit changes the text");
  // Every update sets data-state again (live or error): clear it, then wait for it.
  await page.evaluate((i) => document.querySelectorAll("taint-check")[i].removeAttribute("data-state"), index);
  await area.fill(after);
  await page.waitForFunction((i) => document.querySelectorAll("taint-check")[i].hasAttribute("data-state"), index);
  return before;
}

/** The wasm downloads among `requests`. */
export function wasmDownloads(requests) {
  return requests.filter((r) => r.endsWith(".wasm"));
}

/**
 * What a page downloads for its widgets: the element module(s) and the wasm, each with
 * its size and gzip -9 size, read from the site folder `dir` served at `prefix`.
 */
export function widgetBytes(requests, dir, prefix = "/") {
  const files = [...new Set(requests.filter((r) => /taint-check[^/]*\.js$|\.wasm$/.test(r)))];
  let raw = 0;
  let gz = 0;
  const each = [];
  for (const r of files) {
    const file = path.join(dir, decodeURIComponent(r.slice(prefix.length)));
    const bytes = fs.readFileSync(file);
    // gzip -9, as the package's size budgets measure.
    const z = execFileSync("gzip", ["-9", "-c", file], { maxBuffer: 64 << 20 }).length;
    raw += bytes.length;
    gz += z;
    each.push(`${path.basename(r)} ${bytes.length} B (${z} B gz)`);
  }
  return { raw, gz, files: each };
}

/** Milliseconds from the page's load event to the first live widget (the element's performance mark). */
export async function firstRenderAfterLoad(page) {
  await page.waitForFunction(() => performance.getEntriesByName("taint-check:first-render").length > 0);
  return page.evaluate(() => {
    const mark = performance.getEntriesByName("taint-check:first-render")[0];
    const nav = performance.getEntriesByType("navigation")[0];
    return { afterLoad: mark.startTime - nav.loadEventEnd, afterStart: mark.startTime };
  });
}

/**
 * Without JavaScript: for each of `urls`, the text of each widget's fallback code block
 * (what a reader without scripts sees), its height and whether it is shown.
 */
export async function fallbacks(browser, urls) {
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const p = await ctx.newPage();
  const out = [];
  for (const url of urls) {
    await p.goto(url, { waitUntil: "domcontentloaded" });
    out.push(await p.$$eval("taint-check", (els) =>
      els.map((el) => {
        const pre = el.querySelector("pre");
        const r = pre?.getBoundingClientRect();
        return { text: pre?.innerText ?? "", height: r?.height ?? 0, visible: !!pre && getComputedStyle(pre).display !== "none" };
      }),
    ));
  }
  await ctx.close();
  return out;
}

/**
 * The fenced blocks of a Markdown text, with their info strings: `[{info, text}]`.
 * For checking a README's recipe against the site the test builds.
 */
export function fences(markdown) {
  const out = [];
  const re = /^([ \t]*)(`{3,}|~{3,})([^\n]*)\n([\s\S]*?)^\1\2[ \t]*$/gm;
  for (const m of markdown.matchAll(re)) {
    const indent = m[1].length;
    const text = m[4].split("\n").map((l) => l.slice(Math.min(indent, l.match(/^ */)[0].length))).join("\n");
    out.push({ info: m[3].trim(), text });
  }
  return out;
}

/** The part of a Markdown text under the heading `heading` (up to the next heading of the same or a higher level). */
export function section(markdown, heading) {
  const lines = markdown.split("\n");
  const level = heading.match(/^#+/)[0].length;
  const start = lines.findIndex((l) => l.trim() === heading);
  assert.ok(start >= 0, `no heading ${heading}`);
  let end = lines.length;
  let inFence = null;
  for (let i = start + 1; i < lines.length; i++) {
    const f = lines[i].match(/^\s*(`{3,}|~{3,})/);
    if (f) {
      if (!inFence) inFence = f[1];
      else if (lines[i].trim().startsWith(inFence)) inFence = null;
      continue;
    }
    if (inFence) continue;
    const h = lines[i].match(/^(#+)\s/);
    if (h && h[1].length <= level) {
      end = i;
      break;
    }
  }
  return lines.slice(start, end).join("\n");
}
