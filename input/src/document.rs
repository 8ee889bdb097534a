//! One YAML or JSON document read whole ([`document`]): for files that are not pastes of
//! Kubernetes objects but are read as plain data (the Kubewarden policy's settings, an
//! AdmissionRequest, a configuration file), through the same readers and [`Limits`] as
//! every paste.
//!
//! The paste readers keep only the parts of an object the semantics read (see
//! [`crate::tree::Ctx`]); here the root is read in [`Ctx::Any`], so nothing is pruned.
//! Scalars, merge keys, alias expansion, depth and size limits, and errors are the
//! readers' own.

use crate::diag::{Code, Diagnostic, Location};
use crate::tree::{Ctx, Kind, Limits, Value};
use crate::{Options, Severity, json, yaml};

/// A value of a document read by [`document`], and where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct DocumentNode {
    /// 1-based line where the value starts (a mapping: its first key).
    pub line: usize,
    /// 1-based column where the value starts, counted in characters.
    pub column: usize,
    /// The value.
    pub value: DocumentValue,
}

/// What a [`DocumentNode`] holds, in JSON's terms: what kubectl sends to the API server
/// for the same text (sigs.k8s.io/yaml `YAMLToJSON` for YAML, with YAML 1.1 scalars).
#[derive(Clone, Debug, PartialEq)]
pub enum DocumentValue {
    /// `null`, `~` or nothing.
    Null,
    /// A boolean (YAML 1.1: also `yes`, `no`, `on`, `off`, `y`, `n` in any of their
    /// spellings).
    Bool(bool),
    /// A number as JSON text, as kubectl would send it (YAML `0x1F` is `31`, YAML `1.0`
    /// is `1`; JSON numbers as written).
    Number(String),
    /// A string.
    String(String),
    /// A sequence.
    List(Vec<DocumentNode>),
    /// A mapping in source order, each key once (the last of repeated keys wins, as in
    /// Go's decoders; the repetition is a warning). Keys are JSON strings (YAML `true:`
    /// is `"true"`, as kubectl converts it).
    Map(Vec<(String, DocumentNode)>),
}

/// A document read by [`document`].
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The document's value.
    pub root: DocumentNode,
    /// What the reader noticed without failing (a repeated key).
    pub warnings: Vec<Diagnostic>,
}

/// Reads one YAML or JSON document whole. Text whose first character (after
/// whitespace) is `{` or `[` is read as JSON, and as YAML flow style when it is not
/// JSON (`{key: a}`), as the paste readers do; anything else as YAML 1.1, the way
/// kubectl reads it. Every limit of `limits` applies; the first error is returned,
/// located (document 1, line, column). More than one document is an error (at the second
/// one), and so is an empty text, and a YAML number JSON cannot carry (`.inf`, `.nan`).
///
/// ```
/// use taintlab_input::{Limits, DocumentValue, document};
/// let d = document("allowed: yes\nlimit: 0x1F\n", &Limits::default()).unwrap();
/// let DocumentValue::Map(m) = &d.root.value else { panic!() };
/// assert_eq!(m[0].1.value, DocumentValue::Bool(true));
/// assert_eq!(m[1].1.value, DocumentValue::Number("31".into()));
/// let e = document("a: [1,\nb: 2\n", &Limits::default()).unwrap_err();
/// assert_eq!(e.location.line, 2);
/// ```
pub fn document(text: &str, limits: &Limits) -> Result<Document, Diagnostic> {
    let opts = Options {
        limits: *limits,
        ..Options::default()
    };
    if let Some(mut p) = crate::too_large(text, &opts) {
        return Err(p.diagnostics.remove(0));
    }
    let start = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    if start.starts_with(['{', '[']) {
        let mut warnings = Vec::new();
        return match json::parse_whole(text, limits, &mut warnings) {
            Ok(root) => Ok(Document {
                root: node(root)?,
                warnings,
            }),
            // `{key: a}`: YAML flow style. Otherwise the JSON reader's error.
            Err(e) => read_yaml(text, limits).map_err(|_| e),
        };
    }
    read_yaml(text, limits)
}

fn is_error(d: &Diagnostic) -> bool {
    d.severity == Severity::Error
}

