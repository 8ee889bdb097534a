// Headless Chromium (playwright-core, Debian's chromium) on the example docs page and on a
// fresh web page that installed the tarball:
//   - every widget renders (lazily: the last one only once scrolled into view), with the
//     expected verdicts;
//   - editing updates the verdict; two widgets stay independent;
//   - one wasm download serves every widget; "Open in playground" carries the state;
//   - light and dark follow the host page; theming through CSS custom properties;
//   - without JavaScript the YAML shows as a static fallback;
//   - no console errors; the first widget's render time is reported (budget 300 ms).
//
// Environment: TAINTLAB_PKG (package dir), TAINTLAB_DOCS (docs dir), TAINTLAB_CONSUMER
// (fresh project with node_modules/taintlab), CHROMIUM (browser binary), SCREENSHOTS (dir).
import { chromium } from "playwright-core";
import assert from "node:assert/strict";
import { inflateRawSync } from "node:zlib";
import path from "node:path";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { serve } from "../server.mjs";
import { whatIfChecks } from "./whatif.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../../..");
const PKG = path.resolve(process.env.TAINTLAB_PKG ?? path.join(root, "target/npm/taintlab"));
const DOCS = path.resolve(process.env.TAINTLAB_DOCS ?? path.join(root, "docs"));
const CONSUMER = process.env.TAINTLAB_CONSUMER ? path.resolve(process.env.TAINTLAB_CONSUMER) : null;
const SHOTS = path.resolve(process.env.SCREENSHOTS ?? path.join(root, "target/npm/screenshots"));
const FIRST_RENDER_BUDGET_MS = 300;

const routes = [["/taintlab/", PKG]];
if (CONSUMER) routes.push(["/consumer/", CONSUMER]);
routes.push(["/whatif-page/", here]);
routes.push(["/", DOCS]);
const server = await serve(routes);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
});

let passed = 0;
let failed = 0;
async function check(name, fn) {
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

/** A page that records console errors and page errors. */
async function open(context, url) {
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(url, { waitUntil: "load" });
  return { page, errors };
}

const live = (page, id) => page.waitForSelector(`#${id}[data-state="live"]`, { timeout: 15000 });
const podVerdicts = (page, id) =>
  page.$$eval(`#${id} section.pod`, (els) => Object.fromEntries(els.map((e) => [e.dataset.pod, e.dataset.verdict])));
const pairVerdicts = (page, id, pod) =>
  page.$$eval(`#${id} section.pod[data-pod="${pod}"] details.pair`, (els) => Object.fromEntries(els.map((e) => [e.dataset.node, e.dataset.verdict])));

const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
const { page, errors } = await open(context, server.url);

let firstRender = null;
await check("the first widget renders within the budget", async () => {
  await live(page, "dedicated-nodes");
  firstRender = await page.evaluate(() => {
    const mark = performance.getEntriesByName("taint-check:first-render")[0];
    const nav = performance.getEntriesByType("navigation")[0];
    const res = (name) => performance.getEntriesByType("resource").find((r) => r.name.endsWith(name));
    const wasm = res("taintlab_bg.wasm");
    return {
      sinceNavigation: mark.startTime,
      sinceLoad: mark.startTime - nav.loadEventEnd,
      html: nav.responseEnd,
      domContentLoaded: nav.domContentLoadedEventEnd,
      load: nav.loadEventEnd,
      wasm: wasm ? [wasm.startTime, wasm.responseEnd] : null,
    };
  });
  const f = (n) => n.toFixed(1);
  console.log(`  first widget render: ${f(firstRender.sinceLoad)} ms after the load event, ${f(firstRender.sinceNavigation)} ms after navigation start`);
  console.log(`  (page HTML at ${f(firstRender.html)} ms, DOMContentLoaded ${f(firstRender.domContentLoaded)} ms, load ${f(firstRender.load)} ms` +
    (firstRender.wasm ? `, wasm fetched ${f(firstRender.wasm[0])}-${f(firstRender.wasm[1])} ms)` : ")"));
  // The budget: at most 300 ms from the page's load event to the first live widget.
  assert.ok(firstRender.sinceLoad <= FIRST_RENDER_BUDGET_MS, `first render ${firstRender.sinceLoad} ms after load`);
});

await check("widgets load lazily: the last one waits until it nears the viewport", async () => {
  const state = await page.$eval("#cost-thresholds", (e) => e.getAttribute("data-state"));
  assert.equal(state, null, "not rendered before scrolling");
  const fallback = await page.$eval("#cost-thresholds", (e) => e.shadowRoot.querySelector("textarea").value);
  assert.match(fallback, /kubectl taint nodes spot-1/, "the source is shown while waiting");
});

const expected = {
  "dedicated-nodes": { pods: { "team-app": "scheduled", "other-app": "scheduled" }, pairs: { "team-app": { node1: "schedulable", node2: "schedulable" }, "other-app": { node1: "untolerated", node2: "schedulable" } } },
  "gpu-nodes": { pods: { "cuda-training": "scheduled" }, pairs: { "cuda-training": { "gpu-node-1": "schedulable" } } },
  "taint-eviction": { pods: { cache: "bypassed", web: "bypassed" }, pairs: { cache: { node1: "bypassed" }, web: { node1: "bypassed" } } },
  "tolerate-everything": { pods: { "log-collector": "scheduled" }, pairs: { "log-collector": { node1: "schedulable" } } },
  "daemonset-defaults": { pods: { "node-exporter": "scheduled", api: "pending" }, pairs: { "node-exporter": { node1: "schedulable" }, api: { node1: "untolerated" } } },
  "cost-thresholds": { pods: { "nightly-report": "scheduled" }, pairs: { "nightly-report": { "spot-1": "schedulable", "on-demand-1": "untolerated" } } },
};

await check("every widget renders the classic cases' verdicts", async () => {
  for (const [id, want] of Object.entries(expected)) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await live(page, id);
    assert.deepEqual(await podVerdicts(page, id), want.pods, id);
    for (const [pod, pairs] of Object.entries(want.pairs)) assert.deepEqual(await pairVerdicts(page, id, pod), pairs, `${id} ${pod}`);
  }
});

