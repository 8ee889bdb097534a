// Builds the Docusaurus test site: a copy of site/ (without node_modules) in OUT, its
// node_modules linked to DOCUSAURUS_MODULES (`npm ci` from site/package-lock.json, kept
// between runs with webpack's cache; default site/node_modules), the freshly built
// taintlab package copied in as node_modules/taintlab (webpack's cache dropped when it
// changed), a docs page with one fence per case of tests/docsites/common/fences.json,
// then `docusaurus build` (both locales).
//
//   TAINTLAB_PKG=<built package> DOCUSAURUS_MODULES=<node_modules> OUT=<dir> \
//     node tests/docsites/docusaurus/build.mjs
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fenceCases, fencesMarkdown } from "../fences-page.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const pkg = path.resolve(process.env.TAINTLAB_PKG ?? path.join(root, "target/npm/taintlab"));
const out = path.resolve(process.env.OUT ?? path.join(root, "target/docsites/docusaurus"));
const source = path.join(here, "site");
const modules = path.resolve(process.env.DOCUSAURUS_MODULES ?? path.join(source, "node_modules"));
if (!existsSync(path.join(modules, "@docusaurus", "core"))) {
  throw new Error(`${modules} lacks @docusaurus/core: run npm ci (the lockfile is ${source}/package-lock.json)`);
}

// webpack's persistent cache (node_modules/.cache) treats packages in node_modules as
// unchanged while their name and version are: a rebuilt package of the same version
// would be served from the cache. Drop the cache when the package's contents changed.
function contentHash(dir) {
  const h = createHash("sha256");
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else h.update(path.relative(dir, p)).update(readFileSync(p));
    }
  };
  walk(dir);
  return h.digest("hex");
}
const hash = contentHash(pkg);
const stamp = path.join(modules, ".cache", "taintlab-package.sha256");
if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== hash) {
  rmSync(path.join(modules, ".cache"), { recursive: true, force: true });
  mkdirSync(path.dirname(stamp), { recursive: true });
  writeFileSync(stamp, hash);
  console.log("    a new taintlab package: webpack's cache dropped");
}
rmSync(path.join(modules, "taintlab"), { recursive: true, force: true });
cpSync(pkg, path.join(modules, "taintlab"), { recursive: true });

rmSync(out, { recursive: true, force: true });
const site = path.join(out, "site");
cpSync(source, site, {
  recursive: true,
  filter: (src) => !["node_modules", ".docusaurus", "build"].includes(path.basename(src)),
});
symlinkSync(modules, path.join(site, "node_modules"), "dir");
if (fenceCases()) {
  writeFileSync(path.join(site, "docs", "fences.md"), fencesMarkdown("---\ntitle: Fences\n---"));
}

const started = Date.now();
execFileSync(process.execPath, [path.join(modules, "@docusaurus", "core", "bin", "docusaurus.mjs"), "build", "--out-dir", path.join(out, "build")], {
  cwd: site,
  stdio: "inherit",
  env: { ...process.env, DOCUSAURUS_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
});
console.log(`    docusaurus build: ${Date.now() - started} ms`);
