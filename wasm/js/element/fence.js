// The code-fence authoring format of <taint-check>, defined once here: the element reads
// it, and the documentation-site integrations (mdBook preprocessor, Hugo render hook,
// Docusaurus remark plugin) only recognise a fence and pass its info string through.
//
//   ```yaml taint-check version=1.33 heading="Dedicated nodes"
//   kubectl taint nodes node1 dedicated=groupName:NoSchedule
//   ---
//   apiVersion: v1
//   ...
//   ```
//
// or, where a generator keeps only the fence's language (a plain ```yaml fence), a first
// comment line:   # taint-check: version=1.33 heading="Dedicated nodes"
//
// A fence is a widget when a word of its info string is `taint-check`, or when its first
// line is such a comment (see TAINT_CHECK_WORD and DIRECTIVE). Options are words
// `key=value`, `key="value with spaces"`, `key='...'` or a bare `key` (a switch); words
// are separated by spaces or commas (mdBook writes `yaml,taint-check`), and one pair of
// braces around them (`{version=1.33}`, Hugo's and Docusaurus' attribute style) is
// allowed. The first word, when it is neither `taint-check` nor an option, is the
// fence's language and is ignored. An unknown option or a bad value is an error the
// widget shows instead of a verdict: a misspelt `verison=1.30` must never silently show
// the newest release's answer.
//
// No DOM here: this module runs in Node too (site generators use it at build time).

/** The word that marks a fence as a widget. */
export const TAINT_CHECK_WORD = "taint-check";

/** A first line that marks a plain YAML fence as a widget, with its options after it. */
export const DIRECTIVE = /^[ \t]*#[ \t]*taint-check(?::|(?=[ \t]|$))(.*)$/;

/**
 * The options a fence may set: the element attribute each one becomes (aliases map to the
 * attribute) and how its value is checked.
 */
export const FENCE_OPTIONS = {
  version: { attribute: "version", check: /^1\.\d{1,2}(\.\d{1,3})?$/, expect: "a Kubernetes release such as 1.33" },
  "comparison-operators": { attribute: "comparison-operators", switch: true },
  admission: { attribute: "admission", check: /^(on|off|true|false)$/, expect: "on or off" },
  "node-name": { attribute: "node-name", check: /^\S+$/, expect: "a node name" },
  node: { attribute: "node-name", check: /^\S+$/, expect: "a node name" },
  "pod-name": { attribute: "pod-name", check: /^\S+$/, expect: "a pod name" },
  pod: { attribute: "pod-name", check: /^\S+$/, expect: "a pod name" },
  heading: { attribute: "heading", check: /\S/, expect: "a title" },
  title: { attribute: "heading", check: /\S/, expect: "a title" },
  playground: { attribute: "playground", check: /^\S+$/, expect: "the playground's URL" },
  loading: { attribute: "loading", check: /^(eager|lazy)$/, expect: "eager or lazy" },
  lang: { attribute: "lang", check: /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/, expect: "a language tag such as zh-CN" },
  // What-if mode: action lines in the form every edge shares (`at 60 taint n1
  // k=v:NoExecute`, `drain n2 --ignore-daemonsets`, `fail n3`...), separated by `;` in a
  // fence; a bare `what-if` starts with none. The lines themselves are read by the
  // what-if module, which names the line that is wrong.
  "what-if": { attribute: "what-if", check: /\S/, expect: "action lines such as `drain node1 --ignore-daemonsets`", bare: "" },
  actions: { attribute: "what-if", check: /\S/, expect: "action lines such as `drain node1 --ignore-daemonsets`", bare: "" },
  until: { attribute: "until", check: /^\d{1,6}$/, expect: "the last simulated second, a whole number such as 900" },
};

/**
 * The action lines of a `what-if` attribute or fence option: one action per line or per
 * `;` (a fence's info string is one line), blank ones dropped, joined with newlines as
 * the playground's Actions box and share links hold them. No action line contains `;`:
 * node names, taint keys and values cannot.
 */
export function whatIfLines(value) {
  return String(value ?? "")
    .split(/[;\r\n]+/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join("\n");
}

/** Splits an info string (or a directive's rest) into words; quotes keep spaces and commas. */
export function fenceWords(info) {
  let s = String(info ?? "").trim();
  if (s.startsWith("{") && s.endsWith("}")) s = s.slice(1, -1);
  const words = [];
  let cur = "";
  let quote = null;
  let has = false;
  for (const ch of s) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (/[\s,{}]/.test(ch)) {
      if (has || cur) words.push(cur);
      cur = "";
      has = false;
    } else {
      cur += ch;
      has = true;
    }
  }
  if (has || cur) words.push(cur);
  return words;
}

