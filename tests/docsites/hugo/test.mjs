// Headless Chromium on the Hugo test site built with the taintlab Hugo module
// (`cargo xtask docsites`): every widget's verdict, editing, no console errors, one wasm
// download per page, dark mode, the page's language, the no-JavaScript fallback, a page
// without widgets loading nothing, the what-if shortcode against the native engine (its
// wasm fetched once, on its page only); bytes per page and the first render are reported.
//
//   HUGO_PUBLIC=<built site> CHROMIUM=/usr/bin/chromium node tests/docsites/hugo/test.mjs
import assert from "node:assert/strict";
import {
  assertEqual, bytesSince, check, edit, evictions, finish, firstRender, isDark, launch, open,
  serveSite, settle, state, verdicts, verdictText,
} from "../site-check.mjs";
import { fenceMismatches, readFencesPage } from "../fences-page.mjs";
import { assertWhatIf, packageDir, readWhatIf, recordWhatIfRenders, wasmKinds, whatIfCase } from "../common/whatif.mjs";

const PUBLIC = process.env.HUGO_PUBLIC;
if (!PUBLIC) throw new Error("HUGO_PUBLIC (the built site) is not set");

// The site's baseURL is http://127.0.0.1/docs/: served under /docs/ as on a host.
const server = await serveSite("/docs/", PUBLIC);
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
const report = [];

const isTaintlab = (p) => p.includes("/taintlab/");
const kinds = (urls) => wasmKinds(urls.map((u) => new URL(u).pathname), { dir: PUBLIC, prefix: "/docs/", pkg: packageDir() });

for (const [label, path, expected] of [
  [
    "English page",
    "widgets/",
    {
      dedicated: { state: "live", pods: { "team-app": "scheduled" } },
      eviction: { state: "live", pods: { cache: "scheduled" }, evictions: ["6000"] },
      broken: { state: "error", problem: "input" },
      gpu: { state: "live", pods: { trainer: "scheduled", web: "pending" } },
      attributes: { state: "live", pods: { batch: "pending" } },
      directive: { state: "live", pods: { "other-app": "pending" }, version: "1.31" },
      flattened: { state: "error", problem: "indentation" },
      misspelt: { state: "error", problem: "fence" },
    },
  ],
  [
    "Simplified Chinese page",
    "zh-cn/widgets/",
    {
      dedicated: { state: "live", pods: { "team-app": "scheduled" } },
      eviction: { state: "live", pods: { cache: "scheduled" }, evictions: ["6000"] },
    },
  ],
]) {
  const from = server.log.length;
  const { page, errors, wasm } = await open(context, server.url + path);
  let ids = [];
  await check(`${label}: every widget renders`, async () => {
    ids = await settle(page, Object.keys(expected));
  });
  for (const [id, want] of Object.entries(expected)) {
    await check(`${label}: ${id} shows the expected verdict`, async () => {
      assert.equal(await state(page, id), want.state, `${id} state`);
      if (want.pods) assertEqual(await verdicts(page, id), want.pods, `${id} verdicts`);
      if (want.version) assert.match(await page.$eval(`taint-check#${id} .badge`, (e) => e.textContent), new RegExp(want.version.replace(".", "\\.")), `${id} release`);
      if (want.evictions) assertEqual(await evictions(page, id), want.evictions, `${id} eviction times`);
      if (want.problem) assert.equal(await page.getAttribute(`taint-check#${id}`, "data-problem"), want.problem, `${id} problem`);
      if (want.problem === "input") {
        const text = await page.$eval(`taint-check#${id} .error`, (e) => e.textContent);
        assert.match(text, /line \d+/, "the error names its line");
      }
    });
  }
  const lang = path.startsWith("zh-cn") ? "zh-cn" : "en";
  await check(`${label}: widgets get the page's language (lang="${lang}")`, async () => {
    for (const id of ids) assert.equal(await page.getAttribute(`taint-check#${id}`, "lang"), lang, id);
    if (lang === "zh-cn") {
      const text = (await verdictText(page, ids[0])).join(" ");
      assert.match(text, /[\u4e00-\u9fff]/, `the verdict is in Chinese: ${text}`);
    }
  });
  await check(`${label}: one wasm download for every widget, the engine (no what-if wasm)`, async () => {
    assert.equal(wasm.length, 1, wasm.join(", "));
    assert.deepEqual(kinds(wasm), ["engine"]);
  });
  const first = await firstRender(page);
  const bytes = bytesSince(server.log, from);
  const widget = bytesSince(server.log, from, isTaintlab);
  report.push({ page: path, widgets: ids.length, ...bytes, widgetBytes: widget.bytes, widgetGz: widget.gz, firstRender: first });
  if (path === "widgets/") {
    await check(`${label}: editing the YAML updates the verdict`, async () => {
      await edit(page, "dedicated", (t) => t.replace("value: groupName", "value: other-group"));
      assertEqual(await verdicts(page, "dedicated"), { "team-app": "pending" }, "after the edit");
      assertEqual(await verdicts(page, "gpu"), { trainer: "scheduled", web: "pending" }, "the other widgets stay");
    });
    await check(`${label}: dark mode follows the page`, async () => {
      assert.equal(await isDark(page, "gpu"), false, "light first");
      await page.evaluate(() => document.documentElement.classList.add("dark"));
      await page.waitForFunction(() => document.getElementById("gpu").shadowRoot.querySelector(".tc").classList.contains("dark"));
      await page.evaluate(() => document.documentElement.classList.remove("dark"));
      await page.waitForFunction(() => !document.getElementById("gpu").shadowRoot.querySelector(".tc").classList.contains("dark"));
    });
  }
  await check(`${label}: no console errors`, async () => {
    assert.deepEqual(errors, []);
  });
  await page.close();
}

