//! Results as JSON text, written directly (the JavaScript side turns it into plain
//! objects with `JSON.parse`). A small non-generic writer keeps the wasm module small:
//! building `serde_json::Value` trees for every result cost about a third of the code.
//!
//! Objects have every field (empty strings, `null`, `[]` rather than missing), names are
//! camelCase, and integers are written as they are: `JSON.parse` turns values beyond
//! 2^53 into the nearest double, so seconds are always numbers, never BigInt.

use std::fmt::Write;

use taintlab_core::matching::{MatchOutcome, taint_to_string};
use taintlab_core::{Node, Taint, Toleration};
use taintlab_input::{Diagnostic, Location, Severity};

/// A JSON text being written. Commas are placed automatically.
#[derive(Debug, Default)]
pub struct J {
    out: String,
    comma: bool,
}

impl J {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// The text.
    pub fn finish(self) -> String {
        self.out
    }

    fn sep(&mut self) {
        if self.comma {
            self.out.push(',');
        }
    }

    /// `{`
    pub fn open(&mut self) -> &mut Self {
        self.sep();
        self.out.push('{');
        self.comma = false;
        self
    }

    /// `}`
    pub fn close(&mut self) -> &mut Self {
        self.out.push('}');
        self.comma = true;
        self
    }

    /// `[`
    pub fn arr(&mut self) -> &mut Self {
        self.sep();
        self.out.push('[');
        self.comma = false;
        self
    }

    /// `]`
    pub fn end(&mut self) -> &mut Self {
        self.out.push(']');
        self.comma = true;
        self
    }

    /// An object key (plain ASCII, written as is).
    pub fn key(&mut self, k: &str) -> &mut Self {
        self.sep();
        self.out.push('"');
        self.out.push_str(k);
        self.out.push_str("\":");
        self.comma = false;
        self
    }

    /// An object key that is user text (escaped).
    pub fn key_text(&mut self, k: &str) -> &mut Self {
        self.str(k);
        self.out.push(':');
        self.comma = false;
        self
    }

