//! The event reader against yaml-rust2 0.13, the parser it replaced: every YAML text in
//! the repository's tests, fixtures and docs, and mutations of each small one (one
//! character deleted, or one of YAML's indicator characters inserted, at every place).
//! Where yaml-rust2 reads the text, the events and their places must be the same; where
//! it fails, this reader must fail too, at the same line and column after the same
//! events (the message is go-yaml's short one, not yaml-rust2's).
//!
//! Deliberate differences, left out of the comparison:
//! - a leading byte order mark: yaml-rust2 reads it as content, this reader skips it
//!   as go-yaml (kubectl) does;
//! - the index (characters before a place) after a block scalar line holding non-ASCII
//!   characters: yaml-rust2 counts part of such a line in bytes; this reader counts
//!   characters throughout. Lines and columns are compared everywhere (the value tree
//!   uses only those); indexes where the text is ASCII;
//! - nesting deeper than [`MAX_NESTING`] collections: yaml-rust2 follows any block
//!   nesting, this reader stops ("recursion limit exceeded"); the value tree stops at
//!   128 levels before either;
//! - more than [`super::MAX_ANCHORS`] distinct anchor names in one stream: this reader
//!   stops ("too many anchors"), yaml-rust2 reads on. None of the texts here has as
//!   many.

use std::path::{Path, PathBuf};

use super::{Event, MAX_NESTING, Parser, Style};

/// One event as both readers report it: kind and content, then line, column, index.
type Ev = (String, usize, usize, usize);

/// All events up to the end of the stream, or those before an error and the error's
/// line, column and message.
type Run = (Vec<Ev>, Option<(usize, usize, String)>);

/// A reader's events until the end of the stream or its error: each event, or `None`
/// for one this reader has no counterpart of, with its line, column and index; an error
/// as its line, column and message.
type Next = Result<(Option<Event>, (usize, usize, usize)), (usize, usize, String)>;

/// One reader's run, with every event written the same way for both.
fn run(mut next: impl FnMut() -> Next) -> Run {
    let tag = |t: Option<super::Tag>| t.map(|t| (t.handle, t.suffix));
    let mut out = Vec::new();
    loop {
        let (ev, (line, col, index)) = match next() {
            Ok(x) => x,
            Err(e) => return (out, Some(e)),
        };
        let end = ev == Some(Event::StreamEnd);
        let s = match ev {
            None => "NOTHING".to_string(),
            Some(Event::StreamStart) => "+STR".to_string(),
            Some(Event::StreamEnd) => "-STR".to_string(),
            Some(Event::DocumentStart) => "+DOC".to_string(),
            Some(Event::DocumentEnd) => "-DOC".to_string(),
            Some(Event::Alias(id)) => format!("=ALI {id}"),
            Some(Event::Scalar(v, style, a, t)) => {
                let style = match style {
                    Style::Plain => ':',
                    Style::SingleQuoted => '\'',
                    Style::DoubleQuoted => '"',
                    Style::Literal => '|',
                    Style::Folded => '>',
                };
                format!("=VAL {a} {:?} {style}{v:?}", tag(t))
            }
            Some(Event::SequenceStart(a, t)) => format!("+SEQ {a} {:?}", tag(t)),
            Some(Event::SequenceEnd) => "-SEQ".to_string(),
            Some(Event::MappingStart(a, t)) => format!("+MAP {a} {:?}", tag(t)),
            Some(Event::MappingEnd) => "-MAP".to_string(),
        };
        out.push((s, line, col, index));
        if end || out.len() > 1_000_000 {
            return (out, None);
        }
    }
}

fn ours(text: &str) -> Run {
    let mut p = Parser::new_from_str(text);
    run(|| match p.next_token() {
        Ok((ev, m)) => Ok((Some(ev), (m.line(), m.col(), m.index()))),
        Err(e) => {
            let m = e.marker();
            Err((m.line(), m.col(), e.info().to_string()))
        }
    })
}

