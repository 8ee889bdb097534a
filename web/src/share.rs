//! The state outside the page: the share link (versioned, deflate + base64url in the URL
//! fragment), local storage, and the YAML export/import file.
//!
//! Links come from anywhere, so decoding is bounded at every step (fragment length,
//! inflated size) and every failure is a plain error; nothing in a link is ever
//! interpreted as markup (the app renders text nodes only).

use std::rc::Rc;

use serde_json::Value;
use taintlab_input::{Code, Limits, Options, Severity};

use crate::store::State;

/// Share-link format version.
pub const VERSION: &str = "1";
/// Longest share link this page creates (characters of the fragment).
pub const MAX_SHARE_CHARS: usize = 100_000;
/// Longest fragment this page reads; longer ones are refused before decoding.
pub const MAX_FRAGMENT_CHARS: usize = 400_000;
/// Largest state a link may inflate to.
pub const MAX_STATE_BYTES: usize = 8 * 1024 * 1024;
/// Largest state kept in local storage (browsers allow about 5 MB per origin).
pub const MAX_LOCAL_BYTES: usize = 2 * 1024 * 1024;
/// Local storage key of the last state.
pub const STATE_KEY: &str = "taintlab.state.v1";
/// Largest import file read.
pub const MAX_IMPORT_BYTES: usize = 64 * 1024 * 1024;

/// Why a share link could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// No `s=` part.
    Missing,
    /// A `v=` other than [`VERSION`] (the text is shortened).
    Version(String),
    /// Longer than [`MAX_FRAGMENT_CHARS`].
    TooLarge,
    /// Not base64url.
    Encoding,
    /// Not deflate data, or larger than [`MAX_STATE_BYTES`] once inflated.
    Inflate,
    /// Not a state (serde's message).
    Json(String),
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url without padding.
pub fn b64_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            let idx = (n >> (18 - 6 * i)) & 63;
            out.push(char::from(B64[idx as usize]));
        }
    }
    out
}

fn b64_value(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' | b'+' => 62,
        b'_' | b'/' => 63,
        _ => return None,
    } as u32)
}

/// base64url (also accepts the standard alphabet and trailing `=`); `None` on any other
/// character or an impossible length.
pub fn b64_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.trim_end_matches('=').as_bytes();
    if bytes.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3 + 2);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= b64_value(c)? << (18 - 6 * i);
        }
        let take = chunk.len() - 1;
        for i in 0..take {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

/// The fragment (without `#`) that carries `state`, or `Err(length)` when it would be
/// longer than [`MAX_SHARE_CHARS`].
pub fn encode_fragment(state: &State) -> Result<String, usize> {
    let json = serde_json::to_vec(state).unwrap_or_default();
    let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    let fragment = format!("v={VERSION}&s={}", b64_encode(&packed));
    if fragment.len() > MAX_SHARE_CHARS {
        Err(fragment.len())
    } else {
        Ok(fragment)
    }
}

/// Reads a fragment (with or without `#`). `Ok(None)` when it carries no state at all
/// (an empty fragment or an in-page anchor), so the page starts normally.
pub fn decode_fragment(fragment: &str) -> Result<Option<State>, LinkError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if fragment.is_empty() || !fragment.contains('=') {
        return Ok(None);
    }
    if fragment.len() > MAX_FRAGMENT_CHARS {
        return Err(LinkError::TooLarge);
    }
    let mut version = None;
    let mut payload = None;
    for part in fragment.split('&') {
        match part.split_once('=') {
            Some(("v", v)) => version = Some(v),
            Some(("s", s)) => payload = Some(s),
            _ => {}
        }
    }
    match version {
        Some(VERSION) => {}
        Some(other) => return Err(LinkError::Version(other.chars().take(16).collect())),
        None if payload.is_none() => return Ok(None),
        None => return Err(LinkError::Version(String::new())),
    }
    let payload = payload.ok_or(LinkError::Missing)?;
    let packed = b64_decode(payload).ok_or(LinkError::Encoding)?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_STATE_BYTES)
        .map_err(|_| LinkError::Inflate)?;
    // One deserializer for every source (link, storage, import) keeps the wasm small.
    let text = std::str::from_utf8(&json).map_err(|e| LinkError::Json(e.to_string()))?;
    let state: State =
        serde_json::from_str(text).map_err(|e| LinkError::Json(shorten(&e.to_string())))?;
    Ok(Some(state))
}

