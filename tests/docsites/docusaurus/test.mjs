// Headless Chromium on the Docusaurus 3 test site built with taintlab/docusaurus
// (`cargo xtask docsites`), served under /sub/: every widget's verdict, editing, no
// console errors, one wasm download per page (and none more after client-side
// navigation), widgets alive after client-side navigation both ways, dark mode through
// the theme's toggle, the stylesheet through the bundler under baseUrl, the pt-BR locale,
// the server-rendered fallback, the what-if fence against the native engine (loaded and
// reached by client-side navigation, its wasm fetched once and only where it is); bytes
// per page and the first render are reported.
//
//   DOCUSAURUS_BUILD=<build dir> CHROMIUM=/usr/bin/chromium node tests/docsites/docusaurus/test.mjs
import assert from "node:assert/strict";
import {
  assertEqual, bytesSince, check, edit, evictions, finish, firstRender, isDark, launch, open,
  serveSite, settle, state, verdicts, verdictText,
} from "../site-check.mjs";
import { fenceMismatches, readFencesPage } from "../fences-page.mjs";
import { assertWhatIf, packageDir, readWhatIf, recordWhatIfRenders, wasmKinds, whatIfCase } from "../common/whatif.mjs";

const BUILD = process.env.DOCUSAURUS_BUILD;
if (!BUILD) throw new Error("DOCUSAURUS_BUILD (the built site) is not set");

const server = await serveSite("/sub/", BUILD);
const browser = await launch();
const report = [];
// The bundler names the wasm files by a hash: which is which is told by their bytes.
const kinds = (urls) => wasmKinds(urls.map((u) => new URL(u).pathname), { dir: BUILD, prefix: "/sub/", pkg: packageDir() });

const INTRO = {
  dedicated: { state: "live", pods: { "team-app": "scheduled" } },
  eviction: { state: "live", pods: { cache: "scheduled" }, evictions: ["6000"] },
  broken: { state: "error", problem: "input" },
  flattened: { state: "error", problem: "indentation" },
  misspelt: { state: "error", problem: "fence" },
};
const MORE = {
  gpu: { state: "live", pods: { trainer: "scheduled", web: "pending" } },
  attributes: { state: "live", pods: { batch: "pending" } },
};
const PT = {
  dedicated: { state: "live", pods: { "team-app": "scheduled" } },
  eviction: { state: "live", pods: { cache: "scheduled" }, evictions: ["6000"] },
};

async function expectWidgets(page, label, expected) {
  await settle(page, Object.keys(expected));
  for (const [id, want] of Object.entries(expected)) {
    assert.equal(await state(page, id), want.state, `${label}: ${id} state`);
    if (want.pods) assertEqual(await verdicts(page, id), want.pods, `${label}: ${id} verdicts`);
    if (want.evictions) assertEqual(await evictions(page, id), want.evictions, `${label}: ${id} eviction times`);
    if (want.problem) assert.equal(await page.getAttribute(`taint-check#${id}`, "data-problem"), want.problem, `${label}: ${id} problem`);
    if (want.problem === "input") {
      const text = await page.$eval(`taint-check#${id} .error`, (e) => e.textContent);
      assert.match(text, /line \d+/, `${label}: ${id}: the error names its line`);
    }
  }
}

/** Loads a page in a fresh context (nothing cached) and records what it cost. */
async function measured(path, expected) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const from = server.log.length;
  const opened = await open(context, server.url + path);
  if (expected) await expectWidgets(opened.page, path, expected);
  const first = expected ? await firstRender(opened.page) : null;
  report.push({ page: path, widgets: expected ? Object.keys(expected).length : 0, ...bytesSince(server.log, from), wasm: bytesSince(server.log, from, (p) => p.endsWith(".wasm")), firstRender: first });
  return { context, ...opened };
}

let englishText = null;
await check("English docs page: every widget shows its verdict, one wasm download, no console errors", async () => {
  const { context, page, errors, wasm } = await measured("", INTRO);
  englishText = await verdictText(page, "dedicated");
  assert.equal(wasm.length, 1, wasm.join(", "));
  assert.deepEqual(kinds(wasm), ["engine"], "no what-if wasm without a what-if widget");
  for (const id of Object.keys(INTRO)) assert.equal(await page.getAttribute(`taint-check#${id}`, "lang"), "en");
  assert.deepEqual(errors, []);
  await context.close();
});

await check("the stylesheet comes through the bundler under /sub/", async () => {
  const context = await browser.newContext();
  const { page, errors } = await open(context, server.url + "plain");
  const found = await page.evaluate(() =>
    [...document.styleSheets].some((s) => {
      try {
        return [...s.cssRules].some((r) => r.cssText.includes("taint-check:not(:defined)"));
      } catch {
        return false;
      }
    }),
  );
  assert.ok(found, "the element's fallback rules are in the page's CSS");
  const outside = server.log.filter((r) => !r.path.startsWith("/sub/"));
  assert.deepEqual(outside, [], "every request stays under the base URL");
  assert.deepEqual(errors, []);
  await context.close();
});

await check("a page without widgets downloads no wasm", async () => {
  const { context, wasm, errors } = await measured("plain");
  assert.deepEqual(wasm, []);
  assert.deepEqual(errors, []);
  await context.close();
});