fn theirs(text: &str) -> Run {
    use yaml_rust2::parser::{Event as E, Parser as P, Tag as T};
    use yaml_rust2::scanner::TScalarStyle as S;
    let tag = |t: Option<T>| {
        t.map(|t| super::Tag {
            handle: t.handle,
            suffix: t.suffix,
        })
    };
    let mut p = P::new_from_str(text);
    run(|| match p.next_token() {
        Ok((ev, m)) => {
            let ev = match ev {
                E::Nothing => None,
                E::StreamStart => Some(Event::StreamStart),
                E::StreamEnd => Some(Event::StreamEnd),
                E::DocumentStart => Some(Event::DocumentStart),
                E::DocumentEnd => Some(Event::DocumentEnd),
                E::Alias(id) => Some(Event::Alias(id)),
                E::Scalar(v, style, a, t) => {
                    let style = match style {
                        S::Plain => Style::Plain,
                        S::SingleQuoted => Style::SingleQuoted,
                        S::DoubleQuoted => Style::DoubleQuoted,
                        S::Literal => Style::Literal,
                        S::Folded => Style::Folded,
                    };
                    Some(Event::Scalar(v, style, a, tag(t)))
                }
                E::SequenceStart(a, t) => Some(Event::SequenceStart(a, tag(t))),
                E::SequenceEnd => Some(Event::SequenceEnd),
                E::MappingStart(a, t) => Some(Event::MappingStart(a, tag(t))),
                E::MappingEnd => Some(Event::MappingEnd),
            };
            Ok((ev, (m.line(), m.col(), m.index())))
        }
        Err(e) => {
            let m = e.marker();
            Err((m.line(), m.col(), e.info().to_string()))
        }
    })
}

/// Texts the comparison leaves out (see the module comment).
fn deliberate_difference(text: &str, theirs: &Run) -> bool {
    text.starts_with('\u{feff}')
        || theirs
            .0
            .iter()
            .try_fold(0usize, |depth, e| {
                let d = if e.0.starts_with('+') && !e.0.starts_with("+DOC") {
                    depth + 1
                } else if e.0.starts_with('-') && !e.0.starts_with("-DOC") {
                    depth.saturating_sub(1)
                } else {
                    depth
                };
                (d <= MAX_NESTING).then_some(d)
            })
            .is_none()
}

#[derive(Default, Debug)]
struct Tally {
    accepted: usize,
    rejected: usize,
    rejected_same_line: usize,
    rejected_same_place: usize,
    left_out: usize,
    their_panics: usize,
    mismatches: Vec<String>,
}

