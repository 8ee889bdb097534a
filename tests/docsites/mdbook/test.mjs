// mdBook: the books in tests/docsites/mdbook/book (English) and book-zh (Simplified
// Chinese, with a Brazilian Portuguese widget), built by `mdbook build` with the
// mdbook-taintlab preprocessor, loaded in headless Chromium. The English book is also
// served under /en/, where its what-if chapter is checked against the native engine
// (../common/whatif.mjs).
//
//   node tests/docsites/mdbook/test.mjs <built English book> <built Chinese book>
//
// Run by `cargo xtask docsites` (xtask/src/docsites.rs), which builds the books.
import fs from "node:fs";
import path from "node:path";
import {
  Checks, ROOT, assert, edit, fallbacks, fences, firstRenderAfterLoad, launch, open, section, serve, settle,
  wasmDownloads, widgetBytes, widgets,
} from "../common/harness.mjs";
import { assertWhatIf, packageDir, readWhatIf, recordWhatIfRenders, wasmKinds, whatIfCase } from "../common/whatif.mjs";

const [EN, ZH] = process.argv.slice(2).map((p) => path.resolve(p));
if (!EN || !ZH) {
  console.error("usage: node tests/docsites/mdbook/test.mjs <built book> <built zh-CN book>");
  process.exit(2);
}
const HERE = path.join(ROOT, "tests/docsites/mdbook");
const t = new Checks(`mdBook ${process.env.MDBOOK_VERSION ?? ""}`.trim());

await t.check("the README's mdBook recipe is the one this test builds", async () => {
  const readme = section(fs.readFileSync(path.join(ROOT, "wasm/js/README.md"), "utf8"), "### mdBook");
  const blocks = fences(readme);
  const toml = blocks.find((b) => b.info === "toml");
  assert.ok(toml, "a book.toml block");
  const bookToml = fs.readFileSync(path.join(HERE, "book/book.toml"), "utf8");
  assert.equal(bookToml.slice(bookToml.indexOf("[preprocessor.taintlab]")), toml.text, "book.toml's [preprocessor.taintlab]");
  const chapter = blocks.find((b) => b.info === "markdown");
  assert.ok(chapter, "a chapter block");
  const index = fs.readFileSync(path.join(HERE, "book/src/index.md"), "utf8");
  assert.ok(index.includes(chapter.text), "the chapter example is src/index.md's, verbatim");
  const shell = blocks.find((b) => b.info === "sh");
  assert.ok(shell && /cargo install mdbook-taintlab/.test(shell.text) && /npm install taintlab/.test(shell.text), "the install commands");
});

const server = await serve([["/zh/", ZH], ["/en/", EN], ["/", EN]]);
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });

// --- English book, first page --------------------------------------------------------
const home = await open(context, server.url);
let first = null;
await t.check("first page: the widgets render with their verdicts; the plain YAML block stays code", async () => {
  first = await firstRenderAfterLoad(home.page);
  assert.equal(await settle(home.page, { count: 2 }), 2);
  const [dedicated, gpu] = await widgets(home.page);
  assert.equal(dedicated.state, "live");
  assert.equal(dedicated.heading, "Dedicated nodes");
  assert.deepEqual(dedicated.pods, { "team-app": "scheduled", "other-app": "scheduled" });
  // Both nodes score the same: the best nodes are both, in the scheduler's order.
  assert.match(dedicated.sentences["team-app"], /^\u2713team-app can be scheduled \(best: (node1, node2|node2, node1)\)$/);
  // The YAML reached the element exactly, blank lines included.
  assert.match(dedicated.source, /^spec:\n\n {2}tolerations:\n {2}- key: dedicated\n/m);
  assert.equal(gpu.heading, "GPU nodes");
  assert.equal(gpu.badge, "Kubernetes 1.33");
  assert.deepEqual(gpu.pods, { "cuda-training": "scheduled" });
  assert.ok(!gpu.source.includes("# taint-check"), "the directive line is not part of the example");
  const plain = await home.page.$$eval("pre code.language-yaml", (els) => els.filter((e) => !e.closest("taint-check")).map((e) => e.textContent));
  assert.ok(plain.some((p) => p.includes("name: not-a-widget")), plain.join("|"));
});

await t.check("no playground URL configured: no 'Open in playground' link; configure() shows it", async () => {
  for (const w of await widgets(home.page)) assert.equal(w.playgroundShown, false);
  await home.page.evaluate(async () => {
    const element = await import(new URL("taintlab/taint-check.js", document.baseURI).href);
    element.configure({ playground: "https://play.example/taintlab/" });
  });
  await home.page.waitForFunction(() => [...document.querySelectorAll("taint-check")].every((w) => w.shadowRoot.querySelector("a.playground").href.includes("#v=1&s=")));
  for (const w of await widgets(home.page)) {
    assert.equal(w.playgroundShown, true);
    assert.ok(w.playgroundHref.startsWith("https://play.example/taintlab/#v=1&s="), w.playgroundHref);
  }
  await home.page.evaluate(async () => (await import(new URL("taintlab/taint-check.js", document.baseURI).href)).configure({ playground: null }));
  for (const w of await widgets(home.page)) assert.equal(w.playgroundShown, false);
});