fn read_yaml(text: &str, limits: &Limits) -> Result<Document, Diagnostic> {
    let mut diags = Vec::new();
    let docs = yaml::parse_stream_in(Ctx::Any, text, 0, 1, limits, &mut diags);
    // Documents after the first that hold nothing (`a: 1\n---\n`) are not documents
    // kubectl reads.
    let second = docs
        .iter()
        .skip(1)
        .find(|d| {
            !matches!(
                &d.root,
                Some(Value {
                    kind: Kind::Null(_),
                    ..
                })
            )
        })
        .map(|d| d.line as usize);
    let root = docs.into_iter().next().and_then(|d| d.root);
    if let Some(i) = diags.iter().position(is_error) {
        return Err(diags.swap_remove(i));
    }
    let root = root.filter(|r| !matches!(r.kind, Kind::Null(_)) || has_content(text));
    let Some(root) = root else {
        return Err(Diagnostic::error(
            Code::Unrecognized,
            Location::at(0, 0, 0),
            "the text holds no document (only blank lines and comments)",
        ));
    };
    if let Some(second) = second {
        return Err(Diagnostic::error(
            Code::TooManyDocuments,
            Location::at(2, second.max(1), 1),
            "a second document starts here; this file is read as one document",
        ));
    }
    Ok(Document {
        root: node(root)?,
        warnings: diags,
    })
}

/// The public tree of a reader's value.
fn node(v: Value) -> Result<DocumentNode, Diagnostic> {
    let (line, column) = ((v.pos.line as usize).max(1), v.pos.col as usize);
    let value = match v.kind {
        Kind::Str(s) => DocumentValue::String(s),
        Kind::Null(_) => DocumentValue::Null,
        Kind::Bool(b, _) => DocumentValue::Bool(b),
        Kind::Num(n) if n.json.is_empty() => {
            return Err(Diagnostic::error(
                Code::WrongType,
                Location::at(1, line, column),
                format!(
                    "{} is a number JSON cannot carry; kubectl reports \"json: unsupported value\"",
                    n.source
                ),
            ));
        }
        Kind::Num(n) => DocumentValue::Number(n.json),
        Kind::Seq(items) => {
            DocumentValue::List(items.into_iter().map(node).collect::<Result<_, _>>()?)
        }
        Kind::Map(entries) => DocumentValue::Map(
            entries
                .into_iter()
                .map(|e| Ok((e.key, node(e.value)?)))
                .collect::<Result<_, Diagnostic>>()?,
        ),
        // Nothing is pruned below a root read in `Ctx::Any`; were it, say so rather
        // than inventing a value.
        Kind::Pruned(_) => {
            return Err(Diagnostic::error(
                Code::Unrecognized,
                Location::at(1, line, column),
                "this value was not read",
            ));
        }
    };
    Ok(DocumentNode {
        line,
        column,
        value,
    })
}

/// Whether a line of `text` holds more than whitespace, a comment, a directive or a
/// document marker.
fn has_content(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_matches(['\u{feff}', ' ', '\t', '\r']);
        let marker = is_document_start(t) || t.starts_with("...");
        let rest = if marker { t[3..].trim_start() } else { t };
        !(rest.is_empty() || rest.starts_with('#') || (!marker && t.starts_with('%')))
    })
}