await check("NoExecute timelines: 6000 s, 300 s from DefaultTolerationSeconds, never for tolerate-everything", async () => {
  const at = (id, pod) => page.$eval(`#${id} section.pod[data-pod="${pod}"] .timeline`, (e) => e.dataset.evictedAt);
  assert.equal(await at("taint-eviction", "cache"), "6000");
  assert.equal(await at("taint-eviction", "web"), "300");
  assert.equal(await at("tolerate-everything", "log-collector"), "never");
  assert.equal(await at("daemonset-defaults", "node-exporter"), "never");
  const origins = await page.$$eval('#daemonset-defaults section.pod[data-pod="node-exporter"] .tolerations li', (els) => els.map((e) => e.textContent));
  assert.equal(origins.length, 6);
  assert.ok(origins.every((t) => t.includes("added by the DaemonSet controller")));
  const message = await page.$eval('#daemonset-defaults section.pod[data-pod="api"] .event', (e) => e.textContent);
  assert.equal(message, "Warning  FailedScheduling  0/1 nodes are available: 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.");
});

await check("editing updates the verdict, and the other widgets stay as they were", async () => {
  const tolerations = page.locator("#gpu-nodes textarea.tolerations");
  await tolerations.fill("[]");
  await page.waitForFunction(() => document.querySelector("#gpu-nodes").shadowRoot.querySelector('section.pod[data-pod="cuda-training"]')?.dataset.verdict === "pending");
  const msg = await page.$eval("#gpu-nodes section.pod .event", (e) => e.textContent);
  assert.match(msg, /0\/1 nodes are available: 1 node\(s\) had untolerated taint\(s\)/);
  assert.deepEqual(await podVerdicts(page, "dedicated-nodes"), expected["dedicated-nodes"].pods, "independent");
  // A YAML widget: drop the toleration's value so it no longer matches.
  const yaml = page.locator("#dedicated-nodes textarea.yaml");
  const text = await yaml.inputValue();
  await yaml.fill(text.replace("value: groupName", "value: otherGroup"));
  await page.waitForFunction(() => document.querySelector("#dedicated-nodes").shadowRoot.querySelector('section.pod[data-pod="team-app"] details.pair[data-node="node1"]')?.dataset.verdict === "untolerated");
  assert.deepEqual(await podVerdicts(page, "gpu-nodes"), { "cuda-training": "pending" }, "the GPU widget keeps its own edit");
  await yaml.fill(text);
  await tolerations.fill("[{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]");
  await page.waitForFunction(() => document.querySelector("#gpu-nodes").shadowRoot.querySelector("section.pod")?.dataset.verdict === "scheduled");
});

await check("each block of an example says what it was read as and what was read from it", async () => {
  const blocks = await page.$eval("#dedicated-nodes", (e) => [...e.shadowRoot.querySelectorAll("details.blocks li")].map((li) => li.textContent));
  assert.ok(blocks.length > 0, "no blocks listed");
  assert.ok(blocks.every((b) => /^lines? \d+(–\d+)?, .+: .+$/.test(b)), blocks.join("\n"));
  assert.ok(blocks.some((b) => /: \d+ nodes?\b/.test(b)) && blocks.some((b) => /: .*\d+ pods?\b/.test(b)), blocks.join("\n"));
});

