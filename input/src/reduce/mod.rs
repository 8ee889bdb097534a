//! From the value tree to nodes, workloads, taints and tolerations, with the checks the
//! API server would make while decoding (types, unknown fields) explained in plain
//! words.
//!
//! Decoding errors (a boolean where a string belongs, a list where an object belongs)
//! drop the object, as the API server rejects it. Values the API server would reject
//! only at validation (an unknown effect) are reported as errors but the object is kept,
//! so the semantics can show what upstream does with it.

mod bare;
mod decode;
mod events;
mod fields;
mod lifecycle;
mod nodes;
mod placement;
mod priority;
mod taints;
mod workloads;

pub(crate) use placement::core_container;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use taintlab_core::suggest::suggest;
use taintlab_core::{
    ConditionStatus, Node, NodeCondition, Operator, PreemptionPolicy, QosClass, Taint, TaintEffect,
    Toleration, WorkloadKind,
};

use crate::diag::{Code, Diagnostic, Location};
use crate::event;
use crate::model::{
    ContainerResources, Form, InputNode, Parsed, TaintList, TolerationList, Workload,
};
use crate::quantity::{QUANTITY_FORMAT, Quantity};
use crate::tree::{Kind, Pos, Shape, Value};
use fields::*;

/// How a bare `{key, value, effect}` object is read when nothing tells a taint from a
/// toleration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Prefer {
    /// As a taint (the default: taints always carry an effect).
    #[default]
    Taints,
    /// As a toleration.
    Tolerations,
}

/// The Go type a value must decode into, for type errors.
#[derive(Clone, Copy)]
enum Want {
    Str,
    Int64,
    Int32,
    Bool,
    Object(&'static str),
    Array(&'static str),
    StrMap,
    Quantity,
}

impl Want {
    fn go(self) -> &'static str {
        match self {
            Want::Str => "string",
            Want::Int64 => "int64",
            Want::Int32 => "int32",
            Want::Bool => "bool",
            Want::Object(t) | Want::Array(t) => t,
            Want::StrMap => "map[string]string",
            Want::Quantity => "resource.Quantity",
        }
    }

    fn words(self) -> &'static str {
        match self {
            Want::Str => "a string",
            Want::Int64 | Want::Int32 => "a whole number",
            Want::Bool => "true or false",
            Want::Object(_) => "an object",
            Want::Array(_) => "a list",
            Want::StrMap => "a map of strings",
            Want::Quantity => "a quantity such as 500m or 1Gi",
        }
    }
}

/// The object being decoded, for kubectl-style messages.
struct Obj {
    /// `Pod`, `Node`, ...; empty for bare lists.
    kind: String,
    /// Version part of `apiVersion`.
    version: String,
    /// Path prefix of the object in the document (`items[2]`).
    base: String,
    /// Set when a decoding error means the API server rejects the object.
    failed: bool,
}

impl Obj {
    fn bare() -> Self {
        Obj {
            kind: String::new(),
            version: String::new(),
            base: String::new(),
            failed: false,
        }
    }
}

pub(crate) struct Reducer<'a> {
    pub out: &'a mut Parsed,
    pub form: Form,
    pub doc: usize,
    pub prefer: Prefer,
    pub version: taintlab_core::KubeVersion,
}

/// `base.key` (or `key` at the root), in one exact allocation: every field the reducer
/// reads gets a path, and `format!`'s machinery here was a tenth of a large paste's parse.
fn join(base: &str, key: &str) -> String {
    if base.is_empty() {
        key.to_string()
    } else {
        let mut p = String::with_capacity(base.len() + 1 + key.len());
        p.push_str(base);
        p.push('.');
        p.push_str(key);
        p
    }
}

fn index(base: &str, i: usize) -> String {
    format!("{base}[{i}]")
}

fn last_segment(path: &str) -> &str {
    let p = path.rsplit('.').next().unwrap_or(path);
    p.split('[').next().unwrap_or(p)
}