    /// A string value.
    pub fn str(&mut self, v: &str) -> &mut Self {
        self.sep();
        self.out.push('"');
        for c in v.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\r' => self.out.push_str("\\r"),
                '\t' => self.out.push_str("\\t"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(self.out, "\\u{:04x}", c as u32);
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
        self.comma = true;
        self
    }

    /// An integer value.
    pub fn num(&mut self, v: i64) -> &mut Self {
        self.sep();
        let _ = write!(self.out, "{v}");
        self.comma = true;
        self
    }

    /// A count or an index.
    pub fn count(&mut self, n: usize) -> &mut Self {
        self.num(i64::try_from(n).unwrap_or(i64::MAX))
    }

    /// `true` or `false`.
    pub fn bool(&mut self, b: bool) -> &mut Self {
        self.sep();
        self.out.push_str(if b { "true" } else { "false" });
        self.comma = true;
        self
    }

    /// `null`.
    pub fn null(&mut self) -> &mut Self {
        self.sep();
        self.out.push_str("null");
        self.comma = true;
        self
    }

    /// Text that already is JSON.
    pub fn raw(&mut self, json: &str) -> &mut Self {
        self.sep();
        self.out.push_str(json);
        self.comma = true;
        self
    }

    /// `"k": "v"`
    pub fn s(&mut self, k: &str, v: &str) -> &mut Self {
        self.key(k).str(v)
    }

    /// `"k": n`
    pub fn n(&mut self, k: &str, v: i64) -> &mut Self {
        self.key(k).num(v)
    }

    /// `"k": n` for counts and indexes.
    pub fn c(&mut self, k: &str, v: usize) -> &mut Self {
        self.key(k).count(v)
    }

    /// `"k": true`
    pub fn b(&mut self, k: &str, v: bool) -> &mut Self {
        self.key(k).bool(v)
    }

    /// `"k": n` or `"k": null`
    pub fn on(&mut self, k: &str, v: Option<i64>) -> &mut Self {
        self.key(k);
        match v {
            Some(v) => self.num(v),
            None => self.null(),
        }
    }

    /// `"k": n` or `"k": null` for indexes.
    pub fn oc(&mut self, k: &str, v: Option<usize>) -> &mut Self {
        self.key(k);
        match v {
            Some(v) => self.count(v),
            None => self.null(),
        }
    }

    /// `"k": "v"` or `"k": null`
    pub fn os(&mut self, k: &str, v: Option<&str>) -> &mut Self {
        self.key(k);
        match v {
            Some(v) => self.str(v),
            None => self.null(),
        }
    }

    /// `"k": ["a", "b"]`
    pub fn strs(&mut self, k: &str, v: &[String]) -> &mut Self {
        self.key(k).arr();
        for s in v {
            self.str(s);
        }
        self.end()
    }

    /// `"k": ["a", "b"]` from static names (no `String`s to build first).
    pub fn names(&mut self, k: &str, v: &[&str]) -> &mut Self {
        self.key(k).arr();
        for s in v {
            self.str(s);
        }
        self.end()
    }

    /// `"k": [1, 2]` for indexes.
    pub fn counts(&mut self, k: &str, v: &[usize]) -> &mut Self {
        self.key(k).arr();
        for n in v {
            self.count(*n);
        }
        self.end()
    }
}

/// A taint: `{key, value, effect}` plus `timeAdded` when set.
pub fn taint(j: &mut J, t: &Taint) {
    j.open()
        .s("key", &t.key)
        .s("value", &t.value)
        .s("effect", t.effect.as_str());
    if let Some(at) = &t.time_added {
        j.s("timeAdded", at);
    }
    j.close();
}

/// A taint or `null`.
pub fn opt_taint(j: &mut J, t: Option<&Taint>) {
    match t {
        Some(t) => taint(j, t),
        None => {
            j.null();
        }
    }
}

/// A list of taints.
pub fn taints(j: &mut J, ts: &[Taint]) {
    j.arr();
    for t in ts {
        taint(j, t);
    }
    j.end();
}

/// `key=value:Effect`, as Kubernetes prints a taint.
pub fn taint_text(t: &Taint) -> String {
    taint_to_string(t)
}

/// A toleration with every field (`tolerationSeconds` is `null` when unset).
pub fn toleration(j: &mut J, t: &Toleration) {
    j.open()
        .s("key", &t.key)
        .s("operator", t.operator.as_str())
        .s("value", &t.value)
        .s("effect", t.effect.as_str())
        .on("tolerationSeconds", t.toleration_seconds)
        .close();
}

/// A list of tolerations.
pub fn tolerations(j: &mut J, ts: &[Toleration]) {
    j.arr();
    for t in ts {
        toleration(j, t);
    }
    j.end();
}

/// The fields of a node, without the braces (callers add their own fields).
pub fn node_fields(j: &mut J, n: &Node) {
    j.s("name", &n.name).key("taints");
    taints(j, &n.taints);
    j.b("unschedulable", n.unschedulable).key("labels").open();
    for (k, v) in &n.labels {
        j.key_text(k).str(v);
    }
    j.close().key("conditions").arr();
    for c in &n.conditions {
        j.open()
            .s("type", &c.type_)
            .s("status", c.status.as_str())
            .close();
    }
    j.end();
}

/// A node: name, taints, `unschedulable`, labels and conditions.
pub fn node(j: &mut J, n: &Node) {
    j.open();
    node_fields(j, n);
    j.close();
}

/// `{document, line, column, path}`; zeros and `""` when unknown.
pub fn location(j: &mut J, l: &Location) {
    j.open()
        .c("document", l.document)
        .c("line", l.line)
        .c("column", l.column)
        .s("path", &l.path)
        .close();
}

/// A location or `null`.
pub fn opt_location(j: &mut J, l: Option<&Location>) {
    match l {
        Some(l) => location(j, l),
        None => {
            j.null();
        }
    }
}

/// A list of locations.
pub fn locations(j: &mut J, ls: &[Location]) {
    j.arr();
    for l in ls {
        location(j, l);
    }
    j.end();
}

/// `YamlSyntax` -> `yaml-syntax`: the kebab-case names the input layer's serde
/// attributes give its enums, from their `Debug` names (no serde needed here).
pub fn kebab(debug: &str) -> String {
    let mut out = String::with_capacity(debug.len() + 4);
    for (i, c) in debug.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The kebab-case name of a diagnostic code (`yaml-syntax`).
pub fn code_name(c: taintlab_input::Code) -> String {
    kebab(&format!("{c:?}"))
}

/// An input-layer diagnostic.
pub fn diagnostic(j: &mut J, d: &Diagnostic) {
    j.open()
        .s(
            "severity",
            match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
        )
        .s("code", &code_name(d.code))
        .s("message", &d.message)
        .key("location");
    location(j, &d.location);
    j.close();
}

/// A list of diagnostics.
pub fn diagnostics(j: &mut J, ds: &[Diagnostic]) {
    j.arr();
    for d in ds {
        diagnostic(j, d);
    }
    j.end();
}

/// The kebab-case name of a match outcome.
pub fn outcome_name(o: MatchOutcome) -> &'static str {
    match o {
        MatchOutcome::Tolerated => "tolerated",
        MatchOutcome::EffectMismatch => "effect-mismatch",
        MatchOutcome::KeyMismatch => "key-mismatch",
        MatchOutcome::ValueMismatch => "value-mismatch",
        MatchOutcome::ComparisonGateOff => "comparison-gate-off",
        MatchOutcome::NotAnInteger => "not-an-integer",
        MatchOutcome::ComparisonFalse => "comparison-false",
        MatchOutcome::UnknownOperator => "unknown-operator",
    }
}

/// A list of match outcomes.
pub fn outcomes(j: &mut J, os: &[MatchOutcome]) {
    j.arr();
    for o in os {
        j.str(outcome_name(*o));
    }
    j.end();
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};
    use taintlab_core::{Operator, TaintEffect};

