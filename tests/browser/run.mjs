// End-to-end suite for the playground: serves the built dist/ on 127.0.0.1, drives
// Debian's chromium with playwright-core, pastes real-world inputs and checks what the
// page shows. Fails on any console error. Screenshots go to target/browser-screenshots/.
//
//   node tests/browser/run.mjs [dist-dir]
//
// Environment: CHROMIUM (default /usr/bin/chromium).

import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { serve } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const dist = resolve(process.argv[2] || join(repo, 'dist'));
const shots = join(repo, 'target', 'browser-screenshots');
await mkdir(shots, { recursive: true });
const fixture = (name) => readFile(join(here, 'fixtures', name), 'utf8');
// axe-core (pinned in package.json) for the accessibility audit.
const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const { server, url } = await serve(dist);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
});

const consoleErrors = [];
const figures = {};
let passed = 0;
let failed = 0;

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

function eq(actual, expected, what) {
  if (actual !== expected) {
    throw new Error(`${what}:\n    expected: ${JSON.stringify(expected)}\n    actual:   ${JSON.stringify(actual)}`);
  }
}

/** A fresh browser context and page, watched for console errors. */
async function open(options = {}, path = '') {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: 'en-US', ...options });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location().url || 'page'})`);
  });
  page.on('pageerror', (e) => consoleErrors.push(`uncaught: ${e.message}`));
  page.on('worker', (w) => w.on('close', () => {}));
  await page.goto(url + path);
  await page.waitForSelector('.layout');
  return { context, page };
}

const only = process.env.TAINTLAB_E2E_ONLY;

async function test(name, fn) {
  if (only && !name.includes(only) && name !== 'no console errors') return;
  const started = Date.now();
  try {
    await fn();
    passed++;
    console.log(`ok - ${name} (${Date.now() - started} ms)`);
  } catch (e) {
    failed++;
    console.log(`not ok - ${name}\n    ${String(e && e.stack || e).split('\n').join('\n    ')}`);
  }
}

/** Replaces a pane's text the way a paste does (one input event). */
async function paste(page, pane, text) {
  await page.fill(`#${pane}-text`, text);
}

async function cellClass(page, r, c) {
  return page.getAttribute(`#cell-${r}-${c}`, 'class');
}