/// `spec.tolerations[0].value` relative to `base`, without indices, as Go's decoder
/// names fields.
fn go_path(path: &str, base: &str) -> String {
    let rel = path
        .strip_prefix(base)
        .map(|r| r.trim_start_matches('.'))
        .unwrap_or(path);
    let mut out = String::new();
    let mut skip = false;
    for c in rel.chars() {
        match c {
            '[' => skip = true,
            ']' => skip = false,
            _ if !skip => out.push(c),
            _ => {}
        }
    }
    out
}

impl Reducer<'_> {
    fn loc(&self, p: Pos, path: &str) -> Location {
        Location::at(self.doc, p.line as usize, p.col as usize).with_path(path)
    }

    fn push(&mut self, d: Diagnostic) {
        self.out.diagnostics.push(d);
    }

    /// A warning at `pos`, the value or key at `path`.
    fn warn(&mut self, code: Code, pos: Pos, path: &str, message: impl Into<String>) {
        let loc = self.loc(pos, path);
        self.out.push_warning(code, loc, message);
    }

    /// An error at `pos`, the value or key at `path`.
    fn error(&mut self, code: Code, pos: Pos, path: &str, message: impl Into<String>) {
        let loc = self.loc(pos, path);
        self.out.push_error(code, loc, message);
    }

    /// Reads one document.
    pub fn document(&mut self, root: &Value) {
        match &root.kind {
            Kind::Null(_) => {}
            Kind::Map(_) if root.get("kind").is_some() => self.object(root, ""),
            Kind::Map(_) => self.bare_map(root, ""),
            Kind::Seq(items) => self.bare_seq(root, items, ""),
            Kind::Str(s) => self.spec_text(s, root.pos, ""),
            _ => {
                self.warn(
                    Code::Unrecognized,
                    root.pos,
                    "",
                    format!(
                        "this document is a single {} value; expected a Kubernetes object, a list of taints or tolerations, or taint specs",
                        root.json_type()
                    ),
                );
            }
        }
    }

    /// Taint specs in a plain string document (`dedicated=gpu:NoSchedule`).
    fn spec_text(&mut self, s: &str, pos: Pos, path: &str) {
        let loc = self.loc(pos, path);
        // Prose read as a YAML string: one note, not one error per word.
        if !s.split_whitespace().all(crate::kubectl::is_spec_word) {
            let lines = s.lines().count().max(1);
            self.push(Diagnostic::warning(
                Code::Unrecognized,
                loc,
                format!(
                    "{} not read: looks like {}, not a taint spec or an object",
                    if lines == 1 {
                        "this text".to_string()
                    } else {
                        format!("{lines} lines")
                    },
                    crate::detect::looks_like(s)
                ),
            ));
            return;
        }
        let mut specs: Vec<(String, Location)> = Vec::new();
        for t in s.split_whitespace() {
            specs.push((t.to_string(), loc.clone()));
        }
        crate::commands::bare_specs(self.out, &specs, loc, self.form, self.version);
    }

    fn object(&mut self, v: &Value, path: &str) {
        let mut obj = Obj::bare();
        obj.base = path.to_string();
        let kind = self.opt_str(v, "kind", path, "TypeMeta", &mut obj);
        let api = self.opt_str(v, "apiVersion", path, "TypeMeta", &mut obj);
        obj.version = api.rsplit('/').next().unwrap_or("").to_string();
        obj.kind = kind.clone();
        if obj.failed {
            return;
        }
        if kind == "List" || (kind.ends_with("List") && v.get("items").is_some()) {
            let Some(items) = v.get("items") else { return };
            match &items.value.kind {
                Kind::Seq(list) => {
                    for (i, item) in list.iter().enumerate() {
                        let p = index(&join(path, "items"), i);
                        match item.kind {
                            Kind::Map(_) => self.object(item, &p),
                            Kind::Null(_) => {}
                            _ => {
                                self.error(
                                    Code::WrongType,
                                    item.pos,
                                    &p,
                                    format!(
                                        "a list item must be an object, found {}",
                                        describe(item)
                                    ),
                                );
                            }
                        }
                    }
                }
                Kind::Null(_) => {}
                _ => {
                    self.error(
                        Code::WrongType,
                        items.value.pos,
                        &join(path, "items"),
                        format!("items must be a list, found {}", describe(&items.value)),
                    );
                }
            }
            return;
        }
        match kind.as_str() {
            "Node" => self.node(v, path, obj),
            k if WorkloadKind::from_name(k).is_some() => self.workload(v, path, obj),
            "Event" => self.event_object(v, path),
            "PriorityClass" => self.priority_class(v, path, obj),
            "PodDisruptionBudget" => self.disruption_budget(v, path, obj),
            "" => self.bare_map(v, path),
            other => {
                self.warn(
                    Code::IgnoredKind,
                    v.pos,
                    path,
                    format!(
                        "kind {other} is not read here (it has no taints or tolerations); ignored"
                    ),
                );
            }
        }
    }
}

