//! The `mdbook-taintlab` command: mdBook's preprocessor protocol, plus `install`.
//!
//! * `mdbook-taintlab supports <renderer>`: exit 0 for `html` (the widgets need a
//!   browser), 1 otherwise, so other renderers keep the fences as YAML code blocks.
//! * `mdbook-taintlab` with `[context, book]` on stdin: the book, widgets in, on stdout.
//! * `mdbook-taintlab install [--book DIR] --from DIR`: copies the one-file element and
//!   the engine (the npm package's `web/taint-check.js` and `web/taintlab_bg.wasm`) into
//!   the book's `src/taintlab/`.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use mdbook_taintlab::{ASSET_DIR, install_assets, preprocess};

const USAGE: &str = "\
mdbook-taintlab: ```yaml taint-check code fences become live <taint-check> examples

  in book.toml:   [preprocessor.taintlab]
                  assets = \"node_modules/taintlab/web\"   # copied into src/taintlab/
                  playground = \"https://...\"             # optional: 'Open in playground'

  mdbook-taintlab supports <renderer>          (mdBook asks; html only)
  mdbook-taintlab install [--book DIR] --from DIR
  mdbook-taintlab < [context, book] JSON       (mdBook runs this)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("supports") => match args.get(1).map(String::as_str) {
            Some("html") => ExitCode::SUCCESS,
            Some(_) => ExitCode::FAILURE,
            None => fail("supports: which renderer?"),
        },
        Some("install") => install(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("-V" | "--version") => {
            println!("mdbook-taintlab {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some(other) => fail(&format!("unknown argument {other:?}\n\n{USAGE}")),
        None => run(),
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("mdbook-taintlab: {message}");
    ExitCode::from(2)
}

fn run() -> ExitCode {
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        return fail(&format!("cannot read mdBook's input: {e}"));
    }
    match preprocess(&input) {
        Ok((book, log)) => {
            eprint!("{log}");
            let mut out = std::io::stdout().lock();
            if serde_json::to_writer(&mut out, &book).is_err() || out.flush().is_err() {
                return fail("cannot write the book to stdout");
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e),
    }
}

fn install(args: &[String]) -> ExitCode {
    let mut book = PathBuf::from(".");
    let mut from: Option<PathBuf> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match (a.as_str(), it.next()) {
            ("--book", Some(v)) => book = PathBuf::from(v),
            ("--from", Some(v)) => from = Some(PathBuf::from(v)),
            _ => return fail(&format!("install: unexpected {a:?}\n\n{USAGE}")),
        }
    }
    let Some(from) = from else {
        return fail("install: --from <the npm package taintlab's web/ folder> is needed");
    };
    // The source folder from book.toml's [book] src, default src.
    let toml = std::fs::read_to_string(book.join("book.toml")).unwrap_or_default();
    let src = toml
        .lines()
        .map(str::trim)
        .skip_while(|l| *l != "[book]")
        .skip(1)
        .take_while(|l| !l.starts_with('['))
        .find_map(|l| {
            let v = l.strip_prefix("src")?.trim_start().strip_prefix('=')?;
            Some(v.trim().trim_matches('"').to_string())
        })
        .unwrap_or_else(|| "src".into());
    let dest = book.join(src).join(ASSET_DIR);
    match install_assets(&from, &dest) {
        Ok(written) => {
            for f in &written {
                println!("installed {}", f.display());
            }
            if written.is_empty() {
                println!("{} is up to date", dest.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e),
    }
}