async function shot(page, name) {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

const gallery = async (page, id) => {
  await page.click('#gallery-button');
  await page.click(`[data-example="${id}"] button`);
};

// ---------------------------------------------------------------------------------------

await test('first render', async () => {
  // Warm the browser process, then measure a fresh context (no cache).
  const warm = await open();
  await warm.context.close();
  const samples = [];
  for (let i = 0; i < 3; i++) {
    const { context, page } = await open();
    await page.waitForSelector('table.matrix');
    samples.push(await page.evaluate(() => window.__taintlab.firstRender));
    await context.close();
  }
  samples.sort((a, b) => a - b);
  figures.firstRenderMs = Math.round(samples[1]);
  figures.firstRenderSamplesMs = samples.map(Math.round);
  assert(samples[1] <= 600 * 2, `first render ${samples[1]} ms is far over the 600 ms target`);
});

// The initial download of issue 10, over what Chromium actually fetched: a first visit
// shows the first example without starting the worker that holds the input layer. Each
// wasm, JS and CSS file is gzipped at level 9 with Node's zlib, which compresses the
// page's wasm 5-8 KB less tightly than GNU gzip -9 (xtask's figure: 437,400 B where
// this suite measured 442,452 B for the same files). The target is 450,000 B; xtask
// asserts a ceiling on its gzip -9 figure (CEILING_GZ_BYTES in xtask/src/web.rs), this
// suite its own figure plus about 2.5 KB, so growth does not go unnoticed here either.
const FIRST_LOAD_BUDGET_GZ = 450_000;
const FIRST_LOAD_CEILING_GZ = 445_000;

await test('first visit: only the page\'s own files, within the download budget', async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: 'en-US' });
  const fetched = new Set();
  context.on('requestfinished', (r) => fetched.add(new URL(r.url()).pathname.split('/').pop()));
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location().url || 'page'})`);
  });
  await page.goto(url);
  await page.waitForSelector('table.matrix button.cell');
  const firstMatrix = await page.evaluate(() => performance.now());
  await page.waitForLoadState('networkidle');
  let total = 0;
  const files = {};
  for (const name of fetched) {
    if (!/\.(wasm|js|css)$/.test(name)) continue;
    const gz = gzipSync(await readFile(join(dist, name)), { level: 9 }).length;
    files[name] = gz;
    total += gz;
  }
  figures.firstVisitFetchedGz = files;
  figures.firstVisitGzBytes = total;
  figures.firstVisitMatrixMs = Math.round(firstMatrix);
  assert(![...fetched].some((n) => n.includes('worker')), `a first visit fetched the worker: ${[...fetched]}`);
  figures.firstVisitOverTargetGz = Math.max(0, total - FIRST_LOAD_BUDGET_GZ);
  assert(total <= FIRST_LOAD_CEILING_GZ, `a first visit downloads ${total} B gzipped, over the ${FIRST_LOAD_CEILING_GZ}-byte ceiling`);
  // Focusing a text box starts the worker ahead of a paste.
  await page.focus('#pods-text');
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.includes('worker')));
  await context.close();
});

await test('pasted kubectl output: matrix, scores, explanation, FailedScheduling text', async () => {
  const { context, page } = await open();
  await paste(page, 'nodes', await fixture('nodes.yaml'));
  await paste(page, 'pods', await fixture('pods.yaml'));
  await page.waitForFunction(() => document.querySelectorAll('table.matrix tbody tr').length === 3);
  const headers = await page.$$eval('table.matrix thead th .node-name', (e) => e.map((x) => x.textContent));
  eq(headers.join(','), 'cp-1,gpu-1,spot-1,old-1', 'node columns');
  // web (no tolerations): only spot-1, with the PreferNoSchedule penalty; score 0 as
  // the only feasible node.
  assert((await cellClass(page, 0, 0)).includes('bad'), 'web blocked on cp-1');
  assert((await cellClass(page, 0, 1)).includes('bad'), 'web blocked on gpu-1');
  assert((await cellClass(page, 0, 2)).includes('warn'), 'web penalized on spot-1');
  assert((await cellClass(page, 0, 3)).includes('bad'), 'web blocked on cordoned old-1');
  eq(await page.textContent('#cell-0-2 .score'), '0', 'normalized score of the only feasible node');
  // trainer tolerates the GPU taint: gpu-1 schedulable (100), spot-1 penalized (0).
  assert((await cellClass(page, 1, 1)).includes('ok'), 'trainer on gpu-1');
  eq(await page.textContent('#cell-1-1 .score'), '100', 'trainer score on gpu-1');
  // monitor tolerates every NoSchedule taint, including the cordon.
  assert((await cellClass(page, 2, 3)).includes('ok'), 'monitor on the cordoned node');

  // Explanation of trainer on gpu-1.
  await page.click('#cell-1-1');
  const why = await page.textContent('.explanation');
  assert(why.includes('ml/trainer-7d9f on gpu-1'), why);
  assert(why.includes('nvidia.com/gpu=present:NoSchedule'), 'taint shown');
  assert(why.includes('toleration #1'), 'tolerating toleration named');
  assert(why.includes('same key, Exists ignores the value'), 'rule explained');
  // Cordoned node for web: NodeUnschedulable wins.
  await page.click('#cell-0-3');
  const cordon = await page.textContent('.explanation');
  assert(cordon.includes('node(s) were unschedulable'), cordon);

  // Add a taint with the form: spot-1 becomes NoSchedule for web → pending.
  await page.click('.pane:first-of-type .add-form summary');
  await page.fill('.pane:first-of-type .add-form input[list="node-names"]', 'spot-1');
  await page.fill('.pane:first-of-type .add-form input[placeholder="dedicated"]', 'lifecycle');
  await page.fill('.pane:first-of-type .add-form input[placeholder="gpu"]', 'spot');
  await page.selectOption('.pane:first-of-type .add-form select', 'NoSchedule');
  await page.click('.pane:first-of-type .add-form button[type="submit"]');
  await page.waitForSelector('pre.failed-scheduling');
  const event = await page.textContent('pre.failed-scheduling');
  // The newest release: DynamicResources is in the default profile (GA in 1.34), so its
  // PostFilter answer comes before DefaultPreemption's.
  const expected =
    '0/4 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s). ' +
    'no new claims to deallocate, preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.';
  assert(event.endsWith(expected), `FailedScheduling (newest release):\n${event}`);
  assert((await page.inputValue('#nodes-text')).includes('kubectl taint nodes spot-1 lifecycle=spot:NoSchedule'), 'form line appended');

  // The same cluster under 1.30 names each first untolerated taint.
  await page.selectOption('#version-select', '1.30.0');
  await page.waitForFunction(() => document.querySelector('pre.failed-scheduling').textContent.includes('{lifecycle: spot}'));
  const old = await page.textContent('pre.failed-scheduling');
  const expected130 =
    '0/4 nodes are available: 1 node(s) had untolerated taint {lifecycle: spot}, ' +
    '1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, ' +
    '1 node(s) had untolerated taint {nvidia.com/gpu: present}, 1 node(s) were unschedulable. ' +
    'preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.';
  assert(old.endsWith(expected130), `FailedScheduling (1.30):\n${old}`);
  await shot(page, 'matrix-light');
  await context.close();
});

await test('placement: pools, GPUs running out, a mixed taint and cpu event, resource bars', async () => {
  const { context, page } = await open();
  // Dedicated nodes: the nodeSelector keeps payments-api on its pool.
  await gallery(page, 'dedicated');
  await page.waitForFunction(() => document.querySelector('table.matrix thead').textContent.includes('dedicated=payments'));
  assert((await cellClass(page, 0, 0)).includes('ok'), 'payments-api on payments-1');
  assert((await cellClass(page, 0, 1)).includes('ok'), 'payments-api on payments-2');
  eq(await page.textContent('#cell-0-2 .score'), 'affinity', 'payments-api kept off general-1 by its selector');
  eq(await page.textContent('#cell-1-0 .score'), 'taint', 'web kept off payments-1 by the taint');
  await page.click('#cell-0-2');
  const filters = await page.$$eval('.explanation ol.filters li', (e) => e.map((x) => x.textContent));
  eq(filters.length, 6, 'every modelled filter listed');
  assert(filters[3].startsWith('NodeAffinity') && filters[3].includes("didn't match Pod's node affinity/selector"), filters[3]);
  assert(filters[4].includes('not evaluated') && filters[5].includes('not evaluated'), filters.join(' | '));

  // GPUs: one left on gpu-1, none on gpu-2; the two-GPU job stays Pending.
  await gallery(page, 'gpu');
  await page.waitForSelector('.node-resources td[data-resource="nvidia.com/gpu"]');
  eq(await page.textContent('#cell-0-1 .score'), 'nvidia.com/gpu −1', 'trainer on the full gpu-2');
  eq(await page.textContent('.node-resources tr[data-node="gpu-1"] td[data-resource="nvidia.com/gpu"] .bar-text'), '1 of 2 requested', 'gpu-1 bar');
  eq(await page.textContent('.node-resources tr[data-node="cpu-1"] td[data-resource="nvidia.com/gpu"] .bar-text'), '0 of 0 requested', 'cpu-1 has no GPUs');
  const gpuEvent = await page.textContent('.events');
  assert(gpuEvent.includes("0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient nvidia.com/gpu."), gpuEvent);

  // The mixed event people paste, reproduced exactly, with the cpu arithmetic.
  await gallery(page, 'mixed');
  await page.waitForSelector('.pasted-event');
  assert((await page.textContent('.pasted-events')).includes('Exactly the message computed for: web'), 'mixed event reproduced');
  eq(await page.textContent('#cell-0-1 .score'), 'cpu −400m', 'web on small-1');
  const label = await page.getAttribute('#cell-0-1', 'aria-label');
  assert(label.includes('Insufficient cpu') && label.includes('short by 400m'), label);
  await page.click('#cell-0-1');
  await page.waitForSelector('.explanation table.resources');
  const cpu = await page.textContent('.explanation table.resources tr[data-resource="cpu"]');
  assert(cpu.includes('−400m') && cpu.includes('Insufficient cpu'), cpu);
  await page.click('.add-placement summary');
  await audit(page, 'mixed example, resource explanation and placement form open');
  await shot(page, 'placement');

  // The placement form appends a pod with its required affinity term.
  await page.selectOption('.add-placement .term-kind', 'required');
  await page.fill('.add-placement .term-key', 'disktype');
  await page.selectOption('.add-placement .term-op', 'In');
  await page.fill('.add-placement .term-values', 'ssd, nvme');
  await page.click('.add-placement button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('#pods-text').value.includes('requiredDuringSchedulingIgnoredDuringExecution'));
  await page.waitForFunction(() => [...document.querySelectorAll('table.matrix tbody th .name')].some((e) => e.textContent.includes('pod-')));
  await context.close();
});

await test('describe output and inline errors at their line', async () => {
  const { context, page } = await open();
  await paste(page, 'nodes', await fixture('describe-node.txt'));
  await paste(page, 'pods', 'tolerations:\n- key: dedicated\n  operator: Equal\n  value: edge\n  effect: NoExecute\n  tolerationSeconds: 3600\n');
  await page.waitForFunction(() => document.querySelectorAll('table.matrix thead th').length === 1);
  await page.click('#cell-0-0');
  const why = await page.textContent('.explanation');
  assert(why.includes('dedicated=edge:NoExecute'), why);
  assert(why.includes('Evicted 3600 s after the taint appears'), why);
  assert((await page.textContent('#cell-0-0')).includes('⏱3600s'), 'eviction badge in the cell');
  // A typo in an effect is reported at its line, listed and marked.
  await paste(page, 'pods', 'tolerations:\n- key: dedicated\n  operator: Equal\n  value: edge\n  effect: NoExecut\n');
  await page.waitForSelector('#pods-diagnostics .diag.error');
  const diag = await page.textContent('#pods-diagnostics');
  assert(diag.includes('Line 5'), diag);
  const top = await page.$eval('.pane:nth-of-type(2) .marks .mark.error', (e) => e.style.top);
  eq(top, '88px', 'mark at line 5 (8 px padding + 4 × 20 px)');
  // Clicking the location selects that line in the text box.
  await page.click('#pods-diagnostics .diag.error button');
  const sel = await page.$eval('#pods-text', (t) => t.value.slice(t.selectionStart, t.selectionEnd));
  assert(sel.includes('NoExecut'), `selected ${JSON.stringify(sel)}`);
  // API validation in the server's words (tolerationSeconds needs NoExecute).
  await paste(page, 'pods', 'tolerations:\n- key: dedicated\n  operator: Equal\n  value: edge\n  effect: NoSchedule\n  tolerationSeconds: 60\n');
  await page.click('#cell-0-0');
  const val = await page.textContent('.explanation');
  assert(val.includes("spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set"), val);
  await shot(page, 'inline-errors');
  await context.close();
});

await test('pasted FailedScheduling event explained against the nodes', async () => {
  const { context, page } = await open();
  await gallery(page, 'event');
  await page.waitForSelector('.pasted-event');
  const text = await page.textContent('.pasted-events');
  assert(text.includes('The event counted 3 node(s); 3 node(s) are pasted.'), text);
  assert(text.includes('Pasted nodes with this taint: payments-1'), text);
  assert(text.includes('Pasted nodes with this taint: cp-1, cp-2'), text);
  assert(text.includes('Exactly the message computed for: checkout'), text);
  // The untolerated-taint wording shipped in v1.24.0 (kubernetes PR #109119).
  assert(text.includes('>= 1.24.0, < 1.34.3'), text);
  await shot(page, 'event');
  await context.close();
});

await test('eviction timeline: taint changes, cancellation, node-failure preset', async () => {
  const { context, page } = await open();
  await gallery(page, 'eviction');
  await page.waitForSelector('figure.timeline');
  const captions = await page.$$eval('figure.timeline figcaption', (e) => e.map((x) => x.textContent));
  eq(captions.length, 3, 'one timeline per pod');
  assert(captions[0].includes('default-toleration') && captions[0].includes('evicted at 360 s'), captions[0]);
  assert(captions[1].includes('fast-failover') && captions[1].includes('evicted at 90 s'), captions[1]);
  assert(captions[2].includes('stays-forever') && captions[2].includes('stays bound'), captions[2]);
  assert(await page.$('figure.timeline svg[role="img"] desc'), 'SVG has a description');
  // Remove the taint at 200 s: the 300 s timer is cancelled.
  await page.fill('.timeline-tab input[type="number"]', '200');
  await page.selectOption('.timeline-tab form select >> nth=1', 'remove');
  await page.click('.timeline-tab form button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('figure.timeline figcaption').textContent.includes('stays bound'));
  await page.click('.controller-events summary');
  const events = await page.textContent('.controller-events pre');
  assert(events.includes('Cancelling deletion of Pod default/default-toleration'), events);
  assert(events.includes('Marking for deletion Pod default/fast-failover'), events);
  await shot(page, 'timeline');
  // The node-failure preset: grace period, then the default 300 s tolerations.
  await page.check('input[name="tl-mode"] >> nth=1');
  await page.waitForSelector('.narrative');
  const narrative = await page.textContent('.narrative');
  assert(narrative.includes('(50 s)'), narrative);
  const preset = await page.$$eval('figure.timeline figcaption', (e) => e.map((x) => x.textContent));
  const at = (s) => Number((s.match(/evicted at (\d+) s/) || [])[1]);
  const tainted = Number((narrative.match(/is added \(at (\d+) s\)/) || [])[1]);
  assert(tainted >= 50, `tainted at ${tainted}`);
  eq(at(preset[0]), tainted + 300, 'default toleration: tainted + 300 s');
  eq(at(preset[1]), tainted + 30, 'fast-failover: tainted + 30 s');
  assert(preset[2].includes('stays bound'), preset[2]);
  await shot(page, 'node-failure');
  await context.close();
});

await test('Kubewarden tab: settings validation, rejection, mutation patch', async () => {
  const { context, page } = await open();
  await gallery(page, 'wildcard');
  await page.waitForSelector('.kw-answer');
  const first = await page.textContent('.kw-answer >> nth=0');
  assert(first.includes('tools/anywhere') && first.includes('rejected'), first);
  assert(first.includes('wildcard toleration'), first);
  const second = await page.textContent('.kw-answer >> nth=1');
  assert(second.includes('accepted'), second);
  await page.fill('#kw-settings', '{"denyWildcardTolerations": "yes"}');
  await page.waitForFunction(() => document.querySelector('#kw-settings-status').textContent.includes('validate_settings rejects'));
  await page.fill('#kw-settings', '{"denyWildcardTolerations": false, "maxTolerationSeconds": 600, "clampTolerationSeconds": true}');
  await page.waitForFunction(() => document.querySelector('#kw-settings-status').textContent.includes('Settings are valid'));
  await paste(page, 'pods', 'apiVersion: v1\nkind: Pod\nmetadata: {name: long, namespace: tools}\nspec:\n  containers: [{name: c, image: nginx}]\n  tolerations:\n  - {key: maintenance, operator: Exists, effect: NoExecute, tolerationSeconds: 7200}\n');
  await page.waitForFunction(() => {
    const a = document.querySelector('.kw-answer');
    return a && a.textContent.includes('long');
  });
  const mutated = await page.textContent('.kw-answer');
  assert(mutated.includes('accepted with changes'), mutated);
  assert(mutated.includes('"op": "replace"') && mutated.includes('tolerationSeconds'), mutated);
  await shot(page, 'kubewarden');
  await context.close();
});

await test('share link round trip restores the state exactly', async () => {
  const { context, page } = await open({ permissions: ['clipboard-read', 'clipboard-write'] });
  await gallery(page, 'thresholds');
  await paste(page, 'pods', 'tolerations:\n- {key: reliability, operator: Gt, value: "90", effect: NoSchedule}\n# ünïcödé, 中文, <b>markup</b>\n');
  await page.click('#tab-timeline');
  await page.click('#share-button');
  await page.waitForSelector('.notice.info');
  const link = page.url();
  assert(link.includes('#v=1&s='), link);
  const nodes = await page.inputValue('#nodes-text');
  const pods = await page.inputValue('#pods-text');
  const clip = await page.evaluate(() => navigator.clipboard.readText());
  eq(clip, link, 'clipboard holds the link');
  await context.close();
  const other = await open({}, link.slice(url.length));
  eq(await other.page.inputValue('#nodes-text'), nodes, 'nodes pane restored');
  eq(await other.page.inputValue('#pods-text'), pods, 'pods pane restored');
  eq(await other.page.inputValue('#version-select'), '1.35.0', 'version restored');
  assert(await other.page.isChecked('#gate'), 'gate restored');
  eq(await other.page.getAttribute('#tab-timeline', 'aria-selected'), 'true', 'tab restored');
  assert(!other.page.url().includes('#v=1'), 'fragment removed after loading');
  await other.context.close();
});

await test('export and import as YAML', async () => {
  const { context, page } = await open({ acceptDownloads: true });
  await gallery(page, 'gpu');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-button')]);
  const path = await download.path();
  const yaml = await readFile(path, 'utf8');
  assert(yaml.startsWith('# Taintlab playground state') && yaml.includes('taintlab: 1'), yaml.slice(0, 200));
  const before = { nodes: await page.inputValue('#nodes-text'), pods: await page.inputValue('#pods-text') };
  await paste(page, 'nodes', '');
  await page.setInputFiles('#import-input', path);
  await page.waitForFunction(() => document.querySelector('#nodes-text').value.length > 0);
  eq(await page.inputValue('#nodes-text'), before.nodes, 'nodes after import');
  eq(await page.inputValue('#pods-text'), before.pods, 'pods after import');
  await context.close();
});

await test('language: browser default, switch, engine text stays English', async () => {
  const pt = await open({ locale: 'pt-BR' });
  eq(await pt.page.textContent('h1'), 'Playground do Taintlab', 'pt-BR from navigator.language');
  eq(await pt.page.getAttribute('html', 'lang'), 'pt-BR', 'html lang');
  await pt.context.close();
  const { context, page } = await open();
  await page.selectOption('#lang-select', 'zh-CN');
  await page.waitForFunction(() => document.querySelector('h1').textContent.includes('演练场'));
  eq(await page.getAttribute('html', 'lang'), 'zh-CN', 'html lang');
  await page.click('#cell-1-0');
  const why = await page.textContent('.explanation');
  assert(why.includes('被 TaintToleration 阻止'), why);
  assert(why.includes('node(s) had untolerated taint(s)'), 'scheduler text stays English');
  await shot(page, 'zh-CN');
  // Kept after a reload.
  await page.reload();
  await page.waitForSelector('table.matrix');
  assert((await page.textContent('h1')).includes('演练场'), 'language kept');
  await context.close();
});

await test('keyboard: every control reachable, visible focus, grid and tabs', async () => {
  const { context, page } = await open();
  await page.keyboard.press('Tab');
  eq(await page.evaluate(() => document.activeElement.className), 'skip', 'skip link first');
  const seen = [];
  let found = false;
  for (let i = 0; i < 80 && !found; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const a = document.activeElement;
      const s = getComputedStyle(a);
      return { id: a.id, tag: a.tagName, outline: s.outlineStyle, width: s.outlineWidth };
    });
    seen.push(info.id || info.tag);
    if (info.tag !== 'BODY') assert(info.outline !== 'none' && info.width !== '0px', `no visible focus on ${JSON.stringify(info)}`);
    found = info.id === 'cell-0-0';
  }
  assert(found, `matrix not reached by Tab: ${seen.join(' ')}`);
  for (const id of ['gallery-button', 'share-button', 'export-button', 'import-input', 'lang-select', 'theme-select', 'version-select', 'gate', 'nodes-text', 'pods-text', 'tab-results']) {
    assert(seen.includes(id), `${id} not reachable by Tab: ${seen.join(' ')}`);
  }
  await page.keyboard.press('ArrowDown');
  eq(await page.evaluate(() => document.activeElement.id), 'cell-1-0', 'ArrowDown moves in the grid');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.explanation');
  assert((await page.textContent('.explanation h3')).includes('web on payments-1'), 'Enter explains');
  await page.focus('#tab-results');
  await page.keyboard.press('ArrowRight');
  eq(await page.getAttribute('#tab-timeline', 'aria-selected'), 'true', 'ArrowRight switches tabs');
  eq(await page.evaluate(() => document.activeElement.id), 'tab-timeline', 'focus follows');
  await context.close();
});

function link(state) {
  const json = Buffer.from(JSON.stringify(state));
  return '#v=1&s=' + deflateRawSync(json, { level: 9 }).toString('base64url');
}

await test('hostile share links render as inert text or a clear error', async () => {
  const payload = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
  const evil = await open({}, link({ nodes: `kubectl taint nodes n1 a=b:NoSchedule\n# ${payload}\n`, pods: `apiVersion: v1\nkind: Pod\nmetadata: {name: "${'x'.repeat(3)}"}\nspec: {containers: [{name: c, image: i}]}\n---\n${payload}\n`, version: '<img src=x onerror=alert(1)>' }));
  await evil.page.waitForSelector('table.matrix');
  eq(await evil.page.evaluate(() => window.__pwned), undefined, 'no script ran');
  assert((await evil.page.inputValue('#nodes-text')).includes(payload), 'markup kept as text');
  eq(await evil.page.$$eval('body img', (e) => e.length), 0, 'no injected elements');
  const diag = await evil.page.textContent('#pods-diagnostics');
  assert(diag.includes('<script>') || diag.length > 0, 'the bad document is reported, as text');
  await evil.context.close();

  const cases = [
    ['#v=1&s=' + 'A'.repeat(500000), 'larger than the 400000 characters'],
    ['#v=1&s=***not*base64***', 'not valid base64url'],
    ['#v=1&s=' + deflateRawSync(Buffer.alloc(20 * 1024 * 1024, 32), { level: 9 }).toString('base64url'), 'not valid compressed data, or it expands beyond'],
    ['#v=1&s=' + deflateRawSync(Buffer.from('[1,2,3]')).toString('base64url'), 'not a playground state'],
    ['#v=9&s=AAAA', 'Unknown share-link version 9'],
  ];
  for (const [fragment, message] of cases) {
    const { context, page } = await open({}, fragment);
    await page.waitForSelector('#notice-error');
    const text = await page.textContent('#notice-error');
    assert(text.includes(message), `${fragment.slice(0, 40)}…: ${text}`);
    await page.waitForSelector('table.matrix');
    if (message.startsWith('larger')) await shot(page, 'hostile-link');
    await context.close();
  }
});