/// What a value is, in plain words, mentioning YAML 1.1 resolution when it explains
/// the surprise.
fn describe(v: &Value) -> String {
    match &v.kind {
        Kind::Str(s) => format!("\"{s}\" is a string"),
        Kind::Null(_) => "it is null".into(),
        Kind::Bool(b, src) if src.as_ref() != "true" && src.as_ref() != "false" => {
            format!("`{src}` is read as the boolean {b} (YAML 1.1, which kubectl uses)")
        }
        Kind::Bool(b, _) => format!("{b} is a boolean"),
        Kind::Num(n) if n.source != n.json && !n.json.is_empty() => {
            format!(
                "`{}` is read as the number {} (YAML 1.1, which kubectl uses)",
                n.source, n.json
            )
        }
        Kind::Num(n) => format!("{} is a number", n.source),
        Kind::Seq(_) | Kind::Pruned(Shape::Seq) => "it is a list".into(),
        Kind::Map(_) | Kind::Pruned(Shape::Map) => "it is an object".into(),
        Kind::Pruned(Shape::Scalar) => "it is a value of another type".into(),
    }
}

fn source_text(v: &Value) -> String {
    match &v.kind {
        Kind::Bool(_, s) | Kind::Null(s) => s.to_string(),
        Kind::Num(n) => n.source.clone(),
        Kind::Str(s) => s.clone(),
        _ => String::new(),
    }
}

/// What an ignored toleration or taint field means for the semantics.
fn consequence(what: &str, meant: Option<&str>) -> Option<&'static str> {
    Some(match (what, meant?) {
        ("a toleration", "effect") => "the toleration has no effect, so it matches every effect",
        ("a toleration", "tolerationSeconds") => {
            "the toleration has no tolerationSeconds, so on a NoExecute taint the pod stays forever"
        }
        ("a toleration", "operator") => "the operator stays empty, which means Equal",
        ("a toleration", "key") => "the key stays empty, which (with Exists) matches every taint",
        ("a toleration", "value") => "the value stays empty",
        ("a taint", "effect") => "the taint has no effect, which the API server rejects",
        ("a taint", "key") => "the taint has no key, which the API server rejects",
        ("a taint", "value") => "the value stays empty",
        ("a taint", "timeAdded") => "timeAdded stays unset",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_paths() {
        assert_eq!(
            go_path("items[3].spec.tolerations[0].value", "items[3]"),
            "spec.tolerations.value"
        );
        assert_eq!(
            go_path("spec.template.spec.tolerations[2].key", ""),
            "spec.template.spec.tolerations.key"
        );
        assert_eq!(last_segment("spec.tolerations[0].value"), "value");
        assert_eq!(last_segment("spec.tolerations[0]"), "tolerations");
    }
}