fn shorten(s: &str) -> String {
    if s.chars().count() <= 200 {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(200).collect();
        t.push('…');
        t
    }
}

/// The state as local storage keeps it, or `None` when it is too large.
pub fn to_local(state: &State) -> Option<String> {
    // Checked before serializing: a pasted cluster can be tens of megabytes.
    if state.nodes.len() + state.pods.len() > MAX_LOCAL_BYTES {
        return None;
    }
    let json = serde_json::to_string(state).ok()?;
    (json.len() <= MAX_LOCAL_BYTES).then_some(json)
}

/// Reads local storage's copy; anything unreadable is ignored.
pub fn from_local(json: &str) -> Option<State> {
    serde_json::from_str(json).ok()
}

// ---------------------------------------------------------------------------------------
// YAML export and import
// ---------------------------------------------------------------------------------------

/// Writes `text` as a YAML scalar that reads back byte for byte: a literal block with
/// an explicit indentation indicator, or a double-quoted string when the text has
/// characters a block cannot carry.
fn yaml_text(text: &str, indent: usize) -> String {
    if text.is_empty() {
        return "\"\"".into();
    }
    let plain_lines = !text.chars().any(|c| {
        (c.is_control() && c != '\n' && c != '\t')
            || c == '\u{feff}'
            || c == '\u{85}'
            || c == '\u{2028}'
            || c == '\u{2029}'
    });
    if !plain_lines {
        return serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into());
    }
    let chomp = if text.ends_with('\n') { "+" } else { "-" };
    let pad = " ".repeat(indent);
    let mut out = format!("|{indent}{chomp}\n");
    let body = text.strip_suffix('\n').unwrap_or(text);
    for line in body.split('\n') {
        if !line.is_empty() {
            out.push_str(&pad);
            out.push_str(line);
        }
        out.push('\n');
    }
    // `|+` keeps every trailing line break: the one removed above is the line end of
    // the last line, so extra empty lines are already there.
    out
}

/// The export file: the two panes as literal text, everything else as a JSON mapping
/// (JSON is YAML).
pub fn export_yaml(state: &State) -> String {
    let mut rest = serde_json::to_value(state).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut rest {
        m.remove("nodes");
        m.remove("pods");
    }
    let mut out = String::from(
        "# Taintlab playground state. Open the playground and use \"Import YAML\" to load it.\n",
    );
    out.push_str("taintlab: 1\n");
    out.push_str("nodes: ");
    out.push_str(&yaml_text(&state.nodes, 2));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str("pods: ");
    out.push_str(&yaml_text(&state.pods, 2));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str("settings: ");
    out.push_str(&serde_json::to_string(&rest).unwrap_or_else(|_| "{}".into()));
    out.push('\n');
    out
}

/// Checks the file with the input layer's YAML reader and its limits (size, nesting,
/// alias expansion, documents): a hostile or broken file is refused in milliseconds
/// with the reader's located message, before anything else reads it.
fn check_yaml(text: &str) -> Result<(), String> {
    let opts = Options {
        limits: Limits {
            max_input_bytes: MAX_IMPORT_BYTES,
            ..Limits::default()
        },
        ..Options::default()
    };
    let parsed = taintlab_input::parse_yaml(text, &opts);
    let fatal = parsed.diagnostics.iter().find(|d| {
        d.severity == Severity::Error
            && matches!(
                d.code,
                Code::YamlSyntax
                    | Code::InputTooLarge
                    | Code::TooDeep
                    | Code::AliasBomb
                    | Code::UnknownAnchor
                    | Code::TooManyDocuments
            )
    });
    match fatal {
        Some(d) if d.location.line > 0 => Err(format!("line {}: {}", d.location.line, d.message)),
        Some(d) => Err(d.message.clone()),
        None => Ok(()),
    }
}

/// One top-level value of the export file.
enum Scalar {
    Text(String),
    Json(Value),
}

fn unsupported(line: usize) -> String {
    format!(
        "line {line}: not a file written by Export YAML (only `key: value` lines, `|` blocks, quoted text and JSON mappings are read)"
    )
}

