//! The `mdbook-taintlab` binary as mdBook runs it: `supports <renderer>`, the book on
//! stdin and stdout, and `install`.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_mdbook-taintlab");

fn temp(tag: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("mdbook-taintlab-cli-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let web = dir.join("node_modules/taintlab/web");
    fs::create_dir_all(&web).unwrap();
    fs::write(web.join("taint-check.js"), b"export {};\n").unwrap();
    fs::write(web.join("taintlab_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    dir
}

#[test]
fn supports_only_the_html_renderer() {
    let code = |r: &str| {
        Command::new(BIN)
            .args(["supports", r])
            .status()
            .unwrap()
            .code()
    };
    assert_eq!(code("html"), Some(0));
    assert_eq!(code("markdown"), Some(1));
    assert_eq!(
        Command::new(BIN).arg("frob").status().unwrap().code(),
        Some(2)
    );
}

#[test]
fn the_book_in_the_book_out() {
    let dir = temp("run");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mdbook-0.5.4.json");
    let mut input: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(fixture).unwrap()).unwrap();
    input[0]["root"] = serde_json::Value::String(dir.display().to_string());
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let book: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = book["items"][0]["Chapter"]["content"].as_str().unwrap();
    assert!(
        first.contains(
            "<taint-check fence=\"yaml taint-check heading=&quot;Dedicated nodes&quot;\">"
        ),
        "{first}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("installed"));
    assert!(dir.join("src/taintlab/taintlab_bg.wasm").is_file());
    // Not JSON: a message and a failure, no panic.
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"not json").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not JSON"));
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn install_copies_into_the_books_source_folder() {
    let dir = temp("install");
    fs::write(
        dir.join("book.toml"),
        "[book]\ntitle = \"x\"\nsrc = \"pages\"\n",
    )
    .unwrap();
    let run = || {
        Command::new(BIN)
            .args(["install", "--book"])
            .arg(&dir)
            .arg("--from")
            .arg(dir.join("node_modules/taintlab/web"))
            .output()
            .unwrap()
    };
    let out = run();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.join("pages/taintlab/taint-check.js").is_file());
    assert!(String::from_utf8_lossy(&run().stdout).contains("is up to date"));
    let out = Command::new(BIN).args(["install"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--from"));
    let _ = fs::remove_dir_all(dir);
}
