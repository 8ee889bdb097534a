//! The preprocessor on mdBook's two JSON shapes (0.4: `sections` and `__non_exhaustive`,
//! 0.5: `items`), on the shared code-fence cases, and on what the transformed Markdown
//! becomes in mdBook's renderer (pulldown-cmark).

use std::fs;
use std::path::{Path, PathBuf};

use mdbook_taintlab::{
    ASSETS, Settings, WHATIF_ASSET, fence_words, install_assets, is_fence, preprocess,
    transform_chapter,
};
use pulldown_cmark::{Options, Parser, html};
use serde_json::Value;

fn fixture(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join(name);
    fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A book folder with the element's two files where `assets` points.
fn book_dir(tag: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("mdbook-taintlab-test-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let web = dir.join("node_modules/taintlab/web");
    fs::create_dir_all(&web).unwrap();
    fs::write(web.join(ASSETS[0]), b"export {};\n").unwrap();
    fs::write(web.join(ASSETS[1]), b"\0asm\x01\0\0\0").unwrap();
    fs::create_dir_all(dir.join("src")).unwrap();
    dir
}

/// The fixture with its `root` pointed at `dir`.
fn input(name: &str, dir: &Path) -> String {
    let mut v: Value = serde_json::from_str(&fixture(name)).unwrap();
    v[0]["root"] = Value::String(dir.display().to_string());
    v.to_string()
}

fn render(markdown: &str) -> String {
    let mut out = String::new();
    html::push_html(
        &mut out,
        Parser::new_ext(
            markdown,
            Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH,
        ),
    );
    out
}

/// Decodes what the widget's `<code>` holds back to text.
fn code_text(html: &str) -> String {
    let start = html.find("<code class=\"language-yaml\">").unwrap() + 28;
    let end = start + html[start..].find("</code>").unwrap();
    html[start..end]
        .replace("&#10;", "\n")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

fn chapters(v: &Value, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(m) => {
            if let Some(ch) = m.get("Chapter") {
                out.push((
                    ch["path"].as_str().unwrap_or("").to_string(),
                    ch["content"].as_str().unwrap_or("").to_string(),
                ));
            }
            m.values().for_each(|c| chapters(c, out));
        }
        Value::Array(a) => a.iter().for_each(|c| chapters(c, out)),
        _ => {}
    }
}

#[test]
fn recognition_agrees_with_the_element_on_the_shared_cases() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/docsites/common/fences.json");
    let cases: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    let cases = cases["cases"].as_array().unwrap();
    assert!(cases.len() >= 15);
    for c in cases {
        let info = c["info"].as_str().unwrap();
        let text = c["text"].as_str().unwrap();
        assert_eq!(
            is_fence(info, text),
            c["widget"].as_bool().unwrap(),
            "{info:?} {text:?}"
        );
    }
    assert_eq!(
        fence_words("yaml {taint-check heading=\"a, b\" x='c d'}"),
        ["yaml", "taint-check", "heading=a, b", "x=c d"]
    );
}

#[test]
fn a_fence_with_blank_lines_stays_one_html_block_and_keeps_its_text() {
    let yaml = "kubectl taint nodes n1 a=b:NoSchedule\n---\nkind: Pod\nmetadata:\n  name: p\n\nspec:\n\n\n  tolerations:\n  - {key: a, operator: Exists}\n";
    let md = format!(
        "# T\n\nText before.\n```yaml taint-check heading=\"A & <B>\"\n{yaml}```\nText after.\n"
    );
    let (out, n) = transform_chapter(&md, Some("guide/page.md"), &Settings::default());
    assert_eq!(n, 1);
    let page = render(&out);
    // The widget is raw HTML, not a paragraph, a rule or an escaped code block.
    assert!(
        page.contains("<taint-check fence=\"yaml taint-check heading=&quot;A &amp; &lt;B&gt;&quot;\">\n<pre><code class=\"language-yaml\">"),
        "{page}"
    );
    assert!(!page.contains("<hr"), "{page}");
    assert!(!page.contains("<p><taint-check"), "{page}");
    assert!(page.contains("<p>Text before.</p>"), "{page}");
    assert!(page.contains("<p>Text after.</p>"), "{page}");
    assert_eq!(code_text(&page), yaml);
    // Loaded relative to the page: mdBook's path_to_root, or the chapter's depth.
    assert!(page.contains("<script type=\"module\">import(new URL((typeof path_to_root === \"string\" ? path_to_root : \"../\") + \"taintlab/taint-check.js\", document.baseURI).href);</script>"), "{page}");
}

#[test]
fn fences_in_list_items_and_plain_fences() {
    let md = "- item:\n\n  ```yaml\n  # taint-check: version=1.30\n  a=b:NoSchedule\n\n  c=d:NoExecute\n  ```\n\n- next\n\n```yaml\nkind: Pod\n```\n";
    let (out, n) = transform_chapter(md, Some("index.md"), &Settings::default());
    assert_eq!(n, 1);
    let page = render(&out);
    assert!(page.contains("<li>"), "{page}");
    assert_eq!(
        code_text(&page),
        "# taint-check: version=1.30\na=b:NoSchedule\n\nc=d:NoExecute\n"
    );
    // Still inside the list: the second item follows the widget.
    let widget = page.find("<taint-check").unwrap();
    assert!(
        page[..widget].contains("<ul>") && page[widget..].contains("<p>next</p>\n</li>\n</ul>"),
        "{page}"
    );
    // The plain fence is untouched.
    assert!(
        page.contains("<pre><code class=\"language-yaml\">kind: Pod\n</code></pre>"),
        "{page}"
    );
    // The loader at the book's root.
    assert!(out.contains("path_to_root : \"\") + \"taintlab/taint-check.js\", document.baseURI)"));
    let (same, none) = transform_chapter("```yaml\nkind: Pod\n```\n", None, &Settings::default());
    assert_eq!((same.as_str(), none), ("```yaml\nkind: Pod\n```\n", 0));
}

#[test]
fn the_playground_setting_reaches_every_widget() {
    let s = Settings {
        playground: Some("https://play.example/taintlab/".into()),
        assets: None,
    };
    let (out, _) = transform_chapter("```taint-check\na=b:NoSchedule\n```\n", None, &s);
    assert!(out.contains(
        "<taint-check fence=\"taint-check\" playground=\"https://play.example/taintlab/\">"
    ));
}

fn run_shape(fixture_name: &str, tag: &str) -> (Value, PathBuf) {
    let dir = book_dir(tag);
    let (book, _log) = preprocess(&input(fixture_name, &dir)).unwrap();
    // The assets are installed into the book's src/taintlab/.
    for f in ASSETS {
        assert!(dir.join("src/taintlab").join(f).is_file(), "{f}");
    }
    (book, dir)
}

#[test]
fn mdbook_0_4_shape_sections_and_non_exhaustive_are_kept() {
    let (book, dir) = run_shape("mdbook-0.4.52.json", "04");
    let obj = book.as_object().unwrap();
    assert!(obj.contains_key("sections") && obj.contains_key("__non_exhaustive"));
    assert_eq!(book["sections"][1]["PartTitle"], "Guides");
    let mut all = Vec::new();
    chapters(&book, &mut all);
    let widgets: Vec<&str> = all
        .iter()
        .filter(|(_, c)| c.contains("<taint-check"))
        .map(|(p, _)| p.as_str())
        .collect();
    assert_eq!(widgets, ["index.md", "guide/eviction.md"]);
    let guide = all.iter().find(|(p, _)| p == "guide/index.md").unwrap();
    assert_eq!(guide.1, "# Guide\n\n```yaml\nkind: Pod\n```\n");
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn mdbook_0_5_shape_items_are_kept() {
    let (book, dir) = run_shape("mdbook-0.5.4.json", "05");
    let obj = book.as_object().unwrap();
    assert!(obj.contains_key("items") && !obj.contains_key("sections"));
    let mut all = Vec::new();
    chapters(&book, &mut all);
    let widgets = all
        .iter()
        .filter(|(_, c)| c.contains("<taint-check"))
        .count();
    assert!(widgets >= 2, "{all:?}");
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn widgets_without_the_element_fail_the_build_with_what_to_do() {
    let dir = book_dir("missing");
    let mut v: Value = serde_json::from_str(&input("mdbook-0.4.52.json", &dir)).unwrap();
    v[0]["config"]["preprocessor"]["taintlab"] = serde_json::json!({});
    let err = preprocess(&v.to_string()).unwrap_err();
    assert!(
        err.contains("index.md, guide/eviction.md has taint-check widgets"),
        "{err}"
    );
    assert!(
        err.contains("assets = \"node_modules/taintlab/web\""),
        "{err}"
    );
    // A wrong assets folder names the files it needs.
    v[0]["config"]["preprocessor"]["taintlab"] = serde_json::json!({"assets": "nowhere"});
    let err = preprocess(&v.to_string()).unwrap_err();
    assert!(err.contains("taint-check.js and taintlab_bg.wasm"), "{err}");
    // An unknown key is named.
    v[0]["config"]["preprocessor"]["taintlab"] = serde_json::json!({"asset": "x"});
    let err = preprocess(&v.to_string()).unwrap_err();
    assert!(err.contains("unknown key `asset`"), "{err}");
    // Not JSON, not a pair.
    assert!(preprocess("{").unwrap_err().contains("not JSON"));
    assert!(preprocess("[1]").unwrap_err().contains("1 parts"));
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn assets_are_copied_only_when_they_change() {
    let dir = book_dir("copy");
    let from = dir.join("node_modules/taintlab/web");
    let dest = dir.join("src/taintlab");
    assert_eq!(install_assets(&from, &dest).unwrap().len(), 2);
    assert!(install_assets(&from, &dest).unwrap().is_empty());
    fs::write(from.join(ASSETS[0]), b"export const x = 1;\n").unwrap();
    assert_eq!(
        install_assets(&from, &dest).unwrap(),
        [dest.join(ASSETS[0])]
    );
    // The what-if module's wasm is copied when the package has it, and is not required.
    assert!(!dest.join(WHATIF_ASSET).exists());
    fs::write(from.join(WHATIF_ASSET), b"\0asm\x01\0\0\0what-if").unwrap();
    assert_eq!(
        install_assets(&from, &dest).unwrap(),
        [dest.join(WHATIF_ASSET)]
    );
    assert_eq!(
        fs::read(dest.join(WHATIF_ASSET)).unwrap(),
        b"\0asm\x01\0\0\0what-if"
    );
    assert!(install_assets(&from, &dest).unwrap().is_empty());
    let _ = fs::remove_dir_all(dir);
}