impl Tally {
    fn check(&mut self, text: &str) {
        let Ok(t) = std::panic::catch_unwind(|| theirs(text)) else {
            // yaml-rust2 panics (an `unwrap` in its scanner): nothing to compare, but
            // this reader must not panic.
            self.their_panics += 1;
            if std::panic::catch_unwind(|| ours(text)).is_err() {
                self.mismatches.push(format!("panic on {text:?}"));
            }
            return;
        };
        if deliberate_difference(text, &t) {
            self.left_out += 1;
            return;
        }
        let Ok(mut o) = std::panic::catch_unwind(|| ours(text)) else {
            self.mismatches.push(format!("panic on {text:?}"));
            return;
        };
        let mut t = t;
        if !text.is_ascii() {
            for e in t.0.iter_mut().chain(o.0.iter_mut()) {
                e.3 = 0;
            }
        }
        match (&t.1, &o.1) {
            (None, _) => {
                self.accepted += 1;
                if t != o {
                    let i = t.0.iter().zip(&o.0).take_while(|(a, b)| a == b).count();
                    self.mismatches.push(format!(
                        "{text:?}\n  yaml-rust2: {:?} {:?}\n  ours:       {:?} {:?}",
                        t.0.get(i),
                        t.1,
                        o.0.get(i),
                        o.1
                    ));
                }
            }
            (Some(te), oe) => {
                self.rejected += 1;
                match oe {
                    None => self.mismatches.push(format!(
                        "{text:?}\n  yaml-rust2 fails: {te:?}; ours reads it"
                    )),
                    Some(oe) => {
                        if te.0 == oe.0 {
                            self.rejected_same_line += 1;
                        }
                        // The messages differ on purpose: go-yaml's short ones here.
                        if (te.0, te.1) == (oe.0, oe.1) && t.0 == o.0 {
                            self.rejected_same_place += 1;
                        }
                    }
                }
            }
        }
    }
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with('.') || name == "node_modules" || name == "target" {
            continue;
        }
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The contents of Rust string literals ("..." with escapes, r#"..."#).
fn rust_strings(src: &str, out: &mut Vec<String>) {
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'\'' {
            // A char literal ('"', '\'') or a lifetime: step over it.
            if b.get(i + 2) == Some(&b'\'') {
                i += 3;
            } else if b.get(i + 1) == Some(&b'\\') {
                i = src[i + 2..].find('\'').map_or(b.len(), |j| i + 3 + j);
            } else {
                i += 1;
            }
        } else if b[i] == b'r' && (b.get(i + 1) == Some(&b'#') || b.get(i + 1) == Some(&b'"')) {
            let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
            if b.get(i + 1 + hashes) != Some(&b'"') {
                i += 1;
                continue;
            }
            let start = i + 2 + hashes;
            let close = format!("\"{}", "#".repeat(hashes));
            let end = src[start..].find(&close).map_or(b.len(), |j| start + j);
            out.push(src[start..end].to_string());
            i = end + close.len();
        } else if b[i] == b'"' {
            let mut s = String::new();
            let mut j = i + 1;
            let mut chars = src[j..].char_indices();
            while let Some((k, c)) = chars.next() {
                match c {
                    '"' => {
                        j += k + 1;
                        break;
                    }
                    '\\' => match chars.next() {
                        Some((_, 'n')) => s.push('\n'),
                        Some((_, 't')) => s.push('\t'),
                        Some((_, 'r')) => s.push('\r'),
                        Some((_, '0')) => s.push('\0'),
                        Some((_, 'u')) => {
                            let mut hexs = String::new();
                            for (_, c) in chars.by_ref() {
                                if c == '}' {
                                    break;
                                }
                                if c != '{' {
                                    hexs.push(c);
                                }
                            }
                            if let Some(c) =
                                u32::from_str_radix(&hexs, 16).ok().and_then(char::from_u32)
                            {
                                s.push(c);
                            }
                        }
                        Some((_, '\n')) => {
                            // A continued line: the next line's leading blanks go.
                            let rest = chars.as_str();
                            let skip = rest.len() - rest.trim_start().len();
                            for _ in 0..rest[..skip].chars().count() {
                                chars.next();
                            }
                        }
                        Some((_, c)) => s.push(c),
                        None => {}
                    },
                    c => s.push(c),
                }
                j = i + 1 + k + c.len_utf8();
            }
            out.push(s);
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
}

/// Fenced code blocks of Markdown and the contents of JavaScript template literals.
fn fenced_and_templates(src: &str, out: &mut Vec<String>) {
    for (n, part) in src.split("```").enumerate() {
        if n % 2 == 1 {
            let body = part.split_once('\n').map_or("", |(_, b)| b);
            out.push(body.to_string());
        }
    }
    for (n, part) in src.split('`').enumerate() {
        if n % 2 == 1 && part.contains('\n') && !part.contains("${") {
            out.push(part.to_string());
        }
    }
}

/// JSON string values (conformance vectors hold pastes as strings).
fn json_strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|v| json_strings(v, out)),
        serde_json::Value::Object(o) => o.values().for_each(|v| json_strings(v, out)),
        _ => {}
    }
}

/// The YAML (and YAML-like) texts of the repository.
fn corpus() -> Vec<String> {
    let root = repo_root();
    let mut files = Vec::new();
    for d in [
        "input/tests",
        "input/src",
        "input/benches",
        "tests/parity/pastes",
        "tests/parity/tests",
        "tests/conformance/vectors",
        "scenario/src",
        "scenario/tests",
        "json/src",
        "json/tests",
        "web/tests",
        "web/src",
        "wasm/js/test",
        "wasm/js/src",
        "wasm/js/README.md",
        "docs",
        "README.md",
    ] {
        let p = root.join(d);
        if p.is_file() {
            files.push(p);
        } else {
            walk(&p, &mut files);
        }
    }
    let mut texts = Vec::new();
    for f in &files {
        let Ok(src) = std::fs::read_to_string(f) else {
            continue;
        };
        let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
        match ext {
            "rs" => rust_strings(&src, &mut texts),
            "json" => match serde_json::from_str::<serde_json::Value>(&src) {
                Ok(v) => json_strings(&v, &mut texts),
                Err(_) => texts.push(src),
            },
            "md" | "js" | "mjs" | "ts" | "html" | "tsx" | "jsx" => {
                fenced_and_templates(&src, &mut texts);
            }
            "yaml" | "yml" | "txt" | "" => texts.push(src),
            _ => {}
        }
    }
    // The generated samples the benches read.
    for v in [
        crate::sample::nodes_list(3),
        crate::sample::pods_list(3),
        crate::sample::node(7),
        crate::sample::pod(7),
    ] {
        texts.push(crate::sample::to_kubectl_yaml(&v));
    }
    texts.extend(HAND_WRITTEN.iter().map(|s| s.to_string()));
    texts.retain(|t| !t.is_empty() && t.len() < 2_000_000);
    texts.sort();
    texts.dedup();
    texts
}

