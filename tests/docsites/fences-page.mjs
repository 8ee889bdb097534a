// A Markdown page with one fence per case of tests/docsites/common/fences.json (the
// element's fence format), under headings `case N`, and the browser check that exactly
// the cases marked as widgets became <taint-check> elements carrying their info string.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const CASES = path.join(here, "common", "fences.json");

/** The cases, or null before the shared file exists. */
export function fenceCases() {
  return existsSync(CASES) ? JSON.parse(readFileSync(CASES, "utf8")).cases : null;
}

/** The page's Markdown (after front matter `head`). */
export function fencesMarkdown(head) {
  const lines = [head, ""];
  fenceCases().forEach((c, i) => {
    const text = c.text.replace(/\n$/, "");
    lines.push(`## case ${i}`, "", `\`\`\`\`${c.info}`, text, "````", "");
  });
  return lines.join("\n");
}

/** For each case: [index, whether it became a widget, the widget's fence attribute]. */
export async function readFencesPage(page) {
  return page.$$eval("h2", (hs) =>
    hs
      .filter((h) => /^case \d+/.test(h.textContent.trim()))
      .map((h) => {
        const next = h.nextElementSibling;
        const widget = next?.tagName === "TAINT-CHECK";
        return [Number(h.textContent.trim().match(/\d+/)[0]), widget, widget ? next.getAttribute("fence") : null];
      }),
  );
}

/** Compares the page with the cases; returns the mismatches. */
export function fenceMismatches(found) {
  const cases = fenceCases();
  const bad = [];
  if (found.length !== cases.length) bad.push(`${found.length} cases on the page, ${cases.length} in fences.json`);
  for (const [i, widget, fence] of found) {
    const c = cases[i];
    if (widget !== c.widget) bad.push(`case ${i} (${JSON.stringify(c.info)}): widget ${widget}, expected ${c.widget}`);
    else if (widget && c.info && fence !== c.info) bad.push(`case ${i}: fence attribute ${JSON.stringify(fence)}, expected ${JSON.stringify(c.info)}`);
  }
  return bad;
}
