// <taint-check>: a live Kubernetes taints-and-tolerations example for documentation pages.
//
//   <script type="module" src=".../taintlab/element/taint-check.js"></script>
//   <taint-check>
//     <script type="application/yaml">
//       ... Nodes and Pods (any form Taintlab reads) ...
//     </script>
//   </taint-check>
//
// or, for one node and one pod:  <taint-check taints="dedicated=gpu:NoSchedule"
//   tolerations="[{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}]">
//
// Every widget on a page shares one instance of the engine, which is only loaded when the
// first widget scrolls into view. Readers can edit the example; the verdict, the
// explanation and, for NoExecute taints, the eviction timeline follow as they type.
//
// What-if mode: <taint-check what-if="drain node1 --ignore-daemonsets" until="900"> (action
// lines, one per line or per `;`) simulates the whole cluster with the what-if module
// (`taintlab/whatif`), which only widgets in this mode load, and shows per node the pods
// evicted and their replacements, the pods still Pending with their FailedScheduling
// message, and the summary.

import init, { analyze } from "../web/taintlab.js";
import { playgroundState, playgroundUrl } from "./share.js";
import { fromFence, lostIndentation, whatIfLines } from "./fence.js";
import { STRINGS, langFromTag, t as tr } from "./i18n.js";

const hasString = (key) => key in STRINGS.en;

export { fromFence, isFence, fenceWords, FENCE_OPTIONS, lostIndentation, whatIfLines } from "./fence.js";
export { langFromTag, LANGS } from "./i18n.js";

const settings = { playground: null };

/**
 * Page-wide settings: `playground`, the playground's base URL for every widget's "Open in
 * playground" link (as `<meta name="taint-check:playground" content="...">` does). Without
 * a URL (here, in the meta tag or the widget's `playground` attribute) the link is hidden.
 */
export function configure(options = {}) {
  if ("playground" in options) settings.playground = options.playground || null;
  for (const w of live) w.refresh();
}

const WASM_URL = new URL("../web/taintlab_bg.wasm", import.meta.url);

let engine = null;

/** Loads the engine once per page; every widget awaits the same promise. */
export function loadEngine() {
  engine ??= init({ module_or_path: WASM_URL });
  return engine;
}

const WHATIF_WASM_URL = new URL("../web/taintlab_whatif_bg.wasm", import.meta.url);

let whatIfModule = null;
/** The what-if module's exports once loaded. */
let whatIfExports = null;

/**
 * Loads the what-if module once per page, for widgets in what-if mode only: pages
 * without such a widget never download it.
 */
export function loadWhatIf() {
  whatIfModule ??= import("../web/taintlab_whatif.js").then(async (m) => {
    await m.default({ module_or_path: WHATIF_WASM_URL });
    whatIfExports = m;
    return m;
  });
  return whatIfModule;
}

/** Removes the indentation HTML adds around embedded YAML, and blank lines at both ends. */
export function dedent(text) {
  const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
  while (lines.length && !lines[0].trim()) lines.shift();
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  let indent = Infinity;
  for (const l of lines) if (l.trim()) indent = Math.min(indent, l.match(/^[ \t]*/)[0].length);
  if (!Number.isFinite(indent)) indent = 0;
  return lines.length ? lines.map((l) => l.slice(indent)).join("\n") + "\n" : "";
}

// --- small DOM helper: text only, never markup from the example --------------------

function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v == null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// --- page-wide services: lazy loading and the host page's colour scheme -------------

const visible =
  typeof IntersectionObserver === "function"
    ? new IntersectionObserver(
        (entries) => {
          for (const e of entries) {
            if (e.isIntersecting) {
              visible.unobserve(e.target);
              e.target.activate();
            }
          }
        },
        { rootMargin: "200px 0px" },
      )
    : null;

const live = new Set();

/** Whether the host page is dark where the widget sits: its inherited text colour is light. */
function hostIsDark(el) {
  const m = getComputedStyle(el).color.match(/[\d.]+/g);
  if (!m || m.length < 3) return matchMedia("(prefers-color-scheme: dark)").matches;
  const [r, g, b] = m.map(Number);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 140;
}

let themeWatch = null;
function watchTheme() {
  if (themeWatch) return;
  const update = () => live.forEach((w) => w.updateScheme());
  themeWatch = new MutationObserver(update);
  const opts = { attributes: true, attributeFilter: ["class", "style", "data-theme", "data-color-mode", "data-mode"] };
  themeWatch.observe(document.documentElement, opts);
  if (document.body) themeWatch.observe(document.body, opts);
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", update);
}

// --- wording (the words themselves are in i18n.js) ----------------------------------

function tolerationText(t) {
  const parts = [];
  parts.push(`key: ${t.key || "<any>"}`);
  parts.push(`operator: ${t.operator || "Equal"}`);
  if (t.operator !== "Exists" || t.value) parts.push(`value: ${JSON.stringify(t.value)}`);
  parts.push(`effect: ${t.effect || "<any>"}`);
  let s = `{${parts.join(", ")}}`;
  if (t.tolerationSeconds != null) s += ` for ${t.tolerationSeconds}s`;
  return s;
}