await check("a syntax error shows where it is, and fixing it brings the verdict back", async () => {
  const yaml = page.locator("#tolerate-everything textarea.yaml");
  const text = await yaml.inputValue();
  await yaml.fill(text.replace("- operator: Exists", "- operator: [Exists"));
  await page.waitForSelector('#tolerate-everything[data-state="error"]');
  const err = await page.$eval("#tolerate-everything .error", (e) => e.textContent);
  assert.match(err, /^line \d+, column \d+/);
  assert.equal(await yaml.getAttribute("aria-invalid"), "true");
  await yaml.fill(text);
  await live(page, "tolerate-everything");
});

await check("a kubectl line kubectl refuses is listed and the other lines keep their effects", async () => {
  const yaml = page.locator("#tolerate-everything textarea.yaml");
  const text = await yaml.inputValue();
  await yaml.fill(`kubectl taint nodes node2 a=b:Bogus\nkubectl taint nodes node3 c=d:NoSchedule\n---\n${text}`);
  await page.waitForFunction(() => {
    const root = document.querySelector("#tolerate-everything").shadowRoot;
    return [...root.querySelectorAll(".notes li")].some((li) => li.textContent.startsWith("line 1: "));
  });
  assert.equal(await page.$eval("#tolerate-everything", (e) => e.getAttribute("data-state")), "live");
  const names = await page.$eval("#tolerate-everything", (e) => [...e.shadowRoot.querySelectorAll(".node-name")].map((n) => n.textContent));
  assert.ok(names.includes("node3") && !names.includes("node2"), names.join(", "));
  await yaml.fill(text);
  await live(page, "tolerate-everything");
});

await check("one wasm download serves every widget", async () => {
  const wasm = server.requests.filter((r) => r.endsWith("taintlab_bg.wasm"));
  assert.equal(wasm.length, 1, wasm.join(", "));
  assert.ok(!server.requests.some((r) => r.includes("taintlab_tools") || r.includes("taintlab_policy")), "the tools and policy modules are never loaded");
  assert.ok(!server.requests.some((r) => r.includes("taintlab_whatif")), "a page without what-if widgets never loads the what-if module");
});

await check("Open in playground carries the example in the URL fragment (share format v1)", async () => {
  await page.waitForFunction(() => document.querySelector("#cost-thresholds").shadowRoot.querySelector("a.playground").href.includes("#v=1&s="));
  const href = await page.$eval("#cost-thresholds", (e) => e.shadowRoot.querySelector("a.playground").href);
  assert.ok(href.startsWith("https://example.invalid/taintlab/#v=1&s="), href);
  const payload = href.split("#v=1&s=")[1];
  const state = JSON.parse(inflateRawSync(Buffer.from(payload.replace(/-/g, "+").replace(/_/g, "/"), "base64")).toString("utf8"));
  assert.equal(state.nodes, "kubectl taint nodes spot-1 example.com/cost=40:NoSchedule\nkubectl taint nodes on-demand-1 example.com/cost=90:NoSchedule\n");
  assert.match(state.pods, /kind: Job/);
  assert.equal(state.version, "1.35.0");
  assert.equal(state.comparisonOperators, true);
  assert.deepEqual(state.admission, { enabled: true });
  const gpu = await page.$eval("#gpu-nodes", (e) => e.shadowRoot.querySelector("a.playground").href);
  const g = JSON.parse(inflateRawSync(Buffer.from(gpu.split("#v=1&s=")[1].replace(/-/g, "+").replace(/_/g, "/"), "base64")).toString("utf8"));
  assert.equal(g.nodes, "nvidia.com/gpu=present:NoSchedule");
});

await check("light and dark follow the host page; colours are themable", async () => {
  const scheme = () => page.$eval("#gpu-nodes", (e) => e.shadowRoot.querySelector(".tc").classList.contains("dark"));
  assert.equal(await scheme(), false);
  await page.locator("#gpu-nodes").scrollIntoViewIfNeeded();
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, "docs-light.png"), fullPage: false });
  await page.click("#theme");
  await page.waitForFunction(() => document.querySelector("#gpu-nodes").shadowRoot.querySelector(".tc").classList.contains("dark"));
  await page.screenshot({ path: path.join(SHOTS, "docs-dark.png"), fullPage: false });
  await page.click("#theme");
  await page.waitForFunction(() => !document.querySelector("#gpu-nodes").shadowRoot.querySelector(".tc").classList.contains("dark"));
  const color = await page.evaluate(() => {
    document.querySelector("#gpu-nodes").style.setProperty("--taint-check-ok", "rgb(1, 2, 3)");
    return getComputedStyle(document.querySelector("#gpu-nodes").shadowRoot.querySelector(".verdict.ok")).color;
  });
  assert.equal(color, "rgb(1, 2, 3)");
  // Host styles do not leak in.
  const spacing = await page.evaluate(() => {
    const s = document.createElement("style");
    s.textContent = "p { letter-spacing: 7px !important; }";
    document.head.append(s);
    const inside = getComputedStyle(document.querySelector("#gpu-nodes").shadowRoot.querySelector("p.verdict")).letterSpacing;
    s.remove();
    document.querySelector("#gpu-nodes").style.removeProperty("--taint-check-ok");
    return inside;
  });
  assert.equal(spacing, "normal");
});