await test('theme toggle and phone width', async () => {
  const { context, page } = await open({ colorScheme: 'light' });
  await page.selectOption('#theme-select', 'dark');
  eq(await page.getAttribute('html', 'data-theme'), 'dark', 'data-theme');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  eq(bg, 'rgb(14, 17, 23)', 'dark background');
  await page.click('#cell-1-0');
  await shot(page, 'matrix-dark');
  await page.reload();
  await page.waitForSelector('table.matrix');
  eq(await page.getAttribute('html', 'data-theme'), 'dark', 'theme kept');
  await context.close();
  // System preference without a stored choice.
  const sys = await open({ colorScheme: 'dark' });
  eq(await sys.page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(14, 17, 23)', 'prefers-color-scheme');
  await sys.context.close();
  for (const scheme of ['light', 'dark']) {
    const phone = await open({ viewport: { width: 360, height: 780 }, colorScheme: scheme, isMobile: true, hasTouch: true });
    await phone.page.waitForSelector('table.matrix');
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    assert(overflow <= 360, `page is ${overflow} px wide at 360 px`);
    await phone.page.click('#cell-1-0');
    await shot(phone.page, `phone-${scheme}`);
    await phone.context.close();
  }
});

await test('import YAML: alias bomb, deep nesting, oversized file give a clear error; the tab keeps working', async () => {
  const { context, page } = await open();
  // The alias bomb of issue 10 (412 bytes): nine levels of nine aliases each.
  let bomb = 'taintlab: 1\na: &a [x, x, x, x, x, x, x, x, x]\n';
  const names = 'abcdefghi';
  for (let i = 1; i < names.length; i++) {
    const prev = names[i - 1];
    bomb += `${names[i]}: &${names[i]} [${Array(9).fill('*' + prev).join(', ')}]\n`;
  }
  const deep = `taintlab: 1\nsettings: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
  // One byte over the 64 MiB import limit, written to disk (too large to pass inline).
  const bigPath = join(repo, 'target', 'browser-import-oversized.yaml');
  const prefix = 'taintlab: 1\nnodes: "';
  await writeFile(bigPath, prefix + 'x'.repeat(64 * 1024 * 1024 + 1 - prefix.length - 2) + '"\n');
  const cases = [
    ['alias-bomb.yaml', Buffer.from(bomb), /alias/i],
    ['deep.yaml', Buffer.from(deep), /nest|deep/i],
    ['oversized.yaml', bigPath, /bytes/],
  ];
  figures.hostileImportMs = {};
  for (const [name, content, message] of cases) {
    const nodesBefore = await page.inputValue('#nodes-text');
    const started = Date.now();
    await page.setInputFiles('#import-input', typeof content === 'string' ? content : { name, mimeType: 'text/yaml', buffer: content });
    await page.waitForSelector('#notice-error', { timeout: 15000 });
    figures.hostileImportMs[name] = Date.now() - started;
    const text = await page.textContent('#notice-error');
    assert(text.includes('Could not import') && message.test(text), `${name}: ${text}`);
    eq(await page.inputValue('#nodes-text'), nodesBefore, `${name}: the state is unchanged`);
    // The tab keeps working: an edit is analysed at once.
    await paste(page, 'pods', `tolerations:\n- {key: dedicated, operator: Exists, effect: NoSchedule}\n# after ${name}\n`);
    await page.waitForFunction(() => document.querySelectorAll('table.matrix tbody tr').length === 1 && document.querySelectorAll('table.matrix button.cell.ok').length === 3);
    await page.click('#notice-error button');
    await page.waitForSelector('#notice-error', { state: 'detached' });
  }
  await rm(bigPath, { force: true });
  assert(bomb.length <= 420, `alias bomb is ${bomb.length} bytes`);
  await shot(page, 'hostile-import');
  // A good export still imports afterwards.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-button')]);
  const good = await download.path();
  const pods = await page.inputValue('#pods-text');
  await paste(page, 'pods', '');
  await page.setInputFiles('#import-input', good);
  await page.waitForFunction(() => document.querySelector('#pods-text').value.length > 0);
  eq(await page.inputValue('#pods-text'), pods, 'pods after a good import');
  await context.close();
});

