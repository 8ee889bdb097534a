//! `mdbook-taintlab`: an mdBook preprocessor that turns code fences written for
//! `<taint-check>` into live Kubernetes taints-and-tolerations examples.
//!
//! ````markdown
//! ```yaml taint-check version=1.33
//! kubectl taint nodes node1 dedicated=groupName:NoSchedule
//! ---
//! apiVersion: v1
//! kind: Pod
//! ...
//! ```
//! ````
//!
//! The code-fence format is defined once, by the element (`wasm/js/element/fence.js` in
//! the npm package `taintlab`): this crate only recognises a fence ([`is_fence`]) and
//! writes it as the element around the book's usual code block, with the info string
//! passed through ([`widget_html`]); the element reads the options. The YAML stays in the
//! page as a plain code block, readable without JavaScript, and its newlines are written
//! as `&#10;` so that a blank line in the example cannot end Markdown's HTML block.
//!
//! Each chapter with a widget loads the one-file element (`taintlab/taint-check.js`
//! beside `taintlab/taintlab_bg.wasm`, both under the book's `src/`, which mdBook copies
//! into the book) with a module script relative to the page. [`install_assets`] copies
//! the two files there from the npm package's `web/` folder (the `assets` setting, or
//! `mdbook-taintlab install`).
//!
//! mdBook 0.4 and 0.5 send the book in different shapes (`sections` and
//! `__non_exhaustive` in 0.4, `items` in 0.5); [`preprocess`] walks either and changes
//! only chapters' `content`.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use serde_json::Value;

/// The word of an info string that marks a fence as a widget.
pub const WORD: &str = "taint-check";
/// The folder under the book's `src/` that holds the element's two files.
pub const ASSET_DIR: &str = "taintlab";
/// The one-file element and the engine it loads from its own folder: all a page needs.
pub const ASSETS: [&str; 2] = ["taint-check.js", "taintlab_bg.wasm"];
/// The what-if module's wasm, which the element fetches from its own folder only for
/// widgets in what-if mode (`what-if=...`): copied beside the two files when the package
/// has it, so that such widgets work; a page without them never downloads it.
pub const WHATIF_ASSET: &str = "taintlab_whatif_bg.wasm";

/// Splits an info string into words as the element does (`fenceWords` in fence.js):
/// spaces, commas and braces separate words outside single or double quotes.
pub fn fence_words(info: &str) -> Vec<String> {
    let mut s = info.trim();
    if s.starts_with('{') && s.ends_with('}') && s.len() >= 2 {
        s = &s[1..s.len() - 1];
    }
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut has = false;
    for ch in s.chars() {
        if let Some(q) = quote {
            if ch == q {
                quote = None;
            } else {
                cur.push(ch);
            }
        } else if ch == '"' || ch == '\'' {
            quote = Some(ch);
            has = true;
        } else if ch.is_whitespace() || matches!(ch, ',' | '{' | '}') {
            if has || !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            has = false;
        } else {
            cur.push(ch);
            has = true;
        }
    }
    if has || !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// Whether a line is the `# taint-check` comment that marks a plain fence as a widget
/// (`DIRECTIVE` in fence.js).
pub fn is_directive(line: &str) -> bool {
    let s = line.trim_start_matches([' ', '\t']);
    let Some(s) = s.strip_prefix('#') else {
        return false;
    };
    let Some(rest) = s.trim_start_matches([' ', '\t']).strip_prefix(WORD) else {
        return false;
    };
    rest.is_empty() || rest.starts_with([':', ' ', '\t'])
}

/// Whether a fenced code block (its info string and text) is a `<taint-check>` widget
/// (`isFence` in fence.js).
pub fn is_fence(info: &str, text: &str) -> bool {
    if fence_words(info).iter().any(|w| w == WORD) {
        return true;
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text.split('\n').next().unwrap_or("");
    is_directive(first.strip_suffix('\r').unwrap_or(first))
}

/// HTML-escapes text for an attribute value or element content.
fn escape(out: &mut String, text: &str) {
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("&#10;"),
            '\r' => {}
            c => out.push(c),
        }
    }
}

/// The widget for one fence: three lines of HTML, `<taint-check fence="INFO">`, the code
/// block (newlines written as `&#10;`, so no line of it is blank) and the closing tag.
/// `playground`, when set, becomes the widget's playground URL.
pub fn widget_html(info: &str, text: &str, playground: Option<&str>) -> [String; 3] {
    let mut open = String::from("<taint-check fence=\"");
    escape(&mut open, info.trim());
    open.push('"');
    if let Some(url) = playground {
        open.push_str(" playground=\"");
        escape(&mut open, url);
        open.push('"');
    }
    open.push('>');
    let mut code = String::from("<pre><code class=\"language-yaml\">");
    escape(&mut code, text);
    code.push_str("</code></pre>");
    [open, code, "</taint-check>".to_string()]
}