await t.check("editing a widget updates its verdict and leaves the other alone", async () => {
  await edit(home.page, 0, (s) => s.replace("value: groupName", "value: otherGroup"));
  await home.page.waitForFunction(() => document.querySelector("taint-check").shadowRoot.querySelector('section.pod[data-pod="team-app"] details.pair[data-node="node1"]')?.dataset.verdict === "untolerated");
  const [dedicated, gpu] = await widgets(home.page);
  assert.deepEqual(dedicated.pods, { "team-app": "scheduled", "other-app": "scheduled" });
  assert.equal(dedicated.sentences["team-app"], "\u2713team-app can be scheduled (best: node2)");
  assert.deepEqual(gpu.pods, { "cuda-training": "scheduled" });
  await edit(home.page, 1, (s) => s.replace("operator: Exists", "operator: Equal"));
  const after = (await widgets(home.page))[1];
  assert.deepEqual(after.pods, { "cuda-training": "pending" });
  assert.equal(after.sentences["cuda-training"], "\u2717cuda-training stays Pending");
});

await t.check("dark mode: mdBook's theme picker switches the widgets to their dark palette", async () => {
  assert.deepEqual((await widgets(home.page)).map((w) => w.dark), [false, false]);
  // mdBook 0.5 names the picker mdbook-theme-*, 0.4 theme-toggle and the theme's name.
  const pick = async (theme) => {
    const list = home.page.locator("#mdbook-theme-list, #theme-list");
    for (let i = 0; i < 3 && !(await list.isVisible()); i++) {
      await home.page.click("#mdbook-theme-toggle, #theme-toggle");
      await list.waitFor({ state: "visible", timeout: 2000 }).catch(() => {});
    }
    await home.page.click(`#mdbook-theme-${theme}, #theme-list #${theme}`);
    await home.page.waitForFunction((t) => document.documentElement.classList.contains(t), theme);
  };
  await pick("coal");
  await home.page.waitForFunction(() => [...document.querySelectorAll("taint-check")].every((w) => w.shadowRoot.querySelector(".tc.dark")));
  await pick("light");
  await home.page.waitForFunction(() => [...document.querySelectorAll("taint-check")].every((w) => !w.shadowRoot.querySelector(".tc.dark")));
});

await t.check("first page: one wasm download, no console errors", async () => {
  assert.deepEqual(wasmDownloads(home.requests), ["/taintlab/taintlab_bg.wasm"]);
  assert.deepEqual(home.errors, []);
  const b = widgetBytes(home.requests, EN);
  t.note(`bytes per page for the widgets: ${b.raw} B (${b.gz} B gzipped): ${b.files.join(", ")}`);
  t.note(`first widget render: ${first.afterLoad.toFixed(1)} ms after the load event (${first.afterStart.toFixed(1)} ms after navigation start)`);
});

// --- page navigation -------------------------------------------------------------------
await t.check("mdBook's page navigation (the arrow key) opens the next chapter with live widgets", async () => {
  const before = home.requests.length;
  await Promise.all([home.page.waitForURL(/guide\/eviction\.html$/), home.page.keyboard.press("ArrowRight")]);
  assert.equal(await settle(home.page, { count: 1 }), 1);
  const [eviction] = await widgets(home.page);
  assert.deepEqual(eviction.pods, { cache: "bypassed", web: "bypassed" });
  assert.deepEqual(eviction.evictedAt, { cache: "6000", web: "300" });
  // The example's neighbours stay Markdown.
  const paragraphs = await home.page.$$eval("main p", (ps) => ps.map((p) => p.textContent));
  assert.ok(paragraphs.includes("The paragraph after the example is Markdown again."), paragraphs.join("|"));
  const since = home.requests.slice(before);
  assert.deepEqual(wasmDownloads(since), ["/taintlab/taintlab_bg.wasm"], "one wasm download on the new page");
  assert.deepEqual(home.errors, []);
  await Promise.all([home.page.waitForURL(/guide\/broken\.html$/), home.page.keyboard.press("ArrowRight")]);
  assert.equal(await settle(home.page, { count: 3 }), 3);
});