/** Runs axe-core on the page; throws listing every violation. */
async function audit(page, where) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ path: axeSource });
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, {
      resultTypes: ['violations'],
      rules: { 'label-content-name-mismatch': { enabled: true } },
    });
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n        ${v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join('\n        ')}${v.nodes.length > 5 ? `\n        … ${v.nodes.length - 5} more` : ''}`);
  });
  assert(violations.length === 0, `axe-core, ${where}:\n    ${violations.join('\n    ')}`);
}

await test('axe-core: no violations, light and dark, every tab', async () => {
  let audited = 0;
  for (const scheme of ['light', 'dark']) {
    const { context, page } = await open({ colorScheme: scheme });
    await page.selectOption('#theme-select', scheme);
    await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
    await page.waitForSelector('table.matrix');
    await page.click('#cell-1-0');
    await page.waitForSelector('.explanation');
    await audit(page, `${scheme}, results tab`);
    await page.click('#gallery-button');
    await page.waitForSelector('#gallery');
    await audit(page, `${scheme}, examples open`);
    await page.click('#gallery-button');
    await page.click('#tab-timeline');
    await page.waitForSelector('.timeline-tab');
    await audit(page, `${scheme}, timeline tab`);
    await page.check('input[name="tl-mode"] >> nth=1');
    await page.waitForSelector('.narrative');
    await audit(page, `${scheme}, timeline tab, node-failure preset`);
    await page.click('#tab-kubewarden');
    await page.waitForSelector('section.kubewarden[aria-busy="false"] .kw-answer');
    await audit(page, `${scheme}, Kubewarden tab`);
    audited += 5;
    await context.close();
  }
  figures.axeAudits = audited;
});

await test('recompute after an edit, 50 nodes × 20 pods', async () => {
  const { context, page } = await open();
  let nodes = '';
  for (let i = 0; i < 50; i++) {
    const taint = i % 5 === 0 ? '' : `\n  taints:\n  - {key: team-${i % 7}, value: v${i % 3}, effect: ${['NoSchedule', 'PreferNoSchedule', 'NoExecute'][i % 3]}}`;
    nodes += `---\napiVersion: v1\nkind: Node\nmetadata: {name: node-${i}}\nspec:${taint || ' {}'}\n`;
  }
  let pods = '';
  for (let i = 0; i < 20; i++) {
    pods += `---\napiVersion: v1\nkind: Pod\nmetadata: {name: pod-${i}}\nspec:\n  containers: [{name: c, image: nginx}]\n  tolerations:\n  - {key: team-${i % 7}, operator: Exists}\n  - {key: team-${(i + 3) % 7}, operator: Equal, value: v${i % 3}, effect: NoExecute, tolerationSeconds: ${60 * (i + 1)}}\n`;
  }
  await paste(page, 'nodes', nodes);
  await paste(page, 'pods', pods);
  await page.waitForFunction(() => document.querySelectorAll('table.matrix button.cell').length === 1000);
  await page.evaluate(() => { window.__taintlab.recompute = []; });
  await page.focus('#pods-text');
  await page.keyboard.press('Control+End');
  // Type a toleration into the last pod, key by key: every keystroke changes what that
  // pod tolerates (or makes the YAML invalid for a moment), so the row really changes.
  for (const ch of '  - {key: team-2, operator: Exists}') {
    const before = await page.evaluate(() => window.__taintlab.recompute.length);
    await page.keyboard.type(ch);
    // Every keystroke changes the pods text, so the analysis is recomputed and marked.
    await page.waitForFunction((n) => window.__taintlab.recompute.length > n, before);
  }
  const times = await page.evaluate(() => window.__taintlab.recompute.slice());
  assert(times.length >= 20, `recompute marks: ${times}`);
  times.sort((a, b) => a - b);
  figures.recompute50x20Ms = {
    keystrokes: times.length,
    median: +times[Math.floor(times.length / 2)].toFixed(1),
    p90: +times[Math.floor(times.length * 0.9)].toFixed(1),
    max: +times[times.length - 1].toFixed(1),
  };
  assert(times[Math.floor(times.length / 2)] <= 16 * 3, `median recompute ${times} ms is far over 16 ms`);
  await context.close();
});

await test('5,000-node kubectl get nodes -o json: background read, typing stays live', async () => {
  const { context, page } = await open();
  // The user clicks into the box before pasting (this also starts the worker).
  await page.focus('#nodes-text');
  // Generate the paste in the page (realistic node objects, 4-space JSON like kubectl).
  const bytes = await page.evaluate(() => {
    const hex = (n, seed) => { let s = ''; let x = seed; while (s.length < n) { x = (x * 1103515245 + 12345) >>> 0; s += x.toString(16); } return s.slice(0, n); };
    const items = [];
    for (let i = 0; i < 5000; i++) {
      const name = `ip-10-${(i >> 16) & 255}-${(i >> 8) & 255}-${i & 255}.eu-west-1.compute.internal`;
      const pool = ['general', 'gpu', 'memory', 'spot'][i % 4];
      const taints = [];
      if (pool === 'gpu') taints.push({ effect: 'NoSchedule', key: 'nvidia.com/gpu', value: 'present' });
      if (pool === 'spot') taints.push({ effect: 'PreferNoSchedule', key: 'lifecycle', value: 'spot' });
      if (i % 97 === 0) taints.push({ effect: 'NoSchedule', key: 'node.kubernetes.io/unschedulable', timeAdded: '2025-06-01T08:00:00Z' });
      const images = [];
      for (let k = 0; k < 22; k++) images.push({ names: [`123456789012.dkr.ecr.eu-west-1.amazonaws.com/team/svc-${k}@sha256:${hex(64, i * 31 + k)}`, `123456789012.dkr.ecr.eu-west-1.amazonaws.com/team/svc-${k}:v1.${k}`], sizeBytes: 20000000 + k * 1234567 });
      const cond = (type, status, reason) => ({ lastHeartbeatTime: '2025-05-01T10:00:00Z', lastTransitionTime: '2025-05-01T09:00:00Z', message: `kubelet ${reason}`, reason, status, type });
      items.push({
        apiVersion: 'v1', kind: 'Node',
        metadata: { annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' }, creationTimestamp: '2025-05-01T08:00:00Z', labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', pool, 'topology.kubernetes.io/zone': ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'][i % 3] }, name, resourceVersion: String(1000000 + i), uid: `${hex(8, i)}-${hex(4, i + 1)}-${hex(4, i + 2)}-${hex(4, i + 3)}-${hex(12, i + 4)}` },
        spec: Object.assign({ podCIDR: `10.100.${i & 255}.0/24`, providerID: `aws:///eu-west-1a/i-0${hex(16, i)}` }, taints.length ? { taints } : {}, i % 97 === 0 ? { unschedulable: true } : {}),
        status: { addresses: [{ address: `10.0.${(i >> 8) & 255}.${i & 255}`, type: 'InternalIP' }, { address: name, type: 'Hostname' }], allocatable: { cpu: '7910m', memory: '31482472Ki', pods: '58' }, capacity: { cpu: '8', memory: '32332440Ki', pods: '58' }, conditions: [cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory'), cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure'), cond('PIDPressure', 'False', 'KubeletHasSufficientPID'), cond('Ready', 'True', 'KubeletReady')], images, nodeInfo: { architecture: 'amd64', containerRuntimeVersion: 'containerd://1.7.22', kernelVersion: '6.1.112', kubeletVersion: 'v1.31.2-eks-94953ac', osImage: 'Amazon Linux 2023' } },
      });
    }
    window.__bigPaste = JSON.stringify({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } }, null, 4) + '\n';
    return window.__bigPaste.length;
  });
  figures.bigPasteBytes = bytes;
  // Watch the main thread while the paste is read: the longest gap between ticks.
  const result = await page.evaluate(async () => {
    let last = performance.now();
    let maxGap = 0;
    let stop = false;
    const tick = () => { const now = performance.now(); maxGap = Math.max(maxGap, now - last); last = now; if (!stop) setTimeout(tick, 5); };
    tick();
    const ta = document.querySelector('#nodes-text');
    // A real paste: a paste event carrying the text on the clipboard.
    const clipboard = new DataTransfer();
    clipboard.setData('text/plain', window.__bigPaste);
    await new Promise((r) => setTimeout(r, 0));
    maxGap = 0;
    last = performance.now();
    const t0 = performance.now();
    ta.dispatchEvent(new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }));
    const afterInput = performance.now() - t0;
    // Typing elsewhere while the worker reads.
    const pods = document.querySelector('#pods-text');
    let typed = 0;
    let maxTyping = 0;
    const status = () => document.querySelector('#nodes-status').textContent;
    while (!/5000 node\(s\)/.test(status())) {
      const k0 = performance.now();
      pods.value += 'x';
      pods.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: 'x' }));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      maxTyping = Math.max(maxTyping, performance.now() - k0);
      typed++;
      if (performance.now() - t0 > 20000) break;
    }
    const total = performance.now() - t0;
    stop = true;
    return { total, afterInput, maxGap, typed, maxTyping, status: status(), worker: window.__taintlab.bigParseWorkerMs };
  });
  figures.bigPaste = {
    totalMs: Math.round(result.total),
    workerParseMs: Math.round(result.worker || 0),
    pasteHandlerMs: Math.round(result.afterInput),
    longestMainThreadStallMs: Math.round(result.maxGap),
    keystrokesWhileReading: result.typed,
    slowestKeystrokeMs: Math.round(result.maxTyping),
  };
  assert(/5000 node\(s\)/.test(result.status), result.status);
  assert(result.typed >= 3, `typing did not go on while reading (${result.typed} keystrokes)`);
  assert(result.maxGap <= 1500, `the main thread stalled for ${result.maxGap} ms`);
  assert(result.total <= 2000 * 3, `5,000-node paste took ${result.total} ms`);
  await page.waitForSelector('table.matrix');
  const grouped = await page.textContent('.matrix-wrap .note');
  assert(grouped.includes('5000 nodes are grouped'), grouped);
  await shot(page, 'big-paste');
  await context.close();
});