/// The module script a chapter with widgets ends with: it loads the element relative to
/// the page (mdBook's `path_to_root`, or the chapter's own depth where a theme lacks it).
pub fn loader_script(chapter_path: Option<&str>) -> String {
    let depth = chapter_path
        .map(|p| p.replace('\\', "/").matches('/').count())
        .unwrap_or(0);
    let up = "../".repeat(depth);
    format!(
        "<script type=\"module\">import(new URL((typeof path_to_root === \"string\" ? path_to_root : \"{up}\") + \"{ASSET_DIR}/{}\", document.baseURI).href);</script>",
        ASSETS[0]
    )
}

/// What the preprocessor does, from `[preprocessor.taintlab]` in book.toml.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// `playground`: the playground's base URL for "Open in playground" (hidden without).
    pub playground: Option<String>,
    /// `assets`: the npm package's `web/` folder (relative to the book), copied into
    /// `src/taintlab/` on every build when it changed.
    pub assets: Option<PathBuf>,
}

impl Settings {
    /// Reads the settings from the book's configuration (the context's `config`).
    pub fn from_config(config: &Value) -> Result<Settings, String> {
        let table = &config["preprocessor"]["taintlab"];
        let mut s = Settings::default();
        if let Some(obj) = table.as_object() {
            for (key, value) in obj {
                match key.as_str() {
                    "playground" => {
                        s.playground = Some(string_setting(key, value)?);
                    }
                    "assets" => s.assets = Some(PathBuf::from(string_setting(key, value)?)),
                    // mdBook's own keys of every preprocessor table.
                    "command" | "renderers" | "before" | "after" | "optional" => {}
                    other => {
                        return Err(format!(
                            "[preprocessor.taintlab] in book.toml: unknown key `{other}` (known: playground, assets)"
                        ));
                    }
                }
            }
        }
        Ok(s)
    }
}

fn string_setting(key: &str, value: &Value) -> Result<String, String> {
    match value.as_str() {
        Some(v) if !v.trim().is_empty() => Ok(v.to_string()),
        _ => Err(format!(
            "[preprocessor.taintlab] in book.toml: `{key}` must be a non-empty string"
        )),
    }
}

/// Turns every `taint-check` fence of a chapter's Markdown into a widget; returns the new
/// Markdown and how many widgets it holds (and, when it holds any, ends it with the
/// loader script).
pub fn transform_chapter(
    content: &str,
    chapter_path: Option<&str>,
    settings: &Settings,
) -> (String, usize) {
    let mut edits: Vec<(std::ops::Range<usize>, String, String)> = Vec::new();
    let mut open: Option<(std::ops::Range<usize>, String, String)> = None;
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES;
    for (event, range) in Parser::new_ext(content, options).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                open = Some((range, info.to_string(), String::new()));
            }
            Event::Text(text) => {
                if let Some((_, _, body)) = open.as_mut() {
                    body.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((range, info, body)) = open.take()
                    && is_fence(&info, &body)
                {
                    edits.push((range, info, body));
                }
            }
            _ => {}
        }
    }
    if edits.is_empty() {
        return (content.to_string(), 0);
    }
    let mut out = String::with_capacity(content.len() + 256 * edits.len());
    let mut at = 0;
    for (range, info, body) in &edits {
        let line_start = content[..range.start].rfind('\n').map_or(0, |i| i + 1);
        let prefix = &content[line_start..range.start];
        // Continuation lines keep the block's container: blockquote markers stay, a list
        // marker's width becomes spaces.
        let cont: String = prefix
            .chars()
            .map(|c| if c == '>' || c == '\t' { c } else { ' ' })
            .collect();
        out.push_str(&content[at..range.start]);
        // HTML blocks cannot interrupt a paragraph: start after a blank line (only
        // where the fence's line holds nothing but its indentation or `>` markers).
        if prefix.chars().all(|c| c == ' ' || c == '\t' || c == '>') {
            out.push('\n');
            out.push_str(&cont);
        }
        let [a, b, c] = widget_html(info, body, settings.playground.as_deref());
        let _ = write!(out, "{a}\n{cont}{b}\n{cont}{c}\n");
        // And end the HTML block with a blank line before what follows.
        out.push_str(cont.trim_end());
        out.push('\n');
        at = range.end;
        // The block's range may stop before the closing fence's newline.
        if content[at..].starts_with('\n') {
            at += 1;
        }
    }
    out.push_str(&content[at..]);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&loader_script(chapter_path));
    out.push('\n');
    (out, edits.len())
}

/// Walks a book as mdBook sends it (0.4: `{"sections": [...], "__non_exhaustive": null}`,
/// 0.5: `{"items": [...]}`; chapters are `{"Chapter": {...}}` with `sub_items`) and
/// transforms every chapter's `content`. Returns the number of widgets and the chapters
/// that hold them.
pub fn transform_book(book: &mut Value, settings: &Settings) -> (usize, Vec<String>) {
    let mut widgets = 0;
    let mut chapters = Vec::new();
    walk(book, settings, &mut widgets, &mut chapters);
    (widgets, chapters)
}