/// What Kubernetes users paste, and the corners of YAML around it.
const HAND_WRITTEN: &[&str] = &[
    "a: 1\nb:\n- x\n- y\nc:\n  - d: 1\n    e: 2\n  - - nested\n    - more\n",
    "spec:\n  tolerations:\n  - key: a\n    operator: Exists\n  - {key: b, effect: NoSchedule}\n",
    "list: [a, [b, c], {d: e}, 'f', \"g\"]\nmap: {a: [1, 2], b: {c: d}}\n",
    "multi: [a,\n  b,\n  {c: d,\n   e: f}]\n",
    "plain: this is\n  folded over\n\n  lines\nnext: a:b c #d e\n",
    "sq: 'it''s\n  folded'\ndq: \"esc \\x41 \\u00e9 \\U0001F600 \\t \\\\ \\\" \\/ \\N \\_ \\L \\P \\e \\0\"\n",
    "dq: \"line\\\n  joined\"\nfold: \"a\n\n  b\"\n",
    "lit: |\n  a\n   b\n\n  c\nfold: >\n  a\n  b\n\n  c\n   d\nstrip: |-\n  x\n\nkeep: |+\n  y\n\nind: |2\n   z\nind2: >-1\n  w\n",
    "# comment\n%YAML 1.1\n%TAG !e! tag:example.com,2000:\n---\na: !e!foo 1\nb: !!str 2\nc: !local 3\nd: !<tag:yaml.org,2002:int> 4\ne: ! 5\n...\n---\nx: y\n",
    "anchors: &a {k: v}\nref: *a\nmerge:\n  <<: *a\n  k2: v2\nredef: &a 1\nagain: *a\n",
    "? explicit key\n: explicit value\n? [complex, key]\n: v\n? k\n",
    "\u{feff}a: 1\n",
    "a: 1\r\nb:\r\n  - c\r\n  - d\r\n",
    "a:\n\t- b\n",
    "a: b\n\tc: d\n",
    "key: [a, b\nc: d\n",
    "a: b: c\n",
    "- a\nb: c\n",
    "a: 'unterminated\n",
    "a: \"bad \\q escape\"\n",
    "a: @x\n",
    "a: *unknown\n",
    "---\na: 1\n---\nb: 2\n...\n",
    "--- |\n  text\n--- >\n  folded\n",
    "[a, b]: c\n",
    "{a: b}\n",
    "- [a, b]\n- {c: d}\n- - e\n  - f\n- ? g\n  : h\n",
    "a: - b\n",
    "a:\n  - b\n  -c\n",
    "a: |\n  x\n b\n",
    "- &x a\n- *x\n- &y [1]\n- !!seq *y\n",
    "[a: b, c]\n{a: b, c}\n",
    "a: [1, 2, 3]\n---\nb: [{a: 1}: x]\n",
    "%FOO bar\n---\na\n",
    "%YAML 1.1\n%YAML 1.2\n---\na\n",
    "a\n%YAML 1.1\n---\nb\n",
    "key:    value with trailing spaces   \nother:\tx\n",
    "a: b #c\nd: 'e' #f\ng: \"h\"#i\n",
    "a: [b #c\n, d]\n",
    "!!map {a: b}\n",
    "&a\n- b\n",
    "- a\n - b\n",
    "  a: 1\n b: 2\n",
    "a:\n  b: 1\n c: 2\n",
];

/// Every one-character deletion and indicator insertion of `text`.
fn mutations(text: &str) -> Vec<String> {
    const INSERT: [&str; 19] = [
        ":", "-", "#", "'", "\"", "[", "]", "{", "}", "|", ">", "&", "*", "!", "?", "\t", "\n",
        " ", ",",
    ];
    let mut out = Vec::new();
    let places: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    for (n, &i) in places.iter().enumerate() {
        if let Some(&next) = places.get(n + 1) {
            out.push(format!("{}{}", &text[..i], &text[next..]));
        }
        for s in INSERT {
            out.push(format!("{}{s}{}", &text[..i], &text[i..]));
        }
    }
    out
}

