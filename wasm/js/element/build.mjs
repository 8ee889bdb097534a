// The one-file element for static sites: `web/taint-check.js` in the assembled package,
// one ES module (the element, its words, the code-fence reader, the share-link format and
// the engine's wasm-bindgen glue, minified by esbuild) that loads `taintlab_bg.wasm` from
// its own folder. A site serves exactly these two files; the element's styles live in the
// module (shadow DOM).
//
//   node wasm/js/element/build.mjs <package dir>     (run by `cargo xtask npm build`)
//
// The package's `taintlab/element` entry stays unbundled for bundlers, which resolve the
// wasm themselves.
import { build } from "esbuild";
import path from "node:path";
import fs from "node:fs";

const pkg = path.resolve(process.argv[2] ?? "");
const entry = path.join(pkg, "element", "taint-check.js");
const glue = path.join(pkg, "web", "taintlab.js");
for (const f of [entry, glue]) {
  if (!fs.existsSync(f)) {
    console.error(`build.mjs: ${f} is missing (give the assembled package's directory)`);
    process.exit(2);
  }
}
const out = path.join(pkg, "web", "taint-check.js");
const version = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8")).version;

// In the one-file build the module sits beside the wasm: the element's
// `new URL("../web/taintlab_bg.wasm", import.meta.url)` becomes "./taintlab_bg.wasm", and
// the what-if module's wasm (fetched only by widgets in what-if mode) likewise
// "./taintlab_whatif_bg.wasm".
const WASM = ["taintlab_bg.wasm", "taintlab_whatif_bg.wasm"];
const besideTheWasm = {
  name: "beside-the-wasm",
  setup(b) {
    b.onLoad({ filter: /element[\\/]taint-check\.js$/ }, (args) => {
      let text = fs.readFileSync(args.path, "utf8");
      for (const wasm of WASM) {
        const from = `"../web/${wasm}"`;
        const count = text.split(from).length - 1;
        if (count !== 1) throw new Error(`expected one ${from} in ${args.path}, found ${count}`);
        text = text.replace(from, `"./${wasm}"`);
      }
      return { contents: text, loader: "js" };
    });
  },
};

const result = await build({
  entryPoints: [entry],
  outfile: out,
  bundle: true,
  format: "esm",
  platform: "browser",
  target: ["es2022", "chrome100", "firefox100", "safari16"],
  minify: true,
  legalComments: "none",
  banner: { js: `/* <taint-check> ${version}, one-file build: serve taintlab_bg.wasm beside it. Apache-2.0 */` },
  plugins: [besideTheWasm],
  metafile: true,
  logLevel: "warning",
});
const inputs = Object.keys(result.metafile.inputs).map((p) => path.relative(pkg, path.resolve(p)));
console.log(`    web/taint-check.js: ${fs.statSync(out).size} bytes from ${inputs.join(", ")}`);