await check("client-side navigation: widgets render on the new route and after going back, no second wasm download", async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const { page, errors, wasm } = await open(context, server.url);
  await expectWidgets(page, "intro", INTRO);
  await page.evaluate(() => (window.__sameDocument = true));
  await page.click('main a[href$="/more"]');
  await page.waitForURL(/\/sub\/more$/);
  await expectWidgets(page, "more (navigated)", MORE);
  await page.goBack();
  await page.waitForURL(/\/sub\/$/);
  await expectWidgets(page, "intro (back)", INTRO);
  assert.equal(await page.evaluate(() => window.__sameDocument), true, "the navigation stayed client-side");
  assert.equal(wasm.length, 1, wasm.join(", "));
  assert.deepEqual(kinds(wasm), ["engine"]);
  await edit(page, "dedicated", (t) => t.replace("value: groupName", "value: other-group"));
  assertEqual(await verdicts(page, "dedicated"), { "team-app": "pending" }, "after the edit");
  assertEqual(await verdicts(page, "eviction"), { cache: "scheduled" }, "the other widgets stay");
  assert.deepEqual(errors, []);
  await context.close();
});

await check("dark mode: the theme's toggle switches the widgets' palette", async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const { page, errors } = await open(context, server.url + "more");
  await expectWidgets(page, "more", MORE);
  assert.equal(await isDark(page, "gpu"), false, "light first");
  // The navbar's colour mode toggle (light, dark, system in turn).
  const toggle = page.locator("button[aria-label*='dark and light' i]:not([disabled])");
  for (let i = 0; i < 3 && (await page.evaluate(() => document.documentElement.dataset.theme)) !== "dark"; i++) {
    await toggle.click();
  }
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark", "the toggle reaches dark");
  await page.waitForFunction(() => document.getElementById("gpu").shadowRoot.querySelector(".tc").classList.contains("dark"));
  assert.equal(await page.locator("div[class*='codeBlock'] pre").count() > 0, true, "the plain YAML block stays a code block");
  assert.deepEqual(errors, []);
  await context.close();
});

await check("pt-BR locale: widgets in the page's language", async () => {
  const { context, page, errors, wasm } = await measured("pt-BR/", PT);
  for (const id of Object.keys(PT)) assert.equal(await page.getAttribute(`taint-check#${id}`, "lang"), "pt-BR", id);
  const text = await verdictText(page, "dedicated");
  assert.notDeepEqual(text, englishText, `the verdict is translated: ${text}`);
  assert.equal(wasm.length, 1);
  assert.deepEqual(kinds(wasm), ["engine"]);
  assert.deepEqual(errors, []);
  await context.close();
});

await check("what-if fence under /sub/: loaded, and reached by client-side navigation both ways; the native engine's answer; its wasm once, on its page only", async () => {
  const c = whatIfCase();
  const answer = async (page) => {
    await settle(page, ["drain"]);
    const shown = await readWhatIf(page, "taint-check#drain");
    assert.equal(shown.heading, "Draining node-a");
    assert.equal(await page.getAttribute("taint-check#drain", "lang"), "en");
    assertWhatIf(shown, c);
  };
  // Loaded: the server-rendered page.
  {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    await context.addInitScript(recordWhatIfRenders);
    const from = server.log.length;
    const { page, errors, wasm } = await open(context, server.url + "what-if");
    await answer(page);
    assert.deepEqual(kinds(wasm).sort(), ["engine", "what-if"]);
    const first = await firstRender(page);
    report.push({ page: "what-if", widgets: 1, ...bytesSince(server.log, from), wasm: bytesSince(server.log, from, (p) => p.endsWith(".wasm")), firstRender: first });
    assert.deepEqual(errors, []);
    await context.close();
  }
  // Reached from a page without widgets, then away and back, client-side.
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await context.addInitScript(recordWhatIfRenders);
  const from = server.log.length;
  const { page, errors, wasm } = await open(context, server.url + "plain");
  assert.deepEqual(wasm, [], "the page without widgets");
  await page.evaluate(() => (window.__sameDocument = true));
  await page.click('nav a[href$="/what-if"]');
  await page.waitForURL(/\/sub\/what-if$/);
  await answer(page);
  assert.deepEqual(kinds(wasm).sort(), ["engine", "what-if"]);
  await page.click('nav a[href$="/more"]');
  await page.waitForURL(/\/sub\/more$/);
  await expectWidgets(page, "more (navigated)", MORE);
  await page.goBack();
  await page.waitForURL(/\/sub\/what-if$/);
  await answer(page);
  assert.equal(await page.evaluate(() => window.__sameDocument), true, "the navigation stayed client-side");
  assert.deepEqual(kinds(wasm).sort(), ["engine", "what-if"], "each fetched once");
  assert.deepEqual(server.log.slice(from).filter((r) => !r.path.startsWith("/sub/")), [], "every request stays under the base URL");
  assert.deepEqual(errors, []);
  await context.close();
});

await check("without JavaScript the server-rendered page shows the YAML as a code block", async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(server.url);
  const text = await page.locator("taint-check pre").first().innerText();
  assert.match(text, /metadata:\n  name: team-app\n\nspec:\n  tolerations:\n\n  - key: dedicated\n    operator: Equal/);
  await context.close();
});

await check("fences.json: exactly the widget cases become widgets, with their info string", async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(server.url + "fences");
  assert.deepEqual(fenceMismatches(await readFencesPage(page)), []);
  await context.close();
});

for (const r of report) {
  console.log(
    `    /sub/${r.page}: ${r.widgets} widgets, ${r.bytes} B (${r.gz} B gz) per page, wasm ${r.wasm.bytes} B (${r.wasm.gz} B gz)` +
      (r.firstRender ? `; first widget rendered ${r.firstRender.sinceStart} ms after navigation start (${r.firstRender.sinceLoad} ms after load)` : ""),
  );
}
await browser.close();
await server.close();
finish("docusaurus site");