    fn parse(j: J) -> Value {
        let text = j.finish();
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    #[test]
    fn writes_valid_json_with_escapes_and_commas() {
        let mut j = J::new();
        j.open()
            .s("a", "q\"\\\n\t\u{1}é")
            .n("big", i64::MAX)
            .key("list")
            .arr()
            .num(1)
            .bool(false)
            .null()
            .open()
            .close()
            .end()
            .on("none", None)
            .close();
        assert_eq!(
            parse(j),
            json!({"a": "q\"\\\n\t\u{1}é", "big": i64::MAX, "list": [1, false, null, {}], "none": null})
        );
    }

    #[test]
    fn kebab_names_match_the_input_layers_serde_names() {
        for code in [
            taintlab_input::Code::YamlSyntax,
            taintlab_input::Code::TooManyDocuments,
            taintlab_input::Code::KubectlCommand,
        ] {
            assert_eq!(
                Value::String(code_name(code)),
                serde_json::to_value(code).unwrap()
            );
        }
        for form in [
            taintlab_input::Form::KubectlTaint,
            taintlab_input::Form::DescribeNode,
            taintlab_input::Form::Yaml,
        ] {
            assert_eq!(
                Value::String(kebab(&format!("{form:?}"))),
                serde_json::to_value(form).unwrap()
            );
        }
    }

    #[test]
    fn objects_have_every_field() {
        let t = Toleration::new("k", Operator::Exists, "", TaintEffect::NoExecute);
        let mut j = J::new();
        toleration(&mut j, &t);
        assert_eq!(
            parse(j),
            json!({"key":"k","operator":"Exists","value":"","effect":"NoExecute","tolerationSeconds":null})
        );
        let mut j = J::new();
        let mut n = Node {
            name: "n".into(),
            ..Node::default()
        };
        n.labels.insert("a\"b".into(), "v".into());
        node(&mut j, &n);
        assert_eq!(
            parse(j),
            json!({"name":"n","taints":[],"unschedulable":false,"labels":{"a\"b":"v"},"conditions":[]})
        );
    }
}
