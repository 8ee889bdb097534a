//! Node selectors as the scheduler reads them: `spec.nodeSelector`, required and
//! preferred node affinity, `matchExpressions` and `matchFields`.
//!
//! Follows `k8s.io/component-helpers/scheduling/corev1/nodeaffinity`
//! (`GetRequiredNodeAffinity`, `NewLazyErrorNodeSelector`, `NewPreferredSchedulingTerms`,
//! `nodeSelectorRequirementsAsSelector`, `nodeSelectorRequirementsAsFieldSelector`)
//! and the label requirements of `k8s.io/apimachinery/pkg/labels` (`NewRequirement`,
//! `Requirement.Matches`). The matching rules are the same at every release tag from
//! 1.25 to 1.30 (only the text of parse errors changed), and later releases keep them.
//!
//! A term with a parse error never matches; the other terms are still tried (the lazy
//! selector). A preferred term with a parse error makes the whole preferred list an
//! error (the scheduler's PreScore then fails with an error status).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{
    Node, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, PodPlacement,
    PreferredSchedulingTerm,
};
use crate::validation::{is_label_value, is_qualified_name};

/// `metav1.ObjectNameField`: the only field a node exposes to `matchFields`.
pub const OBJECT_NAME_FIELD: &str = "metadata.name";

/// A label operator after parsing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum LabelOp {
    In,
    NotIn,
    Exists,
    DoesNotExist,
    Gt(i64),
    Lt(i64),
}

/// One parsed label requirement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct LabelRequirement {
    key: String,
    op: LabelOp,
    values: Vec<String>,
}

impl LabelRequirement {
    /// `labels.Requirement.Matches`.
    fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        let value = labels.get(&self.key);
        match self.op {
            LabelOp::In => value.is_some_and(|v| self.values.contains(v)),
            LabelOp::NotIn => value.is_none_or(|v| !self.values.contains(v)),
            LabelOp::Exists => value.is_some(),
            LabelOp::DoesNotExist => value.is_none(),
            LabelOp::Gt(bound) => value
                .and_then(|v| parse_int64(v))
                .is_some_and(|v| v > bound),
            LabelOp::Lt(bound) => value
                .and_then(|v| parse_int64(v))
                .is_some_and(|v| v < bound),
        }
    }
}

/// One parsed field requirement: `metadata.name` (or any key, which reads as "").
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct FieldRequirement {
    key: String,
    equal: bool,
    value: String,
}

/// Why a requirement did not parse (the reason only; upstream's full `field.Error`
/// text is not reproduced).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParseError {
    /// The operator is not one of the six (or, for fields, not `In`/`NotIn`).
    UnsupportedOperator,
    /// The label key is not a qualified name.
    InvalidKey,
    /// `In`/`NotIn` without values, `Exists`/`DoesNotExist` with values, `Gt`/`Lt`
    /// without exactly one value, or a field requirement without exactly one value.
    WrongValueCount,
    /// A `Gt`/`Lt` value that is not a base-10 int64.
    NotAnInteger,
    /// A value that is not a valid label value.
    InvalidValue,
}

/// A parsed `NodeSelectorTerm`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParsedTerm {
    labels: Vec<LabelRequirement>,
    fields: Vec<FieldRequirement>,
    has_fields: bool,
    errors: Vec<ParseError>,
}

impl ParsedTerm {
    /// `newNodeSelectorTerm`: parses both requirement lists, collecting every error.
    pub fn parse(term: &NodeSelectorTerm) -> Self {
        let mut t = Self {
            labels: Vec::new(),
            fields: Vec::new(),
            has_fields: !term.match_fields.is_empty(),
            errors: Vec::new(),
        };
        for r in &term.match_expressions {
            match parse_label_requirement(r) {
                Ok(req) => t.labels.push(req),
                Err(mut e) => t.errors.append(&mut e),
            }
        }
        for r in &term.match_fields {
            match parse_field_requirement(r) {
                Ok(req) => t.fields.push(req),
                Err(e) => t.errors.push(e),
            }
        }
        t
    }

    /// The parse errors; a term with any never matches.
    pub fn errors(&self) -> &[ParseError] {
        &self.errors
    }

    /// `nodeSelectorTerm.match`: every label requirement holds, and every field
    /// requirement holds unless the node has no name (then fields are not checked).
    pub fn matches(&self, node_name: &str, labels: &BTreeMap<String, String>) -> bool {
        if !self.errors.is_empty() {
            return false;
        }
        if !self.labels.iter().all(|r| r.matches(labels)) {
            return false;
        }
        if self.has_fields && !node_name.is_empty() {
            return self.fields.iter().all(|f| {
                let got = if f.key == OBJECT_NAME_FIELD {
                    node_name
                } else {
                    ""
                };
                (got == f.value) == f.equal
            });
        }
        true
    }

