// <taint-check> what-if mode in headless Chromium, on test/browser/whatif.html with the
// one-file build (web/taint-check.js): the what-if module's wasm is fetched beside it,
// once, only because the page has widgets in the mode; per node the evicted pods and
// their replacements, the summary, kubectl drain's lines; a code fence's what-if option
// in zh-CN; a bad action line in pt-BR; editing the actions; "Open in playground" carries
// the actions as the playground's scenario.actions and scenario.until.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { inflateRawSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const EXPECTED = path.resolve(here, "../../../../tests/parity/whatif/expected");
const expected = (name) => JSON.parse(fs.readFileSync(path.join(EXPECTED, `${name}.json`), "utf8")).text.timeline;

const linkState = (href) =>
  JSON.parse(inflateRawSync(Buffer.from(href.split("#v=1&s=")[1].replace(/-/g, "+").replace(/_/g, "/"), "base64")).toString("utf8"));

/** Runs the what-if checks; `check(name, fn)` and `open(context, url)` are run.mjs's. */
export async function whatIfChecks({ browser, server, check, open, shots }) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const before = server.requests.length;
  const { page, errors } = await open(context, `${server.url}whatif-page/whatif.html`);
  const settled = (id) => page.waitForSelector(`#${id}[data-state]`, { timeout: 20000 });
  const summary = (id) =>
    page.$eval(`#${id}`, (e) => {
      const p = e.shadowRoot.querySelector("p.verdict[data-evicted]");
      return p && { evicted: +p.dataset.evicted, rescheduled: +p.dataset.rescheduled, pending: +p.dataset.pending, text: p.textContent };
    });

  await check("what-if: a drain waiting for its budget, per node, as the simulation has it", async () => {
    await settled("drain");
    assert.equal(await page.$eval("#drain", (e) => e.dataset.state), "live");
    const want = expected("drain-with-budget");
    const s = await summary("drain");
    assert.deepEqual([s.evicted, s.rescheduled, s.pending], [want.summary.evicted, want.summary.rescheduled, want.summary.stillPending.length]);
    assert.match(s.text, new RegExp(`^\\W*Evicted ${want.summary.evicted}, rescheduled ${want.summary.rescheduled}, still Pending 0\\.`));
    const n1 = await page.$$eval('#drain section.wi-node[data-node="n1"] li[data-cause]', (els) =>
      els.map((li) => ({ pod: li.dataset.pod, cause: li.dataset.cause, replacement: li.querySelector("[data-replacement]")?.dataset.replacement ?? null, text: li.textContent })));
    assert.equal(n1.length, 2, JSON.stringify(n1));
    for (const e of n1) {
      assert.equal(e.cause, "DrainEviction");
      assert.ok(e.replacement, JSON.stringify(e));
      assert.match(e.text, /evicted by the drain at \d+ s.*replaced by shop\/\S+ on n2 at \d+ s/);
    }
    // The replacements appear on n2, each naming the pod it replaces.
    const n2 = await page.$$eval('#drain section.wi-node[data-node="n2"] li[data-arrived]', (els) => els.map((li) => li.textContent));
    assert.equal(n2.length, 2, n2.join("\n"));
    assert.ok(n2.every((t) => /scheduled here at \d+ s \(replaces shop\/web-5d8f7-[ab]\)/.test(t)), n2.join("\n"));
    // The budget made the drain wait: kubectl's lines say so.
    const drain = await page.$eval("#drain", (e) => e.shadowRoot.querySelector("pre.drain").textContent);
    assert.match(drain, /disruption budget/);
    assert.match(drain, /node\/n1 drained/);
    const chips = await page.$$eval('#drain section.wi-node[data-node="n1"] .chip', (els) => els.map((c) => c.textContent));
    assert.deepEqual(chips, ["cordoned"]);
  });

  await check("what-if: Open in playground carries the actions and the simulated second", async () => {
    await page.waitForFunction(() => document.querySelector("#drain").shadowRoot.querySelector("a.playground").href.includes("#v=1&s="));
    const state = linkState(await page.$eval("#drain", (e) => e.shadowRoot.querySelector("a.playground").href));
    assert.deepEqual(state.scenario, { actions: "at 0 drain n1 --ignore-daemonsets", until: 600 });
    assert.equal(state.tab, "timeline");
    assert.match(state.nodes, /name: n1/);
    assert.match(state.pods, /PodDisruptionBudget/);
  });

  await check("what-if: a code fence's option, in the page's language (zh-CN)", async () => {
    await settled("fence");
    assert.equal(await page.$eval("#fence", (e) => e.dataset.state), "live");
    const want = expected("taint-no-execute");
    const s = await summary("fence");
    assert.deepEqual([s.evicted, s.rescheduled], [want.summary.evicted, want.summary.rescheduled]);
    assert.match(s.text, new RegExp(`驱逐 ${want.summary.evicted} 个`));
    const causes = await page.$$eval("#fence li[data-cause]", (els) => els.map((li) => li.dataset.cause));
    assert.equal(causes.length, want.summary.evicted);
    assert.ok(causes.every((c) => c === "TaintEviction"), causes.join());
    assert.equal(await page.$eval("#fence", (e) => e.shadowRoot.querySelector("textarea.actions").value),
      "at 0 taint n1 maintenance=true:NoExecute\nat 30 taint n2 maintenance=true:NoExecute");
  });

  await check("what-if: a bad action line names the line (pt-BR), and fixing it brings the result", async () => {
    await settled("bad");
    assert.equal(await page.$eval("#bad", (e) => e.dataset.problem), "actions");
    const shown = await page.$eval("#bad", (e) => ({
      title: e.shadowRoot.querySelector("p.verdict").textContent,
      error: e.shadowRoot.querySelector(".error").textContent,
      invalid: e.shadowRoot.querySelector("textarea.actions").getAttribute("aria-invalid"),
    }));
    assert.match(shown.title, /As ações não podem ser executadas/);
    assert.match(shown.error, /^actions: line 2: /);
    assert.equal(shown.invalid, "true");
    await page.locator("#bad textarea.actions").fill("at 0 taint n1 x=y:NoExecute");
    await page.waitForSelector('#bad[data-state="live"]');
    assert.equal(await page.$eval("#bad", (e) => e.shadowRoot.querySelector("textarea.actions").getAttribute("aria-invalid")), null);
    assert.match((await summary("bad")).text, /Despejados 0, reagendados 0, ainda Pending 0\./);
  });

  await check("what-if: editing the actions simulates again", async () => {
    await page.locator("#drain textarea.actions").fill("at 0 cordon n1");
    await page.waitForFunction(() => document.querySelector("#drain").shadowRoot.querySelector("p.verdict[data-evicted]")?.dataset.evicted === "0");
    const quiet = await page.$$eval("#drain section.wi-node li.muted", (els) => els.length);
    assert.equal(quiet, 2, "no pod evicted or placed on either node");
    await page.locator("#drain textarea.actions").fill("at 0 drain n1 --ignore-daemonsets");
    await page.waitForFunction(() => document.querySelector("#drain").shadowRoot.querySelector("p.verdict[data-evicted]")?.dataset.evicted === "2");
  });

  await check("what-if: the one-file element fetches the engine and the what-if wasm beside it, once each", async () => {
    const requests = server.requests.slice(before);
    const wasm = requests.filter((r) => r.endsWith(".wasm"));
    assert.deepEqual(wasm.sort(), ["/taintlab/web/taintlab_bg.wasm", "/taintlab/web/taintlab_whatif_bg.wasm"]);
    // Its glue is inside the one file: nothing else of the package is requested.
    assert.deepEqual(requests.filter((r) => r.startsWith("/taintlab/") && !r.endsWith(".wasm")), ["/taintlab/web/taint-check.js"]);
  });

  await check("what-if: no console errors", async () => {
    assert.deepEqual(errors, []);
  });
  if (shots) {
    fs.mkdirSync(shots, { recursive: true });
    for (const id of ["drain", "fence", "bad"]) await page.locator(`#${id}`).screenshot({ path: path.join(shots, `whatif-${id}.png`) });
  }
  await context.close();
}
