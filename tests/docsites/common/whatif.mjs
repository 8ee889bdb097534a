// The what-if widget every site shows (whatif.json, whatif.yaml) and the native engine's
// answer for it: `cargo xtask docsites` runs `taintlab what-if -o json` on the same
// cluster and actions and gives the file as TAINTLAB_WHATIF_EXPECTED. Each site test
// reads the widget (readWhatIf) and compares it with that answer (assertWhatIf): the
// whole timeline the widget computed, the summary, each pod evicted from a node with its
// replacement and where and when it landed, the pods placed on each node, the node's
// state at the end and kubectl drain's lines. Which wasm a page fetched is told by the
// bytes (wasmKinds), as Docusaurus's bundler renames the files.
import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { fileURLToPath, pathToFileURL } from "node:url";
import assert from "node:assert/strict";

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, "../../..");
// The element's words, so that the expected sentences are built from the native answer.
const { t: words } = await import(pathToFileURL(path.join(ROOT, "wasm/js/element/i18n.js")).href);

/**
 * The what-if case: `{actions, until, yaml, expected}`, `expected` being the command
 * line's WhatIfResult for it. Throws when TAINTLAB_WHATIF_EXPECTED is not set: the test
 * needs the native answer.
 */
export function whatIfCase() {
  const spec = JSON.parse(fs.readFileSync(path.join(here, "whatif.json"), "utf8"));
  const file = process.env.TAINTLAB_WHATIF_EXPECTED;
  if (!file) throw new Error("TAINTLAB_WHATIF_EXPECTED (taintlab what-if -o json on common/whatif.yaml) is not set: run the site tests with cargo xtask docsites");
  return {
    actions: spec.actions,
    until: spec.until,
    yaml: fs.readFileSync(path.join(here, spec.yaml), "utf8"),
    expected: JSON.parse(fs.readFileSync(file, "utf8")),
  };
}

/**
 * For `context.addInitScript`: keeps the last what-if answer each widget rendered (the
 * `taint-check-render` event's `detail.whatIf`, as JSON) on the element.
 */
export function recordWhatIfRenders() {
  document.addEventListener("taint-check-render", (e) => {
    if (e.detail?.whatIf) e.target.__whatIfAnswer = JSON.stringify(e.detail.whatIf);
  }, true);
}

/** What the widget `selector` shows in what-if mode, and the last answer it rendered. */
export async function readWhatIf(page, selector) {
  const shown = await page.$eval(selector, (el) => {
    const root = el.shadowRoot;
    const p = root.querySelector("p.verdict[data-evicted]");
    return {
      state: el.dataset.state ?? null,
      problem: el.dataset.problem ?? null,
      error: root.querySelector(".error")?.textContent ?? null,
      heading: root.querySelector(".heading")?.textContent ?? null,
      badge: root.querySelector(".badge")?.textContent ?? null,
      yaml: root.querySelector("textarea.yaml")?.value ?? null,
      actions: root.querySelector("textarea.actions")?.value ?? null,
      until: root.querySelector("[data-until]")?.dataset.until ?? null,
      summary: p && { evicted: +p.dataset.evicted, rescheduled: +p.dataset.rescheduled, pending: +p.dataset.pending, text: p.textContent },
      nodes: [...root.querySelectorAll("section.wi-node")].map((s) => ({
        node: s.dataset.node,
        chips: [...s.querySelectorAll(".chip")].map((c) => c.textContent),
        evicted: [...s.querySelectorAll("li[data-cause]")].map((li) => ({
          pod: li.dataset.pod,
          cause: li.dataset.cause,
          replacement: li.querySelector("[data-replacement]")?.dataset.replacement ?? null,
          text: li.textContent,
        })),
        arrived: [...s.querySelectorAll("li[data-arrived]")].map((li) => ({ pod: li.dataset.pod, at: +li.dataset.arrived, text: li.textContent })),
      })),
      pending: [...root.querySelectorAll('section.pod[data-verdict="pending"]')].map((s) => s.dataset.pod),
      drain: root.querySelector("pre.drain")?.textContent ?? null,
    };
  });
  const answer = await page.$eval(selector, (el) => el.__whatIfAnswer ?? null);
  shown.whatIf = answer === null ? null : JSON.parse(answer);
  return shown;
}

/**
 * What the widget must show for the command line's answer `doc` (English words): the
 * summary, per node its pods evicted (with their replacements) and placed, the node's
 * state at the end, the pods still Pending and kubectl drain's lines.
 */