    /// The label keys this term reads.
    pub fn label_keys(&self) -> impl Iterator<Item = &str> {
        self.labels.iter().map(|r| r.key.as_str())
    }

    /// True when the term has field requirements (so it reads the node name).
    pub fn reads_name(&self) -> bool {
        self.has_fields
    }
}

fn parse_label_requirement(
    r: &NodeSelectorRequirement,
) -> Result<LabelRequirement, Vec<ParseError>> {
    let mut errors = Vec::new();
    let op = match r.operator.as_str() {
        "In" => Some(LabelOp::In),
        "NotIn" => Some(LabelOp::NotIn),
        "Exists" => Some(LabelOp::Exists),
        "DoesNotExist" => Some(LabelOp::DoesNotExist),
        "Gt" | "Lt" => Some(LabelOp::Gt(0)),
        _ => None,
    };
    let Some(mut op) = op else {
        // nodeSelectorRequirementsAsSelector reports the operator and skips the rest.
        return Err(alloc::vec![ParseError::UnsupportedOperator]);
    };
    if !is_qualified_name(&r.key) {
        errors.push(ParseError::InvalidKey);
    }
    match op {
        LabelOp::In | LabelOp::NotIn if r.values.is_empty() => {
            errors.push(ParseError::WrongValueCount)
        }
        LabelOp::Exists | LabelOp::DoesNotExist if !r.values.is_empty() => {
            errors.push(ParseError::WrongValueCount)
        }
        LabelOp::Gt(_) => {
            if r.values.len() != 1 {
                errors.push(ParseError::WrongValueCount);
            }
            for v in &r.values {
                if parse_int64(v).is_none() {
                    errors.push(ParseError::NotAnInteger);
                }
            }
            let bound = r.values.first().and_then(|v| parse_int64(v)).unwrap_or(0);
            op = if r.operator == "Gt" {
                LabelOp::Gt(bound)
            } else {
                LabelOp::Lt(bound)
            };
        }
        _ => {}
    }
    for v in &r.values {
        if !is_label_value(v) {
            errors.push(ParseError::InvalidValue);
        }
    }
    if errors.is_empty() {
        Ok(LabelRequirement {
            key: r.key.clone(),
            op,
            values: r.values.clone(),
        })
    } else {
        Err(errors)
    }
}

fn parse_field_requirement(r: &NodeSelectorRequirement) -> Result<FieldRequirement, ParseError> {
    // nodeSelectorRequirementsAsFieldSelector checks the value count first.
    let [value] = r.values.as_slice() else {
        return Err(ParseError::WrongValueCount);
    };
    let equal = match r.operator.as_str() {
        "In" => true,
        "NotIn" => false,
        _ => return Err(ParseError::UnsupportedOperator),
    };
    Ok(FieldRequirement {
        key: r.key.clone(),
        equal,
        value: value.clone(),
    })
}

/// Go's `strconv.ParseInt(s, 10, 64)`: an optional sign, then ASCII digits, no
/// underscores, no surrounding space, within int64.
pub fn parse_int64(s: &str) -> Option<i64> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'+') => (false, s.get(1..)?),
        Some(b'-') => (true, s.get(1..)?),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut v: i64 = 0;
    for b in digits.bytes() {
        let d = i64::from(b - b'0');
        v = v.checked_mul(10)?;
        v = if neg {
            v.checked_sub(d)?
        } else {
            v.checked_add(d)?
        };
    }
    Some(v)
}

/// `GetRequiredNodeAffinity(pod)`: `spec.nodeSelector` AND the required node affinity.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RequiredNodeAffinity {
    /// `spec.nodeSelector` entries (exact label matches).
    node_selector: Vec<(String, String)>,
    /// `None`: no required affinity. `Some(terms)`: the parsed non-empty terms (an
    /// empty term is dropped by `NewLazyErrorNodeSelector`, so `Some([])` matches
    /// nothing).
    terms: Option<Vec<ParsedTerm>>,
}

impl RequiredNodeAffinity {
    /// Builds it from a pod's placement fields.
    pub fn of(placement: &PodPlacement) -> Self {
        Self::new(&placement.node_selector, placement.required_node_affinity())
    }

    /// Builds it from a node selector map and an optional required node selector.
    pub fn new(node_selector: &BTreeMap<String, String>, required: Option<&NodeSelector>) -> Self {
        Self {
            node_selector: node_selector
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            terms: required.map(|ns| {
                ns.node_selector_terms
                    .iter()
                    .filter(|t| !t.match_expressions.is_empty() || !t.match_fields.is_empty())
                    .map(ParsedTerm::parse)
                    .collect()
            }),
        }
    }