/// Reads the block scalar that starts after `header` (`|`, `|2+`, `|-`...) on line
/// `at` (0-based); returns the text and the next line to read.
fn block(lines: &[&str], at: usize, header: &str) -> Result<(String, usize), String> {
    let spec = header.trim_start_matches('|').trim_end();
    let mut indent: Option<usize> = None;
    let mut chomp = ' ';
    for c in spec.chars() {
        match c {
            '+' | '-' if chomp == ' ' => chomp = c,
            '1'..='9' if indent.is_none() => indent = c.to_digit(10).map(|d| d as usize),
            _ => return Err(unsupported(at + 1)),
        }
    }
    let mut end = at + 1;
    while end < lines.len() {
        let l = lines[end];
        if !l.trim().is_empty() && !l.starts_with(' ') {
            break;
        }
        end += 1;
    }
    let body = &lines[at + 1..end];
    let indent = indent.unwrap_or_else(|| {
        body.iter()
            .find(|l| !l.trim().is_empty())
            .map_or(0, |l| l.len() - l.trim_start_matches(' ').len())
    });
    let mut out = String::new();
    for l in body {
        out.push_str(l.get(indent..).unwrap_or(""));
        out.push('\n');
    }
    match chomp {
        '+' => {}
        '-' => out.truncate(out.trim_end_matches('\n').len()),
        _ => {
            out.truncate(out.trim_end_matches('\n').len());
            if !out.is_empty() {
                out.push('\n');
            }
        }
    }
    Ok((out, end))
}

/// Reads the top-level mapping of a file Export YAML wrote (checked by [`check_yaml`]
/// first): `key: value` lines whose value is a `|` block, double-quoted text, a JSON
/// mapping (possibly over several indented lines) or a plain word.
fn read_export(text: &str) -> Result<Vec<(String, Scalar)>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed == "---" {
            i += 1;
            continue;
        }
        if line.starts_with(' ') {
            return Err(unsupported(i + 1));
        }
        let Some((key, rest)) = line.split_once(':') else {
            return Err(unsupported(i + 1));
        };
        let key = key.trim().to_string();
        let rest = rest.trim();
        if rest.starts_with('|') {
            let (body, next) = block(&lines, i, rest)?;
            out.push((key, Scalar::Text(body)));
            i = next;
            continue;
        }
        // A value may continue on indented lines (a JSON mapping that was re-wrapped).
        let mut value = rest.to_string();
        i += 1;
        while i < lines.len() && lines[i].starts_with(' ') {
            value.push(' ');
            value.push_str(lines[i].trim());
            i += 1;
        }
        let value = value.trim();
        let scalar = if value.starts_with('"') || value.starts_with('{') || value.starts_with('[') {
            Scalar::Json(serde_json::from_str(value).map_err(|_| unsupported(i))?)
        } else if let Ok(n) = value.parse::<i64>() {
            Scalar::Json(Value::from(n))
        } else if value.is_empty() || value == "~" || value == "null" {
            Scalar::Json(Value::Null)
        } else if value.starts_with(['\'', '&', '*', '!', '%', '@', '`']) {
            return Err(unsupported(i));
        } else {
            Scalar::Text(value.to_string())
        };
        out.push((key, scalar));
    }
    Ok(out)
}

/// Checks a file's size before it is read, so a file of gigabytes is refused without
/// being loaded into memory (the same limit [`import_yaml`] applies to the text).
pub fn check_import_size(bytes: f64) -> Result<(), String> {
    if bytes <= MAX_IMPORT_BYTES as f64 {
        return Ok(());
    }
    Err(format!(
        "the file is {bytes} bytes, more than the limit of {MAX_IMPORT_BYTES} bytes ({} MiB); nothing was read",
        MAX_IMPORT_BYTES / (1024 * 1024)
    ))
}

/// Reads an export file back.
pub fn import_yaml(text: &str) -> Result<State, String> {
    check_yaml(text)?;
    let fields = read_export(text)?;
    if fields.is_empty() {
        return Err("the file is empty".into());
    }
    let mut m = serde_json::Map::new();
    for (k, v) in fields {
        let v = match v {
            Scalar::Text(s) => Value::String(s),
            Scalar::Json(v) => v,
        };
        m.insert(k, v);
    }
    if m.get("taintlab").and_then(Value::as_i64) != Some(1) {
        return Err("the file is not a Taintlab state (no `taintlab: 1`)".into());
    }
    let mut settings = match m.remove("settings") {
        Some(Value::Object(s)) => s,
        None | Some(Value::Null) => serde_json::Map::new(),
        Some(_) => return Err("`settings` must be a mapping".into()),
    };
    for key in ["nodes", "pods"] {
        match m.remove(key) {
            Some(Value::String(s)) => {
                settings.insert(key.into(), Value::String(s));
            }
            None | Some(Value::Null) => {}
            Some(_) => return Err(format!("`{key}` must be text")),
        }
    }
    serde_json::from_str(&Value::Object(settings).to_string()).map_err(|e| e.to_string())
}