export function expectedView(doc, lang = "en") {
  const tl = doc.timeline;
  const label = (i) => (tl.pods[i].namespace && tl.pods[i].namespace !== "default" ? `${tl.pods[i].namespace}/${tl.pods[i].name}` : tl.pods[i].name);
  const running = (i) => tl.spans.find((x) => x.pod === i && x.state === "running" && x.node !== null);
  const s = tl.summary;
  const nodes = tl.nodes.map((name, n) => {
    const last = tl.nodeChanges.filter((c) => c.node === n).pop();
    const chips = [];
    if (last && !last.exists) chips.push(words(lang, "wiNodeDeleted"));
    else if (last && !last.ready) chips.push(words(lang, "wiNodeNotReady"));
    if (last?.exists && last.unschedulable) chips.push(words(lang, "wiNodeCordoned"));
    const evicted = tl.spans.filter((x) => x.node === n && x.state === "terminating").map((x) => {
      const next = tl.pods.findIndex((p) => p.replaces === x.pod);
      const landed = next < 0 ? null : running(next);
      const then = next < 0 ? words(lang, "wiNotReplaced")
        : landed ? words(lang, "wiReplacedOn", label(next), tl.nodes[landed.node], landed.from)
        : words(lang, "wiReplacedPending", label(next));
      return {
        pod: tl.pods[x.pod].name,
        cause: x.cause,
        replacement: next < 0 ? null : tl.pods[next].name,
        text: words(lang, "wiEvicted", label(x.pod), words(lang, `cause.${x.cause}`), x.from) + then,
      };
    });
    // Placed here during the run: the replacements (and pods created or started later).
    const arrived = tl.pods.flatMap((p, i) => {
      const x = running(i);
      const placedLater = x && (p.replaces !== null || p.created > 0 || x.from > 0 || tl.spans.some((y) => y.pod === i && y.state === "pending"));
      if (!placedLater || x.node !== n) return [];
      return [{ pod: p.name, at: x.from, text: words(lang, "wiArrived", label(i), x.from) + (p.replaces === null ? "" : words(lang, "wiReplaces", label(p.replaces))) }];
    });
    return { node: name, chips, evicted, arrived };
  });
  const drain = tl.events.filter((e) => e.source !== "Event").map((e) => `${e.at} s  ${e.message}`);
  return {
    summary: {
      evicted: s.evicted,
      rescheduled: s.rescheduled,
      pending: s.stillPending.length,
      text: words(lang, "whatIfSummary", s.evicted, s.rescheduled, s.stillPending.length) + (s.drainsUnfinished ? ` ${words(lang, "drainUnfinished")}` : ""),
    },
    nodes,
    pending: s.stillPending.map((p) => tl.pods[p.pod].name),
    drain: drain.length ? drain.join("\n") : null,
  };
}

/**
 * Asserts that the widget `shown` (readWhatIf) is live and shows the command line's
 * answer for the case `c` (whatIfCase): its example and actions as written, the same
 * timeline, and what expectedView builds from that answer.
 */
export function assertWhatIf(shown, c) {
  assert.equal(shown.state, "live", `the widget is live: ${shown.problem ?? ""} ${shown.error ?? ""}`);
  // Byte for byte (blank lines, indentation), but for the newlines that end it.
  assert.equal(shown.yaml?.replace(/\n+$/, ""), c.yaml.replace(/\n+$/, ""), "the example reached the widget");
  assert.equal(shown.actions, c.actions.join("\n"), "the actions reached the widget, one per line");
  assert.equal(shown.until, String(c.until), "until reached the widget");
  assert.ok(shown.whatIf, "the widget rendered a what-if answer (recordWhatIfRenders runs as the page's init script)");
  assert.deepEqual(shown.whatIf.actions, c.actions, "the widget's actions as lines");
  assert.deepEqual(shown.whatIf.timeline, c.expected.timeline, "the widget's timeline is the native engine's");
  const want = expectedView(c.expected);
  // The case has to say something: pods evicted and replaced, kubectl drain's lines.
  assert.ok(want.summary.evicted > 0 && want.nodes.some((n) => n.evicted.some((e) => e.replacement)) && want.drain, JSON.stringify(want));
  assert.deepEqual(
    { evicted: shown.summary.evicted, rescheduled: shown.summary.rescheduled, pending: shown.summary.pending },
    { evicted: want.summary.evicted, rescheduled: want.summary.rescheduled, pending: want.summary.pending },
    "the summary's counts",
  );
  assert.equal(shown.summary.text.replace(/^[\u2713\u2717]/, ""), want.summary.text, "the summary");
  assert.deepEqual(shown.nodes.map((n) => n.node), want.nodes.map((n) => n.node), "one section per node");
  for (const [i, n] of want.nodes.entries()) {
    const got = shown.nodes[i];
    assert.deepEqual(got.chips, n.chips, `${n.node}: its state at the end`);
    assert.deepEqual(got.evicted, n.evicted, `${n.node}: the pods that left it and their replacements`);
    assert.deepEqual(got.arrived, n.arrived, `${n.node}: the pods placed on it`);
  }
  assert.deepEqual(shown.pending, want.pending, "the pods still Pending");
  assert.equal(shown.drain, want.drain, "kubectl drain's lines");
}

/**
 * The kinds of the wasm files `paths` (URL paths) name, read from the built site `dir`
 * served at `prefix`: "engine" or "what-if" when the bytes are the package's
 * (`pkg`/web) taintlab_bg.wasm or taintlab_whatif_bg.wasm, else the path.
 */
export function wasmKinds(paths, { dir, prefix, pkg }) {
  const sha = (file) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  const known = new Map([
    [sha(path.join(pkg, "web", "taintlab_bg.wasm")), "engine"],
    [sha(path.join(pkg, "web", "taintlab_whatif_bg.wasm")), "what-if"],
  ]);
  return paths.filter((p) => p.endsWith(".wasm")).map((p) => {
    assert.ok(p.startsWith(prefix), `${p} is under ${prefix}`);
    const file = path.join(dir, decodeURIComponent(p.slice(prefix.length)));
    return known.get(sha(file)) ?? p;
  });
}

/** The package the site was built with (TAINTLAB_PKG, set by cargo xtask docsites). */
export function packageDir() {
  const pkg = process.env.TAINTLAB_PKG;
  if (!pkg) throw new Error("TAINTLAB_PKG (the npm package the site was built with) is not set: run the site tests with cargo xtask docsites");
  return path.resolve(pkg);
}