    /// True when neither a node selector nor required affinity is set.
    pub fn is_empty(&self) -> bool {
        self.node_selector.is_empty() && self.terms.is_none()
    }

    /// `RequiredNodeAffinity.Match` with parse errors ignored, as the Filter does.
    pub fn matches(&self, node_name: &str, labels: &BTreeMap<String, String>) -> bool {
        if !self
            .node_selector
            .iter()
            .all(|(k, v)| labels.get(k) == Some(v))
        {
            return false;
        }
        match &self.terms {
            None => true,
            Some(terms) => terms.iter().any(|t| t.matches(node_name, labels)),
        }
    }

    /// [`RequiredNodeAffinity::matches`] for a node.
    pub fn matches_node(&self, node: &Node) -> bool {
        self.matches(&node.name, &node.labels)
    }

    /// Every label key the selector reads (with repeats).
    pub fn label_keys(&self) -> impl Iterator<Item = &str> {
        self.node_selector
            .iter()
            .map(|(k, _)| k.as_str())
            .chain(self.terms.iter().flatten().flat_map(|t| t.label_keys()))
    }

    /// True when a term reads the node name (`matchFields`).
    pub fn reads_name(&self) -> bool {
        self.terms.iter().flatten().any(|t| t.reads_name())
    }

    /// Parse errors of the required terms, per term (terms with errors never match).
    pub fn term_errors(&self) -> impl Iterator<Item = &[ParseError]> {
        self.terms.iter().flatten().map(|t| t.errors())
    }
}

/// `NewPreferredSchedulingTerms`: the preferred terms with weight ≠ 0 and a non-empty
/// term, parsed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PreferredTerms {
    terms: Vec<(i64, ParsedTerm)>,
}

impl PreferredTerms {
    /// Parses the terms. `Err` when any kept term has a parse error (PreScore fails).
    pub fn new(terms: &[PreferredSchedulingTerm]) -> Result<Self, Vec<ParseError>> {
        let mut out = Vec::new();
        let mut errors = Vec::new();
        for t in terms {
            let p = &t.preference;
            if t.weight == 0 || (p.match_expressions.is_empty() && p.match_fields.is_empty()) {
                continue;
            }
            let parsed = ParsedTerm::parse(p);
            if parsed.errors.is_empty() {
                out.push((i64::from(t.weight), parsed));
            } else {
                errors.extend_from_slice(&parsed.errors);
            }
        }
        if errors.is_empty() {
            Ok(Self { terms: out })
        } else {
            Err(errors)
        }
    }

    /// True when no term is kept.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// `PreferredSchedulingTerms.Score`: the sum of the weights of matching terms.
    pub fn score(&self, node_name: &str, labels: &BTreeMap<String, String>) -> i64 {
        self.terms
            .iter()
            .filter(|(_, t)| t.matches(node_name, labels))
            .fold(0i64, |acc, (w, _)| acc.wrapping_add(*w))
    }

    /// Every label key the terms read.
    pub fn label_keys(&self) -> impl Iterator<Item = &str> {
        self.terms.iter().flat_map(|(_, t)| t.label_keys())
    }

    /// True when a term reads the node name.
    pub fn reads_name(&self) -> bool {
        self.terms.iter().any(|(_, t)| t.reads_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (String::from(*k), String::from(*v)))
            .collect()
    }
    fn term(exprs: &[NodeSelectorRequirement], fields: &[NodeSelectorRequirement]) -> ParsedTerm {
        ParsedTerm::parse(&NodeSelectorTerm {
            match_expressions: exprs.to_vec(),
            match_fields: fields.to_vec(),
        })
    }
    fn req(k: &str, op: &str, v: &[&str]) -> NodeSelectorRequirement {
        NodeSelectorRequirement::new(k, op, v)
    }