/// A `---` line: `---` then the end of the line or whitespace.
fn is_document_start(line: &str) -> bool {
    line.strip_prefix("---")
        .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Document, Diagnostic> {
        document(text, &Limits::default())
    }

    fn map(n: &DocumentNode) -> &[(String, DocumentNode)] {
        match &n.value {
            DocumentValue::Map(m) => m,
            other => panic!("not a map: {other:?}"),
        }
    }

    #[test]
    fn keeps_what_the_paste_readers_prune() {
        let d = read("request:\n  uid: x\n  object:\n    spec:\n      image: nginx\n").unwrap();
        let r = &map(&d.root)[0];
        assert_eq!(r.0, "request");
        let object = &map(&r.1)[1].1;
        let spec = &map(object)[0].1;
        let image = &map(spec)[0];
        assert_eq!(image.0, "image");
        assert_eq!(image.1.value, DocumentValue::String("nginx".into()));
        assert_eq!((image.1.line, image.1.column), (5, 14));
    }

    #[test]
    fn positions_are_the_texts_own_whatever_precedes_the_root() {
        for (text, line) in [
            ("a: 1\nb: [x, y]\n", 2),
            ("# settings\n\nb: [x, y]\n", 3),
            ("---\nb: [x, y]\n", 2),
            ("--- # c\nb: [x, y]\n", 2),
            ("%YAML 1.1\n---\nb: [x, y]\n", 3),
            ("--- !!map\nb: [x, y]\n", 2),
            ("--- &mine\nb: [x, y]\n", 2),
            ("&mine\nb: [x, y]\n", 2),
            ("\u{feff}b: [x, y]\n", 1),
            ("{\"b\": [\"x\", \"y\"]}", 1),
            ("{b: [x, y]}", 1),
        ] {
            let d = read(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            let b = map(&d.root).iter().find(|e| e.0 == "b").unwrap();
            assert_eq!(b.1.line, line, "{text:?}");
            let DocumentValue::List(items) = &b.1.value else {
                panic!("{text:?}")
            };
            assert_eq!(items.len(), 2, "{text:?}");
        }
    }

    #[test]
    fn scalars_resolve_as_kubectl_resolves_them() {
        let d = read("a: yes\nb: off\nc: 0x1F\nd: 1.0\ne: ~\nf: \"yes\"\ng: 010\non: 1\n").unwrap();
        let m = map(&d.root);
        let v = |i: usize| &m[i].1.value;
        assert_eq!(v(0), &DocumentValue::Bool(true));
        assert_eq!(v(1), &DocumentValue::Bool(false));
        assert_eq!(v(2), &DocumentValue::Number("31".into()));
        assert_eq!(v(3), &DocumentValue::Number("1".into()));
        assert_eq!(v(4), &DocumentValue::Null);
        assert_eq!(v(5), &DocumentValue::String("yes".into()));
        assert_eq!(v(6), &DocumentValue::Number("8".into()));
        assert_eq!(m[7].0, "true");
    }

    #[test]
    fn merge_keys_and_aliases_are_expanded() {
        let d = read("base: &b {x: 1, w: 0}\nuse:\n  <<: *b\n  w: 2\n").unwrap();
        let keys: Vec<&str> = map(&map(&d.root)[1].1)
            .iter()
            .map(|e| e.0.as_str())
            .collect();
        assert_eq!(keys, ["x", "w"]);
        assert_eq!(
            map(&map(&d.root)[1].1)[1].1.value,
            DocumentValue::Number("2".into())
        );
    }

    #[test]
    fn errors_are_located_in_the_text() {
        let e = read("a: 1\nb: [1,\nc: 2\n").unwrap_err();
        assert_eq!(e.code, Code::YamlSyntax);
        assert_eq!(e.location.line, 3);
        let e = read("{\"a\": 1,\n \"b\" 2}").unwrap_err();
        assert_eq!(e.code, Code::JsonSyntax);
        assert_eq!((e.location.line, e.location.column), (2, 6));
        let e = read("a: .inf\n").unwrap_err();
        assert_eq!((e.code, e.location.line), (Code::WrongType, 1));
        let e = read("a: 1\n---\nb: 2\n").unwrap_err();
        assert_eq!((e.code, e.location.line), (Code::TooManyDocuments, 2));
        assert!(read("a: 1\n---\n").is_ok());
        assert_eq!(read("# nothing\n").unwrap_err().code, Code::Unrecognized);
    }

    #[test]
    fn repeated_keys_are_warnings_at_their_own_lines() {
        let d = read("a: 1\nb: 2\na: 3\n").unwrap();
        assert_eq!(map(&d.root)[0].1.value, DocumentValue::Number("3".into()));
        assert_eq!(d.warnings.len(), 1);
        assert_eq!(d.warnings[0].location.line, 3);
        assert!(d.warnings[0].message.contains("first on line 1)"));
    }

    #[test]
    fn limits_hold() {
        let mut bomb = String::from("a: &a [x,x,x,x,x,x,x,x,x]\n");
        let mut prev = 'a';
        for c in "bcdefghi".chars() {
            bomb.push_str(&format!("{c}: &{c} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"));
            prev = c;
        }
        let e = read(&bomb).unwrap_err();
        assert_eq!(e.code, Code::AliasBomb);
        assert!(e.location.line >= 2 && e.location.line <= 9, "{e}");
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert_eq!(read(&deep).unwrap_err().code, Code::TooDeep);
        let small = Limits {
            max_input_bytes: 4,
            ..Limits::default()
        };
        assert_eq!(
            document("a: 12\n", &small).unwrap_err().code,
            Code::InputTooLarge
        );
    }
}