/** kubectl drain's lines as the What-if tab prints them ("   Ns  line"), as [second, line]. */
const drainLines = (page) => page.evaluate(() => (document.querySelector('pre.wi-drain')?.textContent || '')
  .split('\n').map((l) => l.trim().match(/^(\d+)s {2}(.*)$/)).filter(Boolean).map((m) => [Number(m[1]), m[2]]));

/** data-pod of the bars `sel` matches. */
const barPods = (page, sel) => page.$$eval(sel, (e) => e.map((x) => x.getAttribute('data-pod')));

/** Waits until the What-if tab is idle and its summary reads `summary` (a RegExp). */
const whatIfAnswer = (page, summary) => page.waitForFunction(
  (src) => document.querySelector('section.whatif')?.getAttribute('aria-busy') === 'false'
    && new RegExp(src).test(document.querySelector('.wi-result .wi-summary')?.textContent || ''),
  summary.source,
);

await test('What if: draining a tenant\'s node moves every pod to its own pool, one eviction waits on the budget', async () => {
  const { context, page } = await open();
  await gallery(page, 'multi-tenant');
  await page.click('#tab-timeline');
  await page.waitForSelector('section.whatif');
  // The example opens on its drain; start over and drain acme-1 with the node form.
  eq((await page.inputValue('textarea.wi-actions')).trim(), 'at 0 drain acme-1 --ignore-daemonsets', 'the example\'s action line');
  await page.fill('textarea.wi-actions', '');
  await page.waitForFunction(() => !document.querySelector('.wi-result'));
  await page.selectOption('select.wi-node', 'acme-1');
  await page.selectOption('select.wi-kind', 'drain');
  await page.fill('input.wi-at', '0');
  const ignore = page.locator('fieldset.drain-flags label', { hasText: '--ignore-daemonsets' }).locator('input');
  if (!(await ignore.isChecked())) await ignore.check();
  const started = Date.now();
  await page.click('button.wi-add');
  eq((await page.inputValue('textarea.wi-actions')).trim(), 'at 0 drain acme-1 --ignore-daemonsets', 'the appended action line');
  await whatIfAnswer(page, /^Evicted 3, rescheduled 3, still Pending 0\./);
  figures.whatIfMultiTenant = {
    clickToTimelineMs: Date.now() - started,
    workerMs: Number(await page.getAttribute('.wi-result', 'data-ms')),
  };
  const storefront = ['acme/storefront-7c9d8b6f4-k2x8p', 'acme/storefront-7c9d8b6f4-q7m4z', 'acme/storefront-7c9d8b6f4-w9tl5'];
  const checkout = 'acme/checkout-5f6d7c8b9-r4nvx';
  // acme-1's three pods end terminating there; the second storefront replica runs
  // until 5 s: the budget refused its eviction at 0.
  const leaving = (await barPods(page, 'div.lane[data-node="acme-1"] span.bar.terminating')).sort();
  eq(leaving.join(' '), [checkout, storefront[0], storefront[1]].join(' '), 'pods terminating on acme-1');
  eq(await page.getAttribute(`div.lane[data-node="acme-1"] span.bar.running[data-pod="${storefront[1]}"]`, 'title'), `${storefront[1]}  0s–5s`, 'the waiting eviction\'s running bar');
  // Every replacement runs on the acme pool: checkout's on acme-2, storefront's two on acme-3.
  const acme2 = await barPods(page, 'div.lane[data-node="acme-2"] span.bar.running');
  const acme3 = await barPods(page, 'div.lane[data-node="acme-3"] span.bar.running');
  eq(acme2.length, 2, `acme-2 runs ${acme2}`);
  // Replacements are named after the pasted pods' ReplicaSets: <replica set>-<5 characters>.
  const of = (rs) => (p) => p.startsWith(`${rs}-`) && p.length === rs.length + 6;
  assert(acme2.includes(storefront[2]) && acme2.some((p) => of('acme/checkout-5f6d7c8b9')(p) && p !== checkout), `acme-2 runs ${acme2}`);
  eq(acme3.length, 2, `acme-3 runs ${acme3}`);
  assert(acme3.every((p) => of('acme/storefront-7c9d8b6f4')(p) && !storefront.includes(p)), `acme-3 runs ${acme3}`);
  for (const node of ['globex-1', 'globex-2']) {
    const pods = await barPods(page, `div.lane[data-node="${node}"] span.bar`);
    assert(pods.length === 1 && pods[0].startsWith('globex/ledger-'), `${node} holds ${pods}`);
  }
  eq((await barPods(page, 'div.lane[data-node="shared-1"] span.bar')).length, 0, 'bars on the shared node');
  eq((await barPods(page, 'div.lane.pending-lane span.bar')).length, 0, 'bars in the Pending lane');
  // The scheduler's Scheduled events name the pool's nodes.
  const scheduled = await page.$$eval('details.wi-events tr[data-reason="Scheduled"]', (e) => e.map((x) => x.textContent));
  eq(scheduled.length, 3, `Scheduled events ${scheduled}`);
  eq(scheduled.filter((e) => e.endsWith(' to acme-3')).length, 2, `Scheduled on acme-3: ${scheduled}`);
  eq(scheduled.filter((e) => e.endsWith(' to acme-2')).length, 1, `Scheduled on acme-2: ${scheduled}`);
  // kubectl drain: refused by the budget at 0, retried at 5, drained at 35.
  const lines = await drainLines(page);
  const has = (at, line) => lines.some(([a, l]) => a === at && l === line);
  assert(has(0, 'node/acme-1 cordoned'), JSON.stringify(lines));
  assert(has(0, 'error when evicting pods/"storefront-7c9d8b6f4-q7m4z" -n "acme" (will retry after 5s): Cannot evict pod as it would violate the pod\'s disruption budget.'), JSON.stringify(lines));
  assert(has(5, 'evicting pod acme/storefront-7c9d8b6f4-q7m4z'), JSON.stringify(lines));
  assert(has(35, 'pod/storefront-7c9d8b6f4-q7m4z evicted'), JSON.stringify(lines));
  eq(JSON.stringify(lines[lines.length - 1]), JSON.stringify([35, 'node/acme-1 drained']), 'the drain\'s last line');
  // The scrubber at 3 s: acme-1 cordoned, the refused pod still running beside two terminating.
  await page.locator('input.wi-scrub').fill('3');
  await page.waitForFunction(() => document.querySelector('table.wi-at-table caption')?.textContent === 'Cluster at 3 s');
  const row = 'table.wi-at-table tr[data-node="acme-1"]';
  await page.waitForFunction((r) => document.querySelectorAll(`${r} span.pod-chip:not(.terminating)`).length === 1, row);
  assert((await page.textContent(row)).includes('SchedulingDisabled'), await page.textContent(row));
  eq(await page.textContent(`${row} span.pod-chip:not(.terminating)`), storefront[1], 'still running at 3 s');
  eq((await page.$$eval(`${row} span.pod-chip.terminating`, (e) => e.map((x) => x.textContent))).sort().join(' '), [checkout, storefront[0]].join(' '), 'terminating at 3 s');
  await shot(page, 'whatif-multi-tenant-drain');
  await audit(page, 'What-if tab with a drain');
  await context.close();
});