await check("no console errors on the docs page", async () => {
  assert.deepEqual(errors, []);
});

await page.screenshot({ path: path.join(SHOTS, "docs-full.png"), fullPage: true });
for (const id of Object.keys(expected)) await page.locator(`#${id}`).screenshot({ path: path.join(SHOTS, `widget-${id}.png`) });
await context.close();

await check("without JavaScript the YAML shows as a static fallback", async () => {
  const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1100, height: 900 } });
  const p = await ctx.newPage();
  await p.goto(server.url, { waitUntil: "load" });
  const shown = await p.$eval("#dedicated-nodes > script", (s) => ({ display: getComputedStyle(s).display, h: s.getBoundingClientRect().height, text: s.innerText }));
  assert.equal(shown.display, "block");
  assert.ok(shown.h > 100, `height ${shown.h}`);
  assert.match(shown.text, /kind: Pod/);
  const attr = await p.$eval("#gpu-nodes", (e) => getComputedStyle(e, "::before").content);
  assert.match(attr, /nvidia\.com\/gpu=present:NoSchedule/);
  await p.locator("#gpu-nodes").scrollIntoViewIfNeeded();
  await p.screenshot({ path: path.join(SHOTS, "docs-nojs.png") });
  await ctx.close();
});

await whatIfChecks({ browser, server, check, open, shots: SHOTS });

if (CONSUMER) {
  await check("a fresh web page that installed the tarball works", async () => {
    const ctx = await browser.newContext();
    const { page: p, errors: errs } = await open(ctx, `${server.url}consumer/index.html`);
    await p.waitForSelector("#out:not(:empty)");
    assert.equal(await p.$eval("#out", (e) => e.textContent), "schedulable");
    await p.waitForSelector('#w[data-state="live"]');
    assert.equal(await p.$eval("#w", (e) => e.shadowRoot.querySelector("section.pod").dataset.verdict), "scheduled");
    assert.equal(await p.$eval("#policy", (e) => e.textContent), "denied");
    // The dedicated-nodes example: each node shows the plugin that rejects it, and the
    // Pending pod the scheduler's FailedScheduling message (newest release, DynamicResources' text).
    await p.waitForSelector('#dedicated[data-state="live"]');
    const shown = await p.$eval("#dedicated", (e) => {
      const pods = {};
      for (const s of e.shadowRoot.querySelectorAll("section.pod")) {
        pods[s.dataset.pod] = {
          verdict: s.dataset.verdict,
          event: s.querySelector(".event")?.textContent ?? null,
          rejectedBy: Object.fromEntries([...s.querySelectorAll("details.pair")].map((d) => [d.dataset.node, d.dataset.rejectedBy ?? null])),
          fits: Object.fromEntries([...s.querySelectorAll("details.pair")].map((d) => [d.dataset.node, d.dataset.fits])),
          rejection: [...s.querySelectorAll("li.rejection")].map((li) => li.textContent),
        };
      }
      return pods;
    });
    assert.equal(shown.api.verdict, "scheduled");
    assert.deepEqual(shown.api.rejectedBy, { "payments-1": null, "general-1": "NodeAffinity" });
    assert.deepEqual(shown.api.fits, { "payments-1": "true", "general-1": "false" });
    assert.equal(shown.lost.verdict, "pending");
    assert.deepEqual(shown.lost.rejectedBy, { "payments-1": "TaintToleration", "general-1": "NodeAffinity" });
    assert.equal(shown.lost.event,
      "Warning  FailedScheduling  0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
    assert.ok(shown.lost.rejection.some((t) => t.includes("rejected by NodeAffinity") && t.includes("nodeSelector disktype=ssd: the node has no such label")), shown.lost.rejection.join("\n"));
    assert.deepEqual(errs, []);
    await ctx.close();
  });
}

await browser.close();
await server.close();
console.log(`\n${passed} passed, ${failed} failed` +
  (firstRender ? `; first widget render ${firstRender.sinceLoad.toFixed(1)} ms after load (${firstRender.sinceNavigation.toFixed(1)} ms after navigation start)` : ""));
process.exit(failed ? 1 : 0);