function seconds(lang, n) {
  if (n < 120) return tr(lang, "seconds", n);
  if (n < 7200) return tr(lang, "minutes", Math.round(n / 6) / 10, n);
  return tr(lang, "hours", Math.round(n / 360) / 10, n);
}

const STYLE = `
:host { display: block; margin: 1.25em 0; }
:host([hidden]) { display: none; }
.tc {
  --_fg: var(--taint-check-fg, currentColor);
  --_bg: var(--taint-check-bg, transparent);
  --_border: var(--taint-check-border, color-mix(in srgb, currentColor 22%, transparent));
  --_muted: var(--taint-check-muted, color-mix(in srgb, currentColor 68%, transparent));
  --_surface: var(--taint-check-surface, color-mix(in srgb, currentColor 5%, transparent));
  --_ok: var(--taint-check-ok, #1a7f37);
  --_bad: var(--taint-check-bad, #cf222e);
  --_warn: var(--taint-check-warn, #9a6700);
  --_accent: var(--taint-check-accent, #0969da);
  --_radius: var(--taint-check-radius, 8px);
  --_mono: var(--taint-check-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace);
  color-scheme: light;
  container-type: inline-size;
  font: inherit; color: var(--_fg); background: var(--_bg);
  border: 1px solid var(--_border); border-radius: var(--_radius);
  overflow: hidden;
}
.tc.dark {
  --_ok: var(--taint-check-ok-dark, var(--taint-check-ok, #3fb950));
  --_bad: var(--taint-check-bad-dark, var(--taint-check-bad, #f85149));
  --_warn: var(--taint-check-warn-dark, var(--taint-check-warn, #d29922));
  --_accent: var(--taint-check-accent-dark, var(--taint-check-accent, #58a6ff));
  color-scheme: dark;
}
header, footer { display: flex; gap: .75em; align-items: center; justify-content: space-between;
  padding: .45em .9em; background: var(--_surface); font-size: .85em; }
header { border-bottom: 1px solid var(--_border); }
footer { border-top: 1px solid var(--_border); }
.heading { font-weight: 600; }
.badge { color: var(--_muted); white-space: nowrap; }
.body { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.15fr); }
@container (max-width: 46rem) { .body { grid-template-columns: minmax(0, 1fr); } .editor { border-right: 0; border-bottom: 1px solid var(--_border); } }
.editor { padding: .75em .9em; border-right: 1px solid var(--_border); display: flex; flex-direction: column; gap: .6em; min-width: 0; }
.editor label { font-size: .8em; color: var(--_muted); display: flex; flex-direction: column; gap: .25em; }
textarea, pre.source { font-family: var(--_mono); font-size: .82em; line-height: 1.45; margin: 0;
  width: 100%; box-sizing: border-box; padding: .55em .65em; tab-size: 2; white-space: pre; overflow: auto;
  color: inherit; background: var(--_surface); border: 1px solid var(--_border); border-radius: 6px; resize: vertical; }
textarea:focus-visible { outline: 2px solid var(--_accent); outline-offset: 1px; }
textarea[aria-invalid="true"] { border-color: var(--_bad); }
.result { padding: .75em .9em; min-width: 0; font-size: .92em; }
.result[aria-busy="true"] { opacity: .6; }
.status { color: var(--_muted); font-style: italic; }
.pod + .pod { margin-top: 1em; padding-top: .9em; border-top: 1px dashed var(--_border); }
.verdict { font-weight: 600; display: flex; gap: .45em; align-items: baseline; }
.icon { flex: none; font-weight: 700; width: 1.1em; text-align: center; }
.ok { color: var(--_ok); } .bad { color: var(--_bad); } .warn { color: var(--_warn); } .muted { color: var(--_muted); }
.event { font-family: var(--_mono); font-size: .8em; background: var(--_surface); border-left: 3px solid var(--_bad);
  padding: .45em .6em; margin: .45em 0 .2em; white-space: pre-wrap; overflow-wrap: anywhere; border-radius: 0 4px 4px 0; }
details { margin: .5em 0 0; }
summary { cursor: pointer; display: flex; gap: .45em; align-items: baseline; list-style: none; }
summary::-webkit-details-marker { display: none; }
summary::before { content: "\\25B8"; color: var(--_muted); font-size: .8em; transition: transform .15s; }
details[open] > summary::before { transform: rotate(90deg); }
.node-name { font-family: var(--_mono); font-weight: 600; white-space: nowrap; flex: none; }
.sentence { color: var(--_muted); }
ul { margin: .35em 0 0 1.3em; padding: 0; }
li { margin: .25em 0; }
code { font-family: var(--_mono); font-size: .88em; background: var(--_surface); padding: .05em .3em; border-radius: 4px; overflow-wrap: anywhere; }
.chip { font-size: .72em; border: 1px solid var(--_border); border-radius: 999px; padding: 0 .5em; color: var(--_muted); white-space: nowrap; }
.misses { font-size: .85em; color: var(--_muted); }
.timeline { margin: .4em 0 .2em; font-size: .82em; }
.track { display: flex; align-items: center; gap: .5em; }
.bar { position: relative; flex: 1; height: 6px; border-radius: 3px; background: var(--_surface); border: 1px solid var(--_border); }
.bar > span { position: absolute; inset: -1px auto -1px -1px; border-radius: 3px; }
.bar.evicted > span { background: var(--_bad); }
.bar.stays > span { background: var(--_ok); width: calc(100% + 2px); }
.ends { display: flex; justify-content: space-between; color: var(--_muted); margin-top: .15em; }
.tolerations { font-size: .88em; }
.error { color: var(--_bad); font-family: var(--_mono); font-size: .85em; white-space: pre-wrap; overflow-wrap: anywhere; }
.notes { margin-top: .8em; font-size: .82em; color: var(--_muted); }
.blocks { margin-top: .6em; font-size: .82em; color: var(--_muted); }
.blocks ul { margin: .3em 0 0; padding-left: 1.2em; }
a { color: var(--_accent); }
.timing { color: var(--_muted); }
.playground[hidden] { display: none; }
.wi-node + .wi-node { margin-top: .6em; }
.wi-node .chip { margin-left: .4em; }
.drain { font-family: var(--_mono); font-size: .8em; white-space: pre-wrap; margin: .3em 0 0; }
`;