await check("what-if shortcode: the native engine's drain, replacements and kubectl lines under /docs/; its wasm once, on its page only", async () => {
  const c = whatIfCase();
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  await ctx.addInitScript(recordWhatIfRenders);
  const from = server.log.length;
  const { page, errors, wasm } = await open(ctx, server.url + "what-if/");
  await settle(page, ["drain"]);
  const shown = await readWhatIf(page, "taint-check#drain");
  assert.equal(shown.heading, "Draining node-a");
  assert.equal(await page.getAttribute("taint-check#drain", "lang"), "en");
  assertWhatIf(shown, c);
  assert.deepEqual(kinds(wasm).sort(), ["engine", "what-if"]);
  const taintlab = server.log.slice(from).filter((r) => isTaintlab(r.path)).map((r) => r.path).sort();
  assert.deepEqual(taintlab, ["/docs/taintlab/taint-check.js", "/docs/taintlab/taintlab_bg.wasm", "/docs/taintlab/taintlab_whatif_bg.wasm"]);
  const widget = bytesSince(server.log, from, isTaintlab);
  report.push({ page: "what-if/", widgets: 1, ...bytesSince(server.log, from), widgetBytes: widget.bytes, widgetGz: widget.gz, firstRender: await firstRender(page) });
  assert.deepEqual(errors, []);
  await ctx.close();
});

await check("a page without widgets loads no Taintlab file", async () => {
  const from = server.log.length;
  const { page, errors } = await open(context, server.url);
  assert.deepEqual(errors, []);
  const loaded = server.log.slice(from).filter((r) => isTaintlab(r.path)).map((r) => r.path);
  assert.deepEqual(loaded, []);
  assert.equal(await page.locator("div.highlight").count(), 1, "its YAML block stays a highlighted code block");
  await page.close();
});

await check("without JavaScript the YAML shows as a code block, blank lines and indentation kept", async () => {
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const page = await noJs.newPage();
  await page.goto(server.url + "widgets/");
  const text = await page.locator("taint-check pre").first().innerText();
  assert.match(text, /metadata:\n  name: team-app\n\nspec:\n  tolerations:\n\n  - key: dedicated\n    operator: Equal/);
  assert.equal(await page.locator("hr").count(), 0, "no <hr> from the YAML's --- lines");
  await noJs.close();
});

await check("fences.json: exactly the widget cases become widgets, with their info string", async () => {
  const context2 = await browser.newContext({ javaScriptEnabled: false });
  const page = await context2.newPage();
  await page.goto(server.url + "fences/");
  assert.deepEqual(fenceMismatches(await readFencesPage(page)), []);
  await context2.close();
});

for (const r of report) {
  console.log(
    `    ${r.page}: ${r.widgets} widgets, ${r.bytes} B (${r.gz} B gz) per page, of which Taintlab ${r.widgetBytes} B (${r.widgetGz} B gz); first widget rendered ${r.firstRender?.sinceStart} ms after navigation start (${r.firstRender?.sinceLoad} ms after load)`,
  );
}
await browser.close();
await server.close();
finish("hugo site");