/** Whether a fenced code block (its info string and text) is a <taint-check> widget. */
export function isFence(info, text = "") {
  if (fenceWords(info).includes(TAINT_CHECK_WORD)) return true;
  const first = String(text).replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0];
  return DIRECTIVE.test(first);
}

/**
 * Reads a fenced code block written for <taint-check>.
 *
 * Returns `{widget, yaml, attributes, errors}`: whether the fence is a widget, the example
 * (the text without a directive line, line endings normalised), the element attributes
 * its options set (`""` for a switch), and the messages of options that are not
 * understood (a widget shows them instead of a verdict).
 */
export function fromFence(text, info = "") {
  const lines = String(text ?? "").replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").split("\n");
  const words = fenceWords(info);
  const marked = words.includes(TAINT_CHECK_WORD);
  const directive = lines.length ? DIRECTIVE.exec(lines[0]) : null;
  const attributes = {};
  const errors = [];
  if (!marked && !directive) return { widget: false, yaml: lines.join("\n"), attributes, errors };
  const options = words.slice();
  // The language word: first, neither the marker nor an option.
  if (options.length && options[0] !== TAINT_CHECK_WORD && !options[0].includes("=") && !(options[0] in FENCE_OPTIONS)) {
    options.shift();
  }
  if (directive) {
    lines.shift();
    options.push(...fenceWords(directive[1]));
  }
  for (const word of options) {
    if (word === TAINT_CHECK_WORD) continue;
    const eq = word.indexOf("=");
    const key = (eq < 0 ? word : word.slice(0, eq)).toLowerCase();
    const value = eq < 0 ? null : word.slice(eq + 1);
    const spec = FENCE_OPTIONS[key];
    if (!spec) {
      errors.push(`unknown option \`${key}\` in the code fence (known: ${Object.keys(FENCE_OPTIONS).join(", ")})`);
      continue;
    }
    if (spec.switch) {
      if (value === null || value === "true") attributes[spec.attribute] = "";
      else if (value === "false") delete attributes[spec.attribute];
      else errors.push(`option \`${key}\` in the code fence is a switch: write \`${key}\` or \`${key}=false\`, not \`${word}\``);
      continue;
    }
    if (value === null && "bare" in spec) {
      attributes[spec.attribute] = spec.bare;
      continue;
    }
    if (value === null || !spec.check.test(value)) {
      errors.push(`option \`${key}\` in the code fence needs ${spec.expect}${value === null ? ` (\`${key}=...\`)` : `, not \`${value}\``}`);
      continue;
    }
    attributes[spec.attribute] = value;
  }
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  while (lines.length && !lines[0].trim()) lines.shift();
  return { widget: true, yaml: lines.length ? lines.join("\n") + "\n" : "", attributes, errors };
}

const KEY_ALONE = /^([a-z][A-Za-z0-9_.\/-]*):[ \t]*(#.*)?$/;
const KEY = /^([a-z][A-Za-z0-9_.\/-]*):(?:[ \t]|$)/;

/**
 * Whether YAML lost its indentation on the way to the page (a Markdown or MDX pass that
 * strips leading spaces): in one of its documents every line starts at column 0 and a
 * field with nothing after its colon (`spec:`) is followed by another field (`tolerations:`),
 * which then is no longer inside it. Returns `{key, line, next, nextLine}` (1-based lines)
 * or null. Read as written, such a document gives a verdict for a different object
 * (a pod without its tolerations), so the widget shows this instead.
 */
export function lostIndentation(text) {
  const docs = [[]];
  String(text ?? "").replace(/\r\n?/g, "\n").split("\n").forEach((l, i) => {
    if (/^(---|\.\.\.)([ \t]|$)/.test(l)) docs.push([]);
    else if (l.trim() && !/^[ \t]*#/.test(l)) docs[docs.length - 1].push([l, i + 1]);
  });
  for (const doc of docs) {
    if (doc.some(([l]) => /^[ \t]/.test(l))) continue;
    for (let k = 0; k + 1 < doc.length; k++) {
      const alone = KEY_ALONE.exec(doc[k][0]);
      const next = alone && KEY.exec(doc[k + 1][0]);
      if (next) return { key: alone[1], line: doc[k][1], next: next[1], nextLine: doc[k + 1][1] };
    }
  }
  return null;
}