fn walk(v: &mut Value, settings: &Settings, widgets: &mut usize, chapters: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            if let Some(Value::Object(ch)) = map.get_mut("Chapter") {
                let path = ch
                    .get("path")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .or_else(|| {
                        ch.get("source_path")
                            .and_then(Value::as_str)
                            .map(str::to_string)
                    });
                if let Some(Value::String(content)) = ch.get_mut("content") {
                    let (new, n) = transform_chapter(content, path.as_deref(), settings);
                    if n > 0 {
                        *content = new;
                        *widgets += n;
                        chapters.push(path.unwrap_or_else(|| "(draft chapter)".into()));
                    }
                }
            }
            for (_, child) in map.iter_mut() {
                walk(child, settings, widgets, chapters);
            }
        }
        Value::Array(items) => {
            for child in items {
                walk(child, settings, widgets, chapters);
            }
        }
        _ => {}
    }
}

/// Copies the element's two files from `from` (the npm package's `web/` folder) into
/// `dest` (the book's `src/taintlab/`), and [`WHATIF_ASSET`] when `from` has it, each
/// only when its bytes differ, so that
/// `mdbook serve` does not rebuild in a loop. Returns the files written.
pub fn install_assets(from: &Path, dest: &Path) -> Result<Vec<PathBuf>, String> {
    let mut written = Vec::new();
    fs::create_dir_all(dest).map_err(|e| format!("cannot create {}: {e}", dest.display()))?;
    for name in ASSETS {
        let src = from.join(name);
        let bytes = fs::read(&src).map_err(|e| {
            format!(
                "cannot read {} ({e}): `assets` must name the npm package taintlab's web/ folder, which holds {} and {}",
                src.display(),
                ASSETS[0],
                ASSETS[1]
            )
        })?;
        let to = dest.join(name);
        if fs::read(&to).ok().as_deref() != Some(&bytes[..]) {
            fs::write(&to, &bytes).map_err(|e| format!("cannot write {}: {e}", to.display()))?;
            written.push(to);
        }
    }
    // Optional: a package built before the what-if mode has no such file.
    if let Ok(bytes) = fs::read(from.join(WHATIF_ASSET)) {
        let to = dest.join(WHATIF_ASSET);
        if fs::read(&to).ok().as_deref() != Some(&bytes[..]) {
            fs::write(&to, &bytes).map_err(|e| format!("cannot write {}: {e}", to.display()))?;
            written.push(to);
        }
    }
    Ok(written)
}

/// The book's source folder: `root` joined with `[book] src` (default `src`).
pub fn source_dir(context: &Value) -> PathBuf {
    let root = PathBuf::from(context["root"].as_str().unwrap_or("."));
    let src = context["config"]["book"]["src"].as_str().unwrap_or("src");
    root.join(src)
}

/// The preprocessor's run: reads `[context, book]` (mdBook's JSON on stdin), installs the
/// assets when `assets` is set, transforms the book and returns it. An error when a
/// chapter has widgets but the book does not hold the element.
pub fn preprocess(input: &str) -> Result<(Value, String), String> {
    let value: Value = serde_json::from_str(input)
        .map_err(|e| format!("mdBook's input is not JSON [context, book]: {e}"))?;
    let Value::Array(mut parts) = value else {
        return Err("mdBook's input is not a JSON array [context, book]".into());
    };
    if parts.len() != 2 {
        return Err(format!(
            "mdBook's input has {} parts, expected [context, book]",
            parts.len()
        ));
    }
    let mut book = parts.pop().unwrap_or(Value::Null);
    let context = parts.pop().unwrap_or(Value::Null);
    if !book.is_object() {
        return Err("mdBook's book is not a JSON object".into());
    }
    let settings = Settings::from_config(&context["config"])?;
    let mut log = String::new();
    let version = context["mdbook_version"].as_str().unwrap_or("");
    if !(version.starts_with("0.4.") || version.starts_with("0.5.")) {
        let _ = writeln!(
            log,
            "mdbook-taintlab: tested with mdBook 0.4 and 0.5, this is {version:?}"
        );
    }
    let src = source_dir(&context);
    let dest = src.join(ASSET_DIR);
    if let Some(assets) = &settings.assets {
        let root = PathBuf::from(context["root"].as_str().unwrap_or("."));
        for f in install_assets(&root.join(assets), &dest)? {
            let _ = writeln!(log, "mdbook-taintlab: installed {}", f.display());
        }
    }
    let (widgets, chapters) = transform_book(&mut book, &settings);
    if widgets > 0 {
        let missing: Vec<&str> = ASSETS
            .iter()
            .copied()
            .filter(|f| !dest.join(f).is_file())
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "{} has taint-check widgets but {} lacks {}: set `assets = \"node_modules/taintlab/web\"` under [preprocessor.taintlab] in book.toml, or run `mdbook-taintlab install --from <that folder>`",
                chapters.join(", "),
                dest.display(),
                missing.join(" and ")
            ));
        }
    }
    Ok((book, log))
}
