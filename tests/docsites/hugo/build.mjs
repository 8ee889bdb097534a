// Builds the Hugo test site the way wasm/js/README.md tells a site to be set up: the
// package in node_modules/taintlab (here: the fresh build, copied), its Hugo module's
// layouts and the files a static site serves mounted by the site's hugo.toml, then
// `hugo`. Also writes content/fences.md, one fence per case of
// tests/docsites/common/fences.json, to check which fences the render hooks turn into
// widgets.
//
//   TAINTLAB_PKG=<built package> OUT=<dir> node tests/docsites/hugo/build.mjs
import { cpSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fenceCases, fencesMarkdown } from "../fences-page.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const pkg = path.resolve(process.env.TAINTLAB_PKG ?? path.join(root, "target/npm/taintlab"));
const out = path.resolve(process.env.OUT ?? path.join(root, "target/docsites/hugo"));

rmSync(out, { recursive: true, force: true });
const site = path.join(out, "site");
cpSync(path.join(here, "site"), site, { recursive: true });
cpSync(pkg, path.join(site, "node_modules", "taintlab"), { recursive: true });
if (fenceCases()) {
  writeFileSync(path.join(site, "content", "fences.md"), fencesMarkdown("---\ntitle: Fences\n---"));
}

const started = Date.now();
execFileSync("hugo", ["--quiet", "--source", site, "--destination", path.join(out, "public")], { stdio: "inherit" });
console.log(`    hugo: ${Date.now() - started} ms (${execFileSync("hugo", ["version"]).toString().trim()})`);