// Issue 14's in-worker figure (target 3 s): the benchmark's zone failure, pasted as
// kubectl would print it, run by the playground's worker module in Chromium. A
// dedicated instance of the worker (worker-loader.js) gets the texts, as the page's
// worker does, so the page's own matrix of 50,000 pods is not part of the figure. The
// figure is printed, not asserted (wall clock on a shared machine).
await test('What if in the worker: 5,000 nodes, 50,000 pods, a 500-node zone fails at 0, 1,800 s', async () => {
  const { context, page } = await open();
  const result = await page.evaluate(async () => {
    const t0 = performance.now();
    const items = (list) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items: list });
    const nodes = [];
    for (let i = 0; i < 5000; i++) {
      const name = `node-${String(i).padStart(5, '0')}`;
      nodes.push({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': `z${Math.floor(i / 500)}` } }, status: { allocatable: { cpu: '16', memory: '64Gi', pods: '110' } } });
    }
    const res = { requests: { cpu: '100m', memory: '256Mi' } };
    const objs = [];
    const pod = (ns, name, app, owner, node) => ({
      apiVersion: 'v1', kind: 'Pod',
      metadata: { name, namespace: ns, labels: { app }, ownerReferences: [{ apiVersion: 'apps/v1', kind: owner[0], name: owner[1], uid: `u-${owner[1]}`, controller: true }] },
      spec: { nodeName: node, containers: [{ name: 'app', image: 'registry.example/app:1', resources: res }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    });
    const template = (app) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1', resources: res }] } });
    objs.push({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'kube-system' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent') } });
    for (let i = 0; i < 5000; i++) objs.push(pod('kube-system', `agent-${String(i).padStart(5, '0')}`, 'agent', ['DaemonSet', 'agent'], nodes[i].metadata.name));
    let k = 0;
    for (let d = 0; d < 900; d++) {
      const app = `app${String(d).padStart(4, '0')}`;
      const rs = `${app}-5d8f7c9b4`;
      objs.push({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: app, namespace: 'default' }, spec: { replicas: 50, selector: { matchLabels: { app } }, template: template(app) } });
      objs.push({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: app, namespace: 'default' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app } } } });
      for (let j = 0; j < 50; j++) {
        k++;
        objs.push(pod('default', `${rs}-${String(j).padStart(5, '0')}`, app, ['ReplicaSet', rs], nodes[1 + (k % 4999)].metadata.name));
      }
    }
    const nodesText = items(nodes);
    const podsText = items(objs);
    const actions = nodes.slice(0, 500).map((n) => `at 0 fail ${n.metadata.name}`).join('\n');
    const generated = performance.now() - t0;
    const worker = new Worker('./worker-loader.js');
    await new Promise((resolve, reject) => {
      worker.onmessage = (e) => { if (e.data && e.data.ready) resolve(); };
      worker.onerror = (e) => reject(new Error(`worker: ${e.message}`));
    });
    const ask = (id, fields) => new Promise((resolve) => {
      const sent = performance.now();
      worker.onmessage = (e) => { if (e.data && e.data.id === id) resolve({ ...e.data, wallMs: performance.now() - sent }); };
      worker.postMessage({ id, op: 'whatif', ...fields });
    });
    const state = (until) => JSON.stringify({ nodes: '', pods: '', scenario: { actions, until } });
    // One answer, as the tab's first one: the worker reads the texts, builds the
    // cluster, simulates 1,800 s and renders the result.
    const first = await ask(1, { state: state(1800), nodes: nodesText, pods: podsText });
    worker.terminate();
    const evicted = (r) => Number(((r.out || '').match(/evicted\D{1,4}(\d+)/i) || [])[1]);
    return {
      nodesBytes: nodesText.length, podsBytes: podsText.length, generatedMs: generated,
      first: { ms: first.ms, wallMs: first.wallMs, error: first.error, evicted: evicted(first), outBytes: (first.out || '').length },
    };
  });
  assert(!result.first.error, `worker error: ${result.first.error}`);
  // The node lifecycle controller taints the zone's nodes one every 10 s from 55 s; the
  // pods of those tainted by 1,500 s are evicted: 1,305, as in the native benchmark.
  eq(result.first.evicted, 1305, 'evicted in 1,800 s');
  figures.whatIfZoneFailureInWorker = {
    pasteBytes: { nodes: result.nodesBytes, pods: result.podsBytes },
    generateMs: Math.round(result.generatedMs),
    answerMs: Math.round(result.first.ms),
    answerWallMs: Math.round(result.first.wallMs),
    replyBytes: result.first.outBytes,
    targetMs: 3000,
  };
  await context.close();
});

await test('no console errors', async () => {
  assert(consoleErrors.length === 0, `console errors:\n  ${consoleErrors.join('\n  ')}`);
});

await browser.close();
server.close();

console.log('\nfigures:');
console.log(JSON.stringify(figures, null, 2));
console.log(`screenshots: ${shots}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