// --- the element ---------------------------------------------------------------------

export /** Diagnostics of `analyze` that kept something (a refused command, validation, admission); the rest lost text. */
const KEPT = new Set(["kubectl", "kubectl-command", "validation", "admission", "configuration"]);

/** An error that lost part of the text (a field the API server only rejects at validation keeps its object). */
function unreadable(d) {
  if (d.severity !== "error" || KEPT.has(d.code)) return false;
  return !((d.code === "invalid-value" || d.code === "missing-field") && d.location.path);
}

class TaintCheck extends HTMLElement {
  static get observedAttributes() {
    return ["taints", "tolerations", "version", "comparison-operators", "admission", "node-name", "pod-name", "playground", "heading", "lang", "what-if", "until"];
  }

  #shadow = null;
  #els = {};
  #live = false;
  #timer = 0;
  #seq = 0;
  #rendered = false;
  #longest = 0;
  #fence = null;
  #lang = "en";

  connectedCallback() {
    if (!this.#shadow) {
      this.#shadow = this.attachShadow({ mode: "open" });
      this.#build();
    }
    if (this.#live) return;
    if (visible && this.#attr("loading") !== "eager") visible.observe(this);
    else this.activate();
  }

  disconnectedCallback() {
    visible?.unobserve(this);
    live.delete(this);
  }

  attributeChangedCallback(name, oldValue, value) {
    if (!this.#shadow || oldValue === value) return;
    if (name === "taints" || name === "tolerations") {
      const field = this.#els[name];
      if (field) field.value = value ?? "";
    }
    if (name === "what-if" && this.#els.actions) this.#els.actions.value = whatIfLines(value);
    if (name === "heading") this.#els.heading.textContent = value || this.#t("heading");
    if (name === "lang" || name === "playground") {
      this.refresh();
      return;
    }
    if (this.#live) this.#update();
  }

  /** The source text(s): a YAML script child, a <pre> child (a code fence), or the attributes. */
  #source() {
    const script = this.querySelector(':scope > script[type="application/yaml"], :scope > script[type="text/yaml"]');
    if (script) return { yaml: dedent(script.textContent) };
    const pre = this.querySelector(":scope > pre");
    if (pre) {
      // A site generator's code block: <pre><code>; other children (copy buttons) are not text.
      const text = (pre.querySelector(":scope > code") ?? pre).textContent;
      const fence = this.getAttribute("fence");
      const read = fromFence(text, fence ?? "");
      if (read.widget) {
        this.#fence = read;
        return { yaml: read.yaml };
      }
      return { yaml: dedent(text) };
    }
    return { taints: this.getAttribute("taints") ?? "", tolerations: this.getAttribute("tolerations") ?? "" };
  }

  /** A string of the widget's language. */
  #t(key, ...args) {
    return tr(this.#lang, key, ...args);
  }

  /** The language of the page where the widget sits: its `lang`, an ancestor's, the document's. */
  #pageLang() {
    const own = this.#attr("lang");
    if (own) return langFromTag(own);
    const at = this.closest("[lang]")?.getAttribute("lang") || document.documentElement.lang || "";
    return langFromTag(at);
  }

  /**
   * Whether the widget is in what-if mode: it had a `what-if` attribute or fence option
   * (even empty) when it was built, and so has an Actions box.
   */
  #whatIf() {
    return Boolean(this.#els.actions);
  }

  /** An attribute, or the option of the code fence it came from. */
  #attr(name) {
    return this.getAttribute(name) ?? this.#fence?.attributes[name] ?? null;
  }

  #build() {
    const src = this.#source();
    this.#lang = this.#pageLang();
    const rows = (t) => Math.min(28, Math.max(3, t.split("\n").length + 1));
    const editor = h("div", { class: "editor" });
    if ("yaml" in src) {
      this.#els.yaml = h("textarea", {
        class: "yaml", spellcheck: "false", autocapitalize: "off", autocomplete: "off",
        rows: rows(src.yaml), "aria-label": this.#t("editable"),
      });
      this.#els.yaml.value = src.yaml;
      editor.append(this.#els.yaml);
    } else {
      for (const [name, label] of [["taints", this.#t("nodeTaints")], ["tolerations", this.#t("podTolerations")]]) {
        const field = h("textarea", { class: name, spellcheck: "false", autocapitalize: "off", autocomplete: "off", rows: rows(src[name]) });
        field.value = src[name];
        this.#els[name] = field;
        editor.append(h("label", null, label, field));
      }
    }
    if (this.#attr("what-if") !== null) {
      const lines = whatIfLines(this.#attr("what-if"));
      this.#els.actions = h("textarea", { class: "actions", spellcheck: "false", autocapitalize: "off", autocomplete: "off", rows: rows(lines) });
      this.#els.actions.value = lines;
      editor.append(h("label", null, this.#t("whatIfActions"), this.#els.actions));
    }
    editor.addEventListener("input", () => {
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.#update(), 120);
    });
    this.#els.result = h("div", { class: "result", "aria-live": "polite" }, h("p", { class: "status", text: this.#t("loading") }));
    this.#els.heading = h("span", { class: "heading", text: this.#attr("heading") || this.#t("heading") });
    this.#els.badge = h("span", { class: "badge", text: this.#t("liveExample") });
    const base = this.#playgroundBase();
    this.#els.link = h("a", { class: "playground", target: "_blank", rel: "noopener", href: base ?? "#", hidden: !base }, this.#t("openPlayground"));
    this.#els.timing = h("span", { class: "timing" });
    this.#els.box = h(
      "div",
      { class: "tc", part: "container" },
      h("header", { part: "header" }, this.#els.heading, this.#els.badge),
      h("div", { class: "body" }, editor, this.#els.result),
      h("footer", { part: "footer" }, this.#els.link, this.#els.timing),
    );
    this.#shadow.append(h("style", { text: STYLE }), this.#els.box);
    this.updateScheme();
  }

  /** Follows the host page's light or dark look. */
  updateScheme() {
    this.#els.box?.classList.toggle("dark", hostIsDark(this));
  }

  /** The playground's URL: the attribute (or fence option), configure(), the meta tag; null hides the link. */
  #playgroundBase() {
    return (
      this.#attr("playground") ||
      settings.playground ||
      document.querySelector('meta[name="taint-check:playground"]')?.content ||
      null
    );
  }

  /** Re-reads the language and the playground URL and renders again. */
  refresh() {
    if (!this.#shadow) return;
    this.#lang = this.#pageLang();
    this.#els.heading.textContent = this.#attr("heading") || this.#t("heading");
    this.#els.link.textContent = this.#t("openPlayground");
    const base = this.#playgroundBase();
    this.#els.link.hidden = !base;
    if (!base) this.#els.link.href = "#";
    if (this.#live) this.#update();
    else this.#els.badge.textContent = this.#t("liveExample");
  }

  /** Loads the engine (shared) and renders the live example. Called when the widget is near the viewport. */
  async activate() {
    if (this.#live) return;
    try {
      await Promise.all([loadEngine(), this.#whatIf() ? loadWhatIf() : null]);
    } catch (e) {
      this.#els.result.replaceChildren(h("p", { class: "error", text: this.#t("engineFailed", e?.message ?? e) }));
      return;
    }
    this.#live = true;
    live.add(this);
    watchTheme();
    this.updateScheme();
    this.#update();
  }

  #options() {
    const o = {};
    const v = this.#attr("version");
    if (v) o.kubernetesVersion = v;
    if (this.#attr("comparison-operators") !== null) o.comparisonOperators = true;
    const adm = this.#attr("admission");
    if (adm === "off" || adm === "false") o.admission = false;
    return o;
  }

  #input() {
    if (this.#els.yaml) return this.#els.yaml.value;
    return {
      nodes: [{ name: this.#attr("node-name") || "node", taints: this.#els.taints.value }],
      pods: [{ name: this.#attr("pod-name") || "pod", tolerations: this.#els.tolerations.value }],
    };
  }

  #update() {
    if (!this.#live) return;
    const seq = ++this.#seq;
    const started = performance.now();
    const options = this.#options();
    let analysis;
    for (const f of [this.#els.yaml, this.#els.taints, this.#els.tolerations]) f?.removeAttribute("aria-invalid");
    if (this.#fence?.errors.length) {
      this.#renderProblem(this.#t("fenceWrong"), this.#fence.errors.join("\n"), "fence");
      return;
    }
    const lost = this.#els.yaml ? lostIndentation(this.#els.yaml.value) : null;
    if (lost) {
      this.#renderProblem(this.#t("mangled"), this.#t("mangledDetail", `${lost.key}:`, lost.line, `${lost.next}:`, lost.nextLine), "indentation");
      return;
    }
    try {
      analysis = analyze(this.#input(), options);
    } catch (e) {
      this.#renderError(e);
      return;
    }
    // Text that could not be read shows where it is; what was read but refused
    // (a kubectl line, an invalid toleration, an admission rejection) is listed with
    // the verdicts, as the playground does.
    const unread = analysis.diagnostics.find(unreadable);
    if (unread) {
      this.#renderError(unread);
      return;
    }
    let whatIf = null;
    let actions = null;
    if (this.#whatIf()) {
      this.#els.actions.removeAttribute("aria-invalid");
      actions = whatIfLines(this.#els.actions.value);
      const until = this.#attr("until");
      if (actions) {
        try {
          whatIf = whatIfExports.whatIf(this.#input(), actions, until ? { ...options, until: Number(until) } : options);
        } catch (e) {
          if (e?.argument !== "actions") {
            this.#renderError(e);
            return;
          }
          this.#els.actions.setAttribute("aria-invalid", "true");
          this.#renderProblem(this.#t("actionsWrong"), e.message, "actions");
          this.#els.yaml?.removeAttribute("aria-invalid");
          return;
        }
      }
    }
    this.removeAttribute("data-problem");
    if (actions === null) this.#render(analysis);
    else this.#renderWhatIf(analysis, whatIf);
    const ms = performance.now() - started;
    this.#els.timing.textContent = `${ms < 1 ? "<1" : Math.round(ms)} ms`;
    const first = !this.#rendered;
    this.#rendered = true;
    this.setAttribute("data-state", "live");
    if (first && !performance.getEntriesByName("taint-check:first-render").length) {
      performance.mark("taint-check:first-render");
    }
    this.dispatchEvent(
      new CustomEvent("taint-check-render", { bubbles: true, composed: true, detail: { analysis, whatIf, first, at: performance.now() } }),
    );
    // Text examples come back split into the playground's two panes; attribute examples
    // already are: the Nodes pane reads bare taints, the Pods pane bare tolerations.
    const panes = analysis.panes ?? { nodes: this.#els.taints.value, pods: this.#els.tolerations.value };
    const state = playgroundState({
      nodes: panes.nodes,
      pods: panes.pods,
      version: analysis.kubernetesVersion,
      comparisonOperators: analysis.comparisonOperators,
      admission: analysis.admission,
      actions,
      until: whatIf?.timeline.until,
    });
    const base = this.#playgroundBase();
    this.#els.link.hidden = !base;
    if (base) {
      playgroundUrl(base, state).then((href) => {
        if (seq === this.#seq) this.#els.link.href = href;
      });
    }
  }

  #renderError(e) {
    const loc = e?.location;
    const where = [];
    if (loc?.line) where.push(this.#t("lineColumn", loc.line, loc.column));
    if (loc?.path) where.push(loc.path);
    const field = this.#els.yaml ?? (String(e?.argument ?? "").includes("taints") ? this.#els.taints : this.#els.tolerations);
    field?.setAttribute("aria-invalid", "true");
    this.#renderProblem(this.#t("cannotRead"), (where.length ? `${where.join(": ")}\n` : "") + (e?.message ?? String(e)), "input");
  }

  /** A problem shown instead of a verdict: a title, the details, `data-problem` for styling and tests. */
  #renderProblem(title, detail, kind) {
    this.#els.yaml?.setAttribute("aria-invalid", "true");
    this.#els.result.replaceChildren(
      h("p", { class: "verdict bad" }, h("span", { class: "icon", text: "!" }), title),
      h("p", { class: "error", text: detail }),
    );
    this.setAttribute("data-state", "error");
    this.setAttribute("data-problem", kind);
  }

  #render(a) {
    const version = a.kubernetesVersion.replace(/\.0$/, "");
    this.#els.badge.textContent = this.#t("kubernetes", version) + (a.comparisonOperators ? this.#t("ltGtGate") : "");
    const out = [];
    if (!a.pods.length || !a.nodes.length) {
      out.push(h("p", { class: "status", text: this.#t(!a.nodes.length ? "addNode" : "addPod") }));
    }
    if (a.nodes.length) {
      // Timelines share one scale, so that 300 s and 6000 s look different.
      let longest = 0;
      for (const pod of a.pods) {
        for (const pair of pod.nodes) for (const p of pair.eviction?.pods ?? []) longest = Math.max(longest, p.evictedAt ?? 0);
      }
      this.#longest = longest;
      for (const pod of a.pods) out.push(this.#pod(pod, a));
    }
    // What each block of the example was read as (the scenario's blocks view).
    if (a.blocks?.length) {
      out.push(
        h("details", { class: "blocks" },
          h("summary", null, h("span", { text: this.#t("readBlocks", a.blocks.map((b) => b.formLabel).join(", ")) })),
          h("ul", null, a.blocks.map((b) => h("li", { "data-form": b.form, text: b.summary })))),
      );
    }
    const warnings = a.diagnostics.filter((d) => d.code !== "admission");
    if (warnings.length) {
      out.push(
        h("div", { class: "notes" },
          h("ul", null, warnings.map((d) => h("li", null, d.location.line ? this.#t("lineN", d.location.line) : "", d.message)))),
      );
    }
    this.#els.result.replaceChildren(...out);
  }

  /** A pod's name as the widget writes it (the namespace unless it is `default`). */
  #podLabel(p) {
    return p.namespace && p.namespace !== "default" ? `${p.namespace}/${p.name}` : p.name;
  }

  /**
   * The what-if result, compact: the summary, then per node the pods evicted (with what
   * replaced them and where) and the pods placed there, the pods still Pending with their
   * FailedScheduling message, kubectl drain's lines and the notes on the starting cluster.
   */
  #renderWhatIf(a, r) {
    const version = a.kubernetesVersion.replace(/\.0$/, "");
    this.#els.badge.textContent = `${this.#t("kubernetes", version)} \u00b7 ${this.#t("whatIf")}`;
    if (!r) {
      this.#els.result.replaceChildren(h("p", { class: "status", text: this.#t("noActions") }));
      return;
    }
    const tl = r.timeline;
    const s = tl.summary;
    const label = (i) => this.#podLabel(tl.pods[i]);
    const running = (i) => tl.spans.find((x) => x.pod === i && x.state === "running" && x.node !== null);
    // Placed during the run: a replacement, a pod created later, or one that waited.
    const arrived = (i) => {
      const x = running(i);
      const p = tl.pods[i];
      return x && (p.replaces !== null || p.created > 0 || x.from > 0 || tl.spans.some((y) => y.pod === i && y.state === "pending")) ? x : null;
    };
    const bad = s.stillPending.length > 0 || s.drainsUnfinished;
    const out = [
      h("p", { class: `verdict ${bad ? "bad" : "ok"}`, "data-evicted": s.evicted, "data-rescheduled": s.rescheduled, "data-pending": s.stillPending.length },
        h("span", { class: "icon", text: bad ? "\u2717" : "\u2713" }),
        this.#t("whatIfSummary", s.evicted, s.rescheduled, s.stillPending.length) + (s.drainsUnfinished ? ` ${this.#t("drainUnfinished")}` : "")),
    ];
    tl.nodes.forEach((name, n) => {
      const last = tl.nodeChanges.filter((c) => c.node === n).pop();
      const chips = [];
      if (last && !last.exists) chips.push("wiNodeDeleted");
      else if (last && !last.ready) chips.push("wiNodeNotReady");
      if (last?.exists && last.unschedulable) chips.push("wiNodeCordoned");
      const items = [];
      for (const x of tl.spans) {
        if (x.node !== n || x.state !== "terminating") continue;
        const next = tl.pods.findIndex((p) => p.replaces === x.pod);
        const landed = next < 0 ? null : running(next);
        const li = h("li", { class: "bad", "data-pod": tl.pods[x.pod].name, "data-cause": x.cause },
          this.#t("wiEvicted", label(x.pod), this.#t(`cause.${x.cause}`), x.from));
        li.append(h("div", { class: "misses", "data-replacement": next < 0 ? null : tl.pods[next].name, text: next < 0 ? this.#t("wiNotReplaced")
          : landed ? this.#t("wiReplacedOn", label(next), tl.nodes[landed.node], landed.from) : this.#t("wiReplacedPending", label(next)) }));
        items.push(li);
      }
      tl.pods.forEach((p, i) => {
        const x = arrived(i);
        if (x?.node === n) {
          items.push(h("li", { class: "ok", "data-pod": p.name, "data-arrived": x.from },
            this.#t("wiArrived", label(i), x.from) + (p.replaces === null ? "" : this.#t("wiReplaces", label(p.replaces)))));
        }
      });
      if (!items.length) items.push(h("li", { class: "muted", text: this.#t("wiQuiet") }));
      out.push(h("section", { class: "wi-node", "data-node": name },
        h("span", { class: "node-name", text: name }), chips.map((c) => h("span", { class: "chip", text: this.#t(c) })),
        h("ul", null, items)));
    });
    for (const p of s.stillPending) {
      out.push(h("section", { class: "pod", "data-pod": tl.pods[p.pod].name, "data-verdict": "pending" },
        h("p", { class: "verdict bad" }, h("span", { class: "icon", text: "\u2717" }), this.#t("wiStillPending", label(p.pod))),
        h("div", { class: "event", title: this.#t("eventTitle"), text: `Warning  FailedScheduling  ${p.message}` })));
    }
    const drain = tl.events.filter((e) => e.source !== "Event");
    if (drain.length) {
      out.push(h("details", { class: "blocks" }, h("summary", null, h("span", { text: this.#t("drainOutput") })),
        h("pre", { class: "drain", text: drain.map((e) => `${e.at} s  ${e.message}`).join("\n") })));
    }
    if (r.notes.length) out.push(h("div", { class: "notes" }, h("ul", null, r.notes.map((n) => h("li", null, n.line ? this.#t("lineN", n.line) : "", n.message)))));
    this.#els.result.replaceChildren(...out);
    this.#els.timing.dataset.until = tl.until;
    this.#els.timing.title = this.#t("simulated", tl.until);
  }

  #pod(pod, a) {
    const name = pod.namespace && pod.namespace !== "default" ? `${pod.namespace}/${pod.name}` : pod.name;
    const box = h("section", { class: "pod", "data-pod": pod.name });
    if (!pod.admitted) {
      box.dataset.verdict = "rejected";
      box.append(
        h("p", { class: "verdict bad" }, h("span", { class: "icon", text: "\u2717" }), this.#t("rejected", name)),
        h("div", { class: "event", text: pod.rejection }),
      );
      return box;
    }
    const s = pod.schedule;
    let line;
    if (s.outcome) box.dataset.outcome = s.outcome;
    if (s.bypassesScheduler) {
      box.dataset.verdict = "bypassed";
      line = h("p", { class: "verdict warn" }, h("span", { class: "icon", text: "\u2192" }), this.#t("bypassed", name));
    } else if (s.outcome === "gated" || s.outcome === "other-scheduler") {
      box.dataset.verdict = "held";
      line = h("p", { class: "verdict warn" }, h("span", { class: "icon", text: "\u2016" }),
        this.#t(s.outcome === "gated" ? "gated" : "otherScheduler", name));
    } else if (s.scheduled) {
      box.dataset.verdict = "scheduled";
      line = h("p", { class: "verdict ok" }, h("span", { class: "icon", text: "\u2713" }),
        this.#t("scheduled", name), this.#t(a.nodes.length > 1 ? "best" : "on", s.bestNodes.join(", ")));
    } else {
      box.dataset.verdict = "pending";
      line = h("p", { class: "verdict bad" }, h("span", { class: "icon", text: "\u2717" }), this.#t("pending", name));
    }
    box.append(line);
    if (s.message) box.append(h("div", { class: "event", title: this.#t("eventTitle"), text: `Warning  FailedScheduling  ${s.message}` }));
    if (s.nomination) {
      const victims = s.nomination.victims.map((v) => (v.namespace && v.namespace !== "default" ? `${v.namespace}/${v.name}` : v.name));
      box.append(h("p", { class: "status", "data-nominated": s.nomination.node, text: this.#t("nominated", s.nomination.node, victims.join(", ") || this.#t("nothing")) }));
    }

    const open = a.nodes.length <= 2;
    for (const pair of pod.nodes) box.append(this.#pair(pair, pod, a, open));

    const tols = pod.tolerations;
    box.append(
      h("details", { class: "tolerations" },
        h("summary", null, h("span", { text: this.#t("tolerations", tols.length) }),
          tols.some((t) => t.origin !== "pod") ? h("span", { class: "chip", text: this.#t("someAdded") }) : null),
        tols.length
          ? h("ul", null, tols.map((t, i) =>
              h("li", null, h("code", { text: `#${i + 1} ${tolerationText(t.toleration)}` }), " ",
                t.origin !== "pod" && hasString(`origin.${t.origin}`) ? h("span", { class: "chip", text: this.#t(`origin.${t.origin}`) }) : null)))
          : h("p", { class: "muted", text: this.#t("none") })),
    );
    return box;
  }

  #pair(pair, pod, a, open) {
    const x = pair.explanation;
    const node = a.nodes[pair.node];
    const cell = pod.schedule.nodes[pair.node];
    const rejectedBy = cell?.rejectedBy ?? null;
    const icon = x.verdict === "bypassed" ? ["\u2192", "warn"] : !x.fits ? ["\u2717", "bad"] : x.verdict === "penalized" ? ["\u2713", "warn"] : ["\u2713", "ok"];
    const d = h("details", { class: "pair", "data-node": node.name, "data-verdict": x.verdict, "data-fits": String(x.fits), "data-rejected-by": rejectedBy, open });
    d.append(h("summary", null, h("span", { class: `icon ${icon[1]}`, text: icon[0] }), h("span", { class: "node-name", text: node.name }), h("span", { class: "sentence", text: x.summary })));
    const items = [];
    if (x.cordon.nodeUnschedulable) {
      items.push(h("li", null, h("code", { text: "spec.unschedulable: true" }), " ",
        x.cordon.toleratedBy ? h("span", { class: "ok", text: this.#t("toleratedBy", x.cordon.toleratedBy.toleration + 1) }) : h("span", { class: "bad", text: this.#t("cordoned") })));
    }
    if (!node.taints.length && !node.unschedulable) items.push(h("li", { class: "muted", text: this.#t("noTaints") }));
    for (const t of x.taints) items.push(this.#taint(t, x));
    if (rejectedBy) items.push(this.#rejection(cell, x.placement));
    else if (cell?.hold && cell.hold !== "bound") items.push(h("li", { class: "warn", "data-hold": cell.hold, text: this.#t(`hold.${cell.hold}`) }));
    d.append(h("ul", null, items));
    if (pair.eviction) d.append(this.#timeline(pair.eviction, pod));
    return d;
  }

  /** The plugin of the full filter chain that rejected the node, its reasons, the
   * resources that fall short and every filter in order. */
  #rejection(cell, placement) {
    const li = h("li", { class: "rejection", "data-plugin": cell.rejectedBy },
      h("span", { class: "bad", text: this.#t("rejectedBy", cell.rejectedBy) }),
      cell.reasons.length ? h("span", { class: "muted", text: `: ${cell.reasons.join("; ")}` }) : null);
    for (const r of cell.insufficient) {
      li.append(h("div", { class: "misses", "data-resource": r.resource,
        text: this.#t("shortBy", r.resource, r.requested, r.used, r.capacity, r.shortfall) }));
    }
    for (const l of placement?.nodeSelector ?? []) {
      if (!l.matches) li.append(h("div", { class: "misses", text: l.nodeValue == null ? this.#t("selectorMissing", l.key, l.wanted) : this.#t("selectorOther", l.key, l.wanted, l.nodeValue) }));
    }
    if (placement) {
      const mark = { passed: "\u2713", failed: "\u2717", "not-evaluated": "\u2013", "not-checked": "?" };
      li.append(h("div", { class: "misses filters", title: `${this.#t("filtersTitle")} (${this.#t("filtersNote")})`,
        text: placement.filters.map((f) => `${f.plugin} ${mark[f.state] ?? ""}`).join(" \u00b7 ") }));
    }
    return li;
  }

  #taint(t, x) {
    const li = h("li", { "data-taint": t.text, "data-tolerated": String(t.tolerated) }, h("code", { text: t.text }), " ");
    if (t.toleratedBy) {
      li.append(h("span", { class: "ok", text: this.#t("toleratedBy", t.toleratedBy.toleration + 1) }), h("span", { class: "muted", text: ` (${this.#t(`via.${t.toleratedBy.via}`)})` }));
      if (t.noExecute?.kind === "tolerated-for") li.append(h("span", { class: "muted", text: this.#t("forSeconds", seconds(this.#lang, t.noExecute.seconds)) }));
    } else if (t.role === "score") {
      li.append(h("span", { class: "warn", text: this.#t("scoresLower") }));
    } else if (t.role === "none") {
      li.append(h("span", { class: "warn", text: this.#t("invalidEffect") }));
    } else {
      li.append(h("span", { class: "bad", text: this.#t(t.role === "filter-and-eviction" ? "blocksAndEvicts" : "blocks") }));
    }
    if (!t.tolerated && x.tolerations.length) {
      const misses = t.outcomes
        .map((o, i) => (o !== "key-mismatch" ? `#${i + 1}: ${this.#t(`miss.${o}`)}` : null))
        .filter(Boolean);
      if (misses.length) li.append(h("div", { class: "misses", text: misses.join("; ") }));
    }
    return li;
  }

  #timeline(ev, pod) {
    const me = ev.pods.find((p) => p.name === pod.name && p.namespace === (pod.namespace || "default")) ?? ev.pods[0];
    const at = me?.evictedAt;
    const box = h("div", { class: "timeline", "data-evicted-at": at ?? "never" });
    const label = at == null ? this.#t("stays") : at === 0 ? `NoExecute: ${this.#t("evictedAtOnce")}` : this.#t("evictedAfter", seconds(this.#lang, at));
    const width = at == null ? 100 : Math.max(2, this.#longest ? (100 * at) / this.#longest : 2);
    const bar = h("div", { class: `bar ${at == null ? "stays" : "evicted"}` }, h("span", { style: at == null ? null : `width: ${width.toFixed(1)}%` }));
    box.append(
      h("div", { class: at == null ? "ok" : "bad", text: label }),
      h("div", { class: "track" }, bar),
      h("div", { class: "ends" }, h("span", { text: this.#t("taintAppears") }), h("span", { text: at == null ? "\u221E" : `${at} s: Marking for deletion` })),
    );
    return box;
  }
}

if (!customElements.get("taint-check")) customElements.define("taint-check", TaintCheck);