/// A short file name for the export.
pub fn export_file_name() -> &'static str {
    "taintlab-state.yaml"
}

/// `Rc<str>` helper for tests and callers.
pub fn rc(s: &str) -> Rc<str> {
    Rc::from(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Failure, Step, StepOp, Tab};

    fn sample() -> State {
        let mut s = State {
            nodes: rc("kubectl taint nodes n1 a=b:NoSchedule\n  indented first?\n\n\n"),
            pods: rc("  leading spaces\ttab\n# comment\ntrailing spaces   \nno newline at end"),
            version: "1.34.3".into(),
            comparison_operators: true,
            tab: Tab::Timeline,
            ..State::default()
        };
        s.scenario.steps.push(Step {
            at: 60,
            node: "n1".into(),
            op: StepOp::Add,
            taint: "k:NoExecute".into(),
        });
        s.scenario.failure = Some(Failure {
            recovers_at: Some(200),
            ..Failure::default()
        });
        s.admission.namespace_default = Some(rc("[{\"key\":\"x\",\"operator\":\"Exists\"}]"));
        s.scenario.actions = "at 0 drain n1 --ignore-daemonsets\nat 60 fail n2".into();
        s.scenario.until = 900;
        s
    }

    #[test]
    fn share_links_carry_the_what_if_actions_as_scenario_actions() {
        let s = sample();
        let f = encode_fragment(&s).expect("small");
        let packed = b64_decode(f.strip_prefix("v=1&s=").expect("v=1")).expect("base64");
        let json = miniz_oxide::inflate::decompress_to_vec(&packed).expect("deflate");
        let v: Value = serde_json::from_slice(&json).expect("json");
        assert_eq!(
            v.pointer("/scenario/actions").and_then(Value::as_str),
            Some("at 0 drain n1 --ignore-daemonsets\nat 60 fail n2")
        );
        assert_eq!(
            v.pointer("/scenario/until").and_then(Value::as_i64),
            Some(900)
        );
        // A link from before the field existed opens with no actions.
        let mut old = v.clone();
        if let Some(sc) = old.get_mut("scenario").and_then(Value::as_object_mut) {
            sc.remove("actions");
            sc.remove("until");
        }
        let packed = miniz_oxide::deflate::compress_to_vec(old.to_string().as_bytes(), 9);
        let back = decode_fragment(&format!("v=1&s={}", b64_encode(&packed)))
            .expect("valid")
            .expect("state");
        assert_eq!(back.scenario.actions, "");
        assert_eq!(back.scenario.until, 0);
    }

    #[test]
    fn base64url_round_trips_every_length() {
        for n in 0..70 {
            let data: Vec<u8> = (0..n).map(|i| (i * 37 + 11) as u8).collect();
            let e = b64_encode(&data);
            assert!(!e.contains(['+', '/', '=']));
            assert_eq!(b64_decode(&e).as_deref(), Some(&data[..]), "length {n}");
        }
        assert_eq!(b64_decode("a"), None);
        assert_eq!(b64_decode("ab$d"), None);
    }

    #[test]
    fn share_link_restores_the_state_exactly() {
        let s = sample();
        let f = encode_fragment(&s).expect("small");
        assert!(f.starts_with("v=1&s="));
        let back = decode_fragment(&format!("#{f}"))
            .expect("valid")
            .expect("state");
        assert_eq!(back, s);
    }

    #[test]
    fn hostile_links_are_plain_errors() {
        assert_eq!(decode_fragment(""), Ok(None));
        assert_eq!(decode_fragment("#results"), Ok(None));
        assert_eq!(
            decode_fragment("#v=2&s=abc"),
            Err(LinkError::Version("2".into()))
        );
        assert_eq!(decode_fragment("#v=1"), Err(LinkError::Missing));
        assert_eq!(decode_fragment("#v=1&s=%%%%"), Err(LinkError::Encoding));
        assert_eq!(decode_fragment("#v=1&s=AAAA"), Err(LinkError::Inflate));
        let huge = format!("#v=1&s={}", "A".repeat(MAX_FRAGMENT_CHARS));
        assert_eq!(decode_fragment(&huge), Err(LinkError::TooLarge));
        // A deflate bomb: 20 MB of zeros compresses to a few KB.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 20 * 1024 * 1024], 9);
        assert!(bomb.len() < MAX_FRAGMENT_CHARS);
        assert_eq!(
            decode_fragment(&format!("v=1&s={}", b64_encode(&bomb))),
            Err(LinkError::Inflate)
        );
        // Valid compression of something that is not a state.
        let not_state = miniz_oxide::deflate::compress_to_vec(b"[1,2]", 9);
        assert!(matches!(
            decode_fragment(&format!("v=1&s={}", b64_encode(&not_state))),
            Err(LinkError::Json(_))
        ));
        // Markup is just text in the state.
        let s = State {
            nodes: rc("<script>alert(1)</script>"),
            ..State::default()
        };
        let f = encode_fragment(&s).expect("small");
        assert_eq!(
            decode_fragment(&f).expect("ok").expect("state").nodes,
            s.nodes
        );
    }

    #[test]
    fn yaml_export_round_trips_exactly() {
        for s in [sample(), State::default()] {
            let y = export_yaml(&s);
            let back = import_yaml(&y).unwrap_or_else(|e| panic!("{e}\n{y}"));
            assert_eq!(back, s, "{y}");
        }
        let odd = State {
            nodes: rc("carriage\r\nreturn\u{0}nul"),
            pods: rc("\n\nstarts with blank lines\n"),
            ..State::default()
        };
        let back = import_yaml(&export_yaml(&odd)).expect("valid");
        assert_eq!(back, odd);
    }

    #[test]
    fn import_rejects_other_files() {
        assert!(import_yaml("apiVersion: v1\nkind: Pod\n").is_err());
        assert!(import_yaml("").is_err());
        assert!(import_yaml("taintlab: 1\nnodes: [1]\n").is_err());
        assert!(import_yaml("{").is_err());
        assert!(import_yaml("taintlab: 1\nnodes: &a x\n").is_err());
    }

    #[test]
    fn hostile_imports_are_refused_quickly_with_a_clear_error() {
        let started = std::time::Instant::now();
        // A 412-byte alias bomb.
        let mut bomb = String::from("taintlab: 1\na: &a [x, x, x, x, x, x, x, x, x]\n");
        for (i, name) in ["b", "c", "d", "e", "f", "g", "h", "i"].iter().enumerate() {
            let prev = ["a", "b", "c", "d", "e", "f", "g", "h"][i];
            bomb.push_str(&format!("{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
        }
        let e = import_yaml(&bomb).expect_err("an alias bomb");
        assert!(e.contains("alias"), "{e}");
        let deep = format!(
            "taintlab: 1\nsettings: {}{}\n",
            "[".repeat(5000),
            "]".repeat(5000)
        );
        let e = import_yaml(&deep).expect_err("too deep");
        assert!(e.contains("nest") || e.contains("deep"), "{e}");
        let big = format!("taintlab: 1\nnodes: \"{}\"\n", "x".repeat(MAX_IMPORT_BYTES));
        let e = import_yaml(&big).expect_err("too large");
        assert!(e.contains("bytes"), "{e}");
        assert!(started.elapsed().as_secs() < 10);
    }

    #[test]
    fn oversized_files_are_refused_before_reading() {
        assert!(check_import_size(MAX_IMPORT_BYTES as f64).is_ok());
        let e = check_import_size(MAX_IMPORT_BYTES as f64 + 1.0).expect_err("too large");
        assert!(e.contains("67108865 bytes") && e.contains("64 MiB"), "{e}");
        assert!(check_import_size(4e9).is_err());
    }

    #[test]
    fn hand_edited_exports_still_read() {
        let s = import_yaml(
            "taintlab: 1\nnodes: |\n  kubectl taint nodes n1 a=b:NoSchedule\n\npods: \"tolerations: []\"\nsettings:\n  {\"version\": \"1.33\",\n   \"comparisonOperators\": false}\n",
        )
        .expect("a state");
        assert_eq!(&*s.nodes, "kubectl taint nodes n1 a=b:NoSchedule\n");
        assert_eq!(&*s.pods, "tolerations: []");
        assert_eq!(s.version, "1.33");
    }
}