#[test]
fn reads_every_repository_text_like_yaml_rust2() {
    let texts = corpus();
    assert!(texts.len() > 500, "only {} texts found", texts.len());
    let mut tally = Tally::default();
    for t in &texts {
        tally.check(t);
    }
    println!("repository texts: {} {tally:?}", texts.len());
    assert!(
        tally.mismatches.is_empty(),
        "{} of {} differ:\n{}",
        tally.mismatches.len(),
        texts.len(),
        tally.mismatches[..tally.mismatches.len().min(20)].join("\n")
    );
    assert!(tally.accepted > 300 && tally.rejected > 100, "{tally:?}");
    // Every rejected text fails at the same line and column, after the same events.
    assert_eq!(tally.rejected_same_place, tally.rejected, "{tally:?}");
}

#[test]
fn reads_mutated_small_documents_like_yaml_rust2() {
    // The small texts that look like YAML documents, each mutated at every place.
    let texts: Vec<String> = corpus()
        .into_iter()
        .filter(|t| (8..=200).contains(&t.len()) && t.contains(':') && t.contains('\n'))
        .collect();
    assert!(texts.len() > 100, "only {} small texts", texts.len());
    let mut tally = Tally::default();
    let mut n = 0;
    for t in &texts {
        for m in mutations(t) {
            n += 1;
            tally.check(&m);
        }
    }
    println!("{} small texts, {n} mutations: {tally:?}", texts.len());
    assert!(
        tally.mismatches.is_empty(),
        "{} of {n} differ:\n{}",
        tally.mismatches.len(),
        tally.mismatches[..tally.mismatches.len().min(20)].join("\n")
    );
    assert!(tally.rejected > 10_000, "{tally:?}");
    assert_eq!(tally.rejected_same_place, tally.rejected, "{tally:?}");
}

#[test]
fn a_leading_byte_order_mark_is_skipped() {
    let (events, error) = ours("\u{feff}a: 1\n");
    assert_eq!(error, None);
    assert_eq!(events[3].0, "=VAL 0 None :\"a\"");
    assert_eq!((events[3].1, events[3].2), (1, 0));
}

#[test]
fn nesting_is_limited() {
    let deep = |n: usize| format!("{}x\n", "- ".repeat(n));
    assert_eq!(ours(&deep(MAX_NESTING)).1, None);
    let (_, error) = ours(&deep(MAX_NESTING + 1));
    let (line, col, info) = error.expect("an error");
    assert_eq!(
        (line, col, info.as_str()),
        (1, 2 * MAX_NESTING, "recursion limit exceeded")
    );
    // Flow collections: the scanner's own limit, as in yaml-rust2.
    let text = format!("{}{}", "[".repeat(300), "]".repeat(300));
    assert_eq!(ours(&text).1, theirs(&text).1);
}

#[test]
fn distinct_anchor_names_are_limited() {
    let anchors = |n: usize| (0..n).map(|i| format!("- &a{i} x\n")).collect::<String>();
    let text = anchors(super::MAX_ANCHORS);
    assert_eq!(ours(&text).1, None);
    // A name defined again is not a new name.
    assert_eq!(ours(&format!("{text}- &a0 y\n- *a0\n")).1, None);
    let (_, error) = ours(&format!("{text}- &b y\n"));
    let (line, col, info) = error.expect("an error");
    assert_eq!(
        (line, col, info.as_str()),
        (super::MAX_ANCHORS + 1, 2, "too many anchors")
    );
}

#[test]
fn nul_bytes_and_stray_bytes_end_or_fail_without_panicking() {
    // The value tree replaces NUL before reading; the reader itself ends the stream there,
    // as yaml-rust2 does.
    for text in [
        "a: 1\0b: 2\n",
        "\0",
        "- |\n  x\0",
        "'a\0",
        "\"\\x4\0",
        "&\0",
        "!<\0",
        "%TAG\0",
    ] {
        let (o, t) = (ours(text), theirs(text));
        assert_eq!(o.0, t.0, "{text:?}");
        let place = |r: &Run| r.1.as_ref().map(|e| (e.0, e.1));
        assert_eq!(place(&o), place(&t), "{text:?}");
    }
}
