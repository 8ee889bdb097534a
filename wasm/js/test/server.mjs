// A tiny static file server for the docs page and the built package, bound to 127.0.0.1.
// Serves .wasm as application/wasm so that WebAssembly.instantiateStreaming works.
//
//   node wasm/js/test/server.mjs [port]    # docs/ at /, target/npm/taintlab at /taintlab/
import http from "node:http";
import { createReadStream, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".ts": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

/** Starts the server. `routes` are [urlPrefix, directory] pairs, longest prefix first. */
export function serve(routes, port = 0) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    requests.push(url.pathname);
    let pathname = decodeURIComponent(url.pathname);
    const route = routes.find(([prefix]) => pathname.startsWith(prefix));
    if (!route) {
      res.writeHead(404).end("not found");
      return;
    }
    const [prefix, dir] = route;
    let file = path.resolve(dir, "." + path.sep + pathname.slice(prefix.length));
    if (file !== path.resolve(dir) && !file.startsWith(path.resolve(dir) + path.sep)) {
      res.writeHead(403).end("forbidden");
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = path.join(file, "index.html");
      const size = statSync(file).size;
      res.writeHead(200, {
        "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream",
        "Content-Length": size,
        "Cache-Control": "no-store",
      });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const { port: p } = server.address();
      resolve({ url: `http://127.0.0.1:${p}/`, requests, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
  const pkg = process.env.TAINTLAB_PKG ?? path.join(root, "target/npm/taintlab");
  const docs = process.env.TAINTLAB_DOCS ?? path.join(root, "docs");
  const s = await serve([["/taintlab/", pkg], ["/", docs]], Number(process.argv[2] ?? 8088));
  console.log(`docs page: ${s.url}  (package from ${pkg})`);
}