    #[test]
    fn parse_int64_follows_go() {
        assert_eq!(parse_int64("42"), Some(42));
        assert_eq!(parse_int64("+7"), Some(7));
        assert_eq!(parse_int64("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_int64("9223372036854775808"), None);
        for bad in ["", "+", "-", " 1", "1 ", "1_000", "0x10", "1.0"] {
            assert_eq!(parse_int64(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn operators() {
        let l = labels(&[("zone", "a"), ("cpus", "8")]);
        let cases = [
            (req("zone", "In", &["a", "b"]), true),
            (req("zone", "In", &["b"]), false),
            (req("zone", "NotIn", &["b"]), true),
            (req("missing", "NotIn", &["b"]), true),
            (req("zone", "Exists", &[]), true),
            (req("zone", "DoesNotExist", &[]), false),
            (req("cpus", "Gt", &["7"]), true),
            (req("cpus", "Gt", &["8"]), false),
            (req("cpus", "Lt", &["9"]), true),
            (req("zone", "Gt", &["1"]), false),
            (req("missing", "Lt", &["1"]), false),
        ];
        for (r, want) in cases {
            assert_eq!(
                term(core::slice::from_ref(&r), &[]).matches("n", &l),
                want,
                "{r:?}"
            );
        }
    }

    #[test]
    fn parse_errors_make_the_term_never_match() {
        let l = labels(&[("zone", "a")]);
        for r in [
            req("zone", "in", &["a"]),
            req("zone", "In", &[]),
            req("zone", "Exists", &["a"]),
            req("zone", "Gt", &["1", "2"]),
            req("zone", "Gt", &["one"]),
            req("zone", "Lt", &["-5"]), // an integer, but not a label value
            req("bad key!", "Exists", &[]),
            req("zone", "NotIn", &["bad value!"]),
        ] {
            let t = term(core::slice::from_ref(&r), &[]);
            assert!(!t.errors().is_empty(), "{r:?}");
            assert!(!t.matches("n", &l), "{r:?}");
        }
        // NotIn with a bad value would otherwise match everything.
        let ok = term(&[req("zone", "NotIn", &["b"])], &[]);
        assert!(ok.matches("n", &l));
    }

    #[test]
    fn match_fields() {
        let l = labels(&[]);
        let t = term(&[], &[req(OBJECT_NAME_FIELD, "In", &["n1"])]);
        assert!(t.matches("n1", &l));
        assert!(!t.matches("n2", &l));
        // A nameless node skips the field part.
        assert!(t.matches("", &l));
        let not = term(&[], &[req(OBJECT_NAME_FIELD, "NotIn", &["n1"])]);
        assert!(!not.matches("n1", &l) && not.matches("n2", &l));
        // Other keys read "".
        let other = term(&[], &[req("metadata.uid", "In", &["x"])]);
        assert!(!other.matches("n1", &l));
        for bad in [
            req(OBJECT_NAME_FIELD, "In", &["a", "b"]),
            req(OBJECT_NAME_FIELD, "Exists", &["a"]),
        ] {
            assert!(!term(&[], &[bad]).errors().is_empty());
        }
    }

    #[test]
    fn required_is_selector_and_terms() {
        let ns = labels(&[("disk", "ssd")]);
        let required = NodeSelector {
            node_selector_terms: vec![
                NodeSelectorTerm {
                    match_expressions: vec![req("zone", "In", &["a"])],
                    ..Default::default()
                },
                NodeSelectorTerm::default(),
                NodeSelectorTerm {
                    match_expressions: vec![req("zone", "In", &["b"])],
                    ..Default::default()
                },
            ],
        };
        let r = RequiredNodeAffinity::new(&ns, Some(&required));
        assert!(r.matches("n", &labels(&[("disk", "ssd"), ("zone", "b")])));
        assert!(!r.matches("n", &labels(&[("disk", "hdd"), ("zone", "b")])));
        assert!(!r.matches("n", &labels(&[("disk", "ssd"), ("zone", "c")])));
        // Required with only empty terms matches nothing.
        let empty = NodeSelector {
            node_selector_terms: vec![NodeSelectorTerm::default()],
        };
        assert!(!RequiredNodeAffinity::new(&BTreeMap::new(), Some(&empty)).matches("n", &ns));
        assert!(RequiredNodeAffinity::new(&BTreeMap::new(), None).matches("n", &ns));
    }

    #[test]
    fn preferred_terms_sum_weights_and_fail_on_parse_error() {
        let t = |w, r: NodeSelectorRequirement| PreferredSchedulingTerm {
            weight: w,
            preference: NodeSelectorTerm {
                match_expressions: vec![r],
                ..Default::default()
            },
        };
        let p = PreferredTerms::new(&[
            t(5, req("a", "Exists", &[])),
            t(0, req("a", "Exists", &[])),
            t(3, req("b", "In", &["x"])),
        ])
        .unwrap();
        assert_eq!(p.score("n", &labels(&[("a", ""), ("b", "x")])), 8);
        assert_eq!(p.score("n", &labels(&[("a", "")])), 5);
        assert!(PreferredTerms::new(&[t(1, req("a", "Bogus", &[]))]).is_err());
        // Weight 0 terms are dropped before parsing.
        assert!(PreferredTerms::new(&[t(0, req("a", "Bogus", &[]))]).is_ok());
    }

    #[test]
    fn names() {
        assert!(is_qualified_name("example.com/a_b.c"));
        assert!(is_qualified_name("a"));
        assert!(!is_qualified_name("a/b/c"));
        assert!(!is_qualified_name("/a"));
        assert!(!is_qualified_name("Example.com/a"));
        assert!(!is_qualified_name(&"a".repeat(64)));
        assert!(is_label_value(""));
        assert!(!is_label_value("-a"));
    }
}