// --- the problems ------------------------------------------------------------------------
await t.check("broken, flattened and misspelt examples say so instead of a verdict", async () => {
  const { page, errors, requests } = await open(context, `${server.url}guide/broken.html`);
  assert.equal(await settle(page, { count: 3 }), 3);
  const [broken, flat, typo] = await widgets(page);
  assert.equal(broken.state, "error");
  assert.equal(broken.problem, "input");
  assert.match(broken.error, /^line 11, column 1\nthis is not valid YAML: did not find expected ',' or '\]'$/);
  assert.deepEqual(broken.pods, {});
  assert.equal(flat.state, "error");
  assert.equal(flat.problem, "indentation");
  assert.equal(flat.title, "!The example lost its indentation");
  assert.match(flat.error, /`metadata:` \(line 5\) is empty and `name:` \(line 6\)/);
  assert.equal(typo.problem, "fence");
  assert.match(typo.error, /unknown option `verison` in the code fence/);
  // Fixing the flattened example brings a verdict.
  await edit(page, 1, (s) => s.replace(/^name: flattened$/m, "  name: flattened")
    .replace(/^tolerations:\n- key: dedicated\noperator: Equal\nvalue: gpu\neffect: NoSchedule$/m,
      "  tolerations:\n  - key: dedicated\n    operator: Equal\n    value: gpu\n    effect: NoSchedule"));
  const fixed = (await widgets(page))[1];
  assert.equal(fixed.state, "live", fixed.error ?? "");
  assert.deepEqual(fixed.pods, { flattened: "scheduled" });
  assert.deepEqual(wasmDownloads(requests), ["/taintlab/taintlab_bg.wasm"], "no what-if wasm without a what-if widget");
  assert.deepEqual(errors, []);
  await page.close();
});

// --- what-if mode ------------------------------------------------------------------------
await t.check("what-if fence under /en/: the arrow key reaches it; the native engine's drain, replacements and kubectl lines; its wasm once, on that page only", async () => {
  const c = whatIfCase();
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await ctx.addInitScript(recordWhatIfRenders);
  const { page, errors, requests } = await open(ctx, `${server.url}en/guide/broken.html`);
  assert.equal(await settle(page, { count: 3 }), 3);
  assert.deepEqual(wasmDownloads(requests), ["/en/taintlab/taintlab_bg.wasm"], "the page before: the engine only");
  const before = requests.length;
  await Promise.all([page.waitForURL(/\/en\/guide\/what-if\.html$/), page.keyboard.press("ArrowRight")]);
  assert.equal(await settle(page, { count: 1 }), 1);
  const shown = await readWhatIf(page, "taint-check");
  assert.equal(shown.heading, "Draining node-a");
  assertWhatIf(shown, c);
  const since = requests.slice(before);
  const wasm = wasmDownloads(since);
  assert.deepEqual([...wasm].sort(), ["/en/taintlab/taintlab_bg.wasm", "/en/taintlab/taintlab_whatif_bg.wasm"]);
  assert.deepEqual(wasmKinds([...wasm].sort(), { dir: EN, prefix: "/en/", pkg: packageDir() }), ["engine", "what-if"], "the package's bytes");
  // The one file carries the what-if glue: nothing else of Taintlab's is fetched.
  assert.deepEqual(since.filter((r) => r.startsWith("/en/taintlab/") && !r.endsWith(".wasm")), ["/en/taintlab/taint-check.js"]);
  assert.deepEqual(errors, []);
  await ctx.close();
});

await t.check("without JavaScript every fence is a readable YAML code block", async () => {
  const pages = [["", 2], ["guide/eviction.html", 1], ["guide/broken.html", 3], ["guide/what-if.html", 1]];
  const all = await fallbacks(browser, pages.map(([url]) => `${server.url}${url}`));
  for (const [k, [url, n]] of pages.entries()) {
    const f = all[k];
    assert.equal(f.length, n, url);
    for (const b of f) {
      const lines = b.text.trim().split("\n").length;
      assert.ok(b.visible && b.height > 12 * lines, `${url}: ${JSON.stringify(b)}`);
      assert.match(b.text, /kubectl taint nodes node1|apiVersion: v1/);
    }
  }
  const [dedicated] = all[0];
  assert.match(dedicated.text, /name: node2\n\n---/, "blank lines kept");
});

// --- the second language -----------------------------------------------------------------
await t.check("a zh-CN book: the widget speaks Chinese; lang=pt-BR on a fence speaks Portuguese", async () => {
  const { page, errors, requests } = await open(context, `${server.url}zh/`);
  assert.equal(await settle(page, { count: 2 }), 2);
  const [zh, pt] = await widgets(page);
  assert.equal(zh.heading, "污点与容忍");
  assert.deepEqual(zh.pods, { "team-app": "scheduled", "other-app": "pending" });
  assert.equal(zh.sentences["team-app"], "\u2713team-app 可以被调度到 node1");
  assert.equal(zh.sentences["other-app"], "\u2717other-app 保持 Pending");
  assert.equal(pt.heading, "Taints e tolerâncias");
  assert.equal(pt.sentences["other-app"], "\u2717other-app fica Pending");
  // Kubernetes' own messages stay English, as in a cluster.
  const event = await page.$eval("taint-check", (e) => e.shadowRoot.querySelector('section.pod[data-pod="other-app"] .event').textContent);
  assert.match(event, /^Warning {2}FailedScheduling {2}0\/1 nodes are available: 1 node\(s\) had untolerated taint\(s\)/);
  assert.deepEqual(wasmDownloads(requests), ["/zh/taintlab/taintlab_bg.wasm"]);
  assert.deepEqual(errors, []);
  await page.close();
});

await context.close();
await browser.close();
await server.close();
t.finish();
