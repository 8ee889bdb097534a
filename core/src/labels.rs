//! Label selectors, as `k8s.io/apimachinery/pkg/labels` parses and matches them, and
//! the API's `metav1.LabelSelector` (`matchLabels` + `matchExpressions`).
//!
//! * [`Selector::parse`] is `labels.Parse` (`labels/selector.go`): the string form that
//!   `kubectl -l` and the list API's `labelSelector` take, equality-based (`k=v`, `k==v`,
//!   `k!=v`), set-based (`k in (a,b)`, `k notin (a,b)`), existence (`k`, `!k`) and the
//!   integer comparisons `k>1`, `k<1`, with upstream's lexer quirks and error messages.
//! * [`Requirement::new`] is `labels.NewRequirement`, with its validation.
//! * [`LabelSelector::to_selector`] is `metav1.LabelSelectorAsSelector`
//!   (`apis/meta/v1/helpers.go`).
//!
//! Parsed requirements are sorted by key, as upstream's `parse` does, so
//! `x=a,a=x` and `a=x,x=a` print the same.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::validation::{
    BadValue, FieldError, aggregate_message, go_parse_int64, go_quote, label_value_errors,
    qualified_name_errors,
};
use crate::version::KubeVersion;

/// `selection.Operator`: how a [`Requirement`] relates its key and values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SelectorOperator {
    /// `k=v`
    Equals,
    /// `k==v`
    DoubleEquals,
    /// `k!=v` (also true when the label is absent)
    NotEquals,
    /// `k in (a,b)`
    In,
    /// `k notin (a,b)` (also true when the label is absent)
    NotIn,
    /// `k`
    Exists,
    /// `!k`
    DoesNotExist,
    /// `k>1` (both sides must be base-10 int64)
    GreaterThan,
    /// `k<1` (both sides must be base-10 int64)
    LessThan,
}

impl SelectorOperator {
    /// The operator's `selection.Operator` string (`=`, `in`, `gt`, `!`, `exists`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Equals => "=",
            Self::DoubleEquals => "==",
            Self::NotEquals => "!=",
            Self::In => "in",
            Self::NotIn => "notin",
            Self::Exists => "exists",
            Self::DoesNotExist => "!",
            Self::GreaterThan => "gt",
            Self::LessThan => "lt",
        }
    }
}

/// One requirement of a [`Selector`] (`labels.Requirement`): a key, an operator and
/// the values, kept in the order given.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Requirement {
    key: String,
    operator: SelectorOperator,
    values: Vec<String>,
}

/// Sorts requirements by key, keeping the order of equal keys (upstream's `sort.Sort` on
/// the handful of requirements a selector has is an insertion sort). Written out instead
/// of `sort_by` to keep the code small in the WebAssembly builds.
fn sort_by_key(requirements: &mut [Requirement]) {
    for i in 1..requirements.len() {
        let mut j = i;
        while j > 0 && requirements[j - 1].key > requirements[j].key {
            requirements.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Adds `value` to a sorted list of unique values (`sets.String.Insert`, whose `List()`
/// is sorted).
fn insert_sorted(set: &mut Vec<String>, value: String) {
    if let Err(at) = set.binary_search(&value) {
        set.insert(at, value);
    }
}

/// Go's `%#v` of a `[]string` (`[]string(nil)`, `[]string{"a", "b"}`), the bad value
/// `NewRequirement` reports for a whole value list.
fn go_string_slice(values: &[String]) -> String {
    if values.is_empty() {
        return String::from("[]string(nil)");
    }
    let quoted: Vec<String> = values.iter().map(|v| go_quote(v)).collect();
    format!("[]string{{{}}}", quoted.join(", "))
}

/// A `field.Invalid` whose bad value is a whole `[]string`: `BadValue` has no list form,
/// so the rendered slice leads the detail, which prints the same text.
fn invalid_values(field: &str, values: &[String], detail: &str) -> FieldError {
    FieldError::invalid(
        String::from(field),
        BadValue::Omitted,
        format!("{}: {detail}", go_string_slice(values)),
    )
}

impl Requirement {
    /// `labels.NewRequirement` (without a field path): the key must be a label key; `in`
    /// and `notin` need at least one value, the equality operators exactly one, `exists`
    /// and `!` none, `gt`/`lt` exactly one base-10 int64; every value must be a label
    /// value. Errors are the aggregate of apimachinery field errors
    /// (`key: Invalid value: ...`, `values[0][key]: Invalid value: ...`).
    pub fn new(
        key: &str,
        operator: SelectorOperator,
        values: Vec<String>,
        version: KubeVersion,
    ) -> Result<Self, String> {
        use SelectorOperator as Op;
        let mut errors = Vec::new();
        if let Some(e) = label_key_error(key, "key", version) {
            errors.push(e);
        }
        match operator {
            Op::In | Op::NotIn if values.is_empty() => errors.push(invalid_values(
                "values",
                &values,
                "for 'in', 'notin' operators, values set can't be empty",
            )),
            Op::Equals | Op::DoubleEquals | Op::NotEquals if values.len() != 1 => {
                errors.push(invalid_values(
                    "values",
                    &values,
                    "exact-match compatibility requires one single value",
                ))
            }
            Op::Exists | Op::DoesNotExist if !values.is_empty() => errors.push(invalid_values(
                "values",
                &values,
                "values set must be empty for exists and does not exist",
            )),
            Op::GreaterThan | Op::LessThan => {
                if values.len() != 1 {
                    errors.push(invalid_values(
                        "values",
                        &values,
                        "for 'Gt', 'Lt' operators, exactly one value is required",
                    ));
                }
                for (i, v) in values.iter().enumerate() {
                    if go_parse_int64(v).is_err() {
                        errors.push(FieldError::invalid(
                            format!("values[{i}]"),
                            BadValue::String(v.clone()),
                            "for 'Gt', 'Lt' operators, the value must be an integer",
                        ));
                    }
                }
            }
            _ => {}
        }
        for (i, v) in values.iter().enumerate() {
            let errs = label_value_errors(v, version);
            if !errs.is_empty() {
                errors.push(FieldError::invalid(
                    format!("values[{i}][{key}]"),
                    BadValue::String(v.clone()),
                    errs.join("; "),
                ));
            }
        }
        match aggregate_message(&errors) {
            Some(message) => Err(message),
            None => Ok(Self {
                key: String::from(key),
                operator,
                values,
            }),
        }
    }

    /// The label key.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The operator.
    pub fn operator(&self) -> SelectorOperator {
        self.operator
    }

    /// The values, in the order given (sorted and unique when parsed from a string).
    pub fn values(&self) -> &[String] {
        &self.values
    }

    /// `Requirement.Matches` against the labels `get` looks up: `in`/`=`/`==` need the
    /// label with one of the values; `notin`/`!=` hold when it is absent or has none of
    /// them; `gt`/`lt` need the label and both sides as base-10 int64 (otherwise false).
    pub fn matches_lookup<'l>(&self, get: impl Fn(&str) -> Option<&'l str>) -> bool {
        use SelectorOperator as Op;
        let has = |v: &str| self.values.iter().any(|x| x == v);
        match self.operator {
            Op::In | Op::Equals | Op::DoubleEquals => get(&self.key).is_some_and(has),
            Op::NotIn | Op::NotEquals => get(&self.key).is_none_or(|v| !has(v)),
            Op::Exists => get(&self.key).is_some(),
            Op::DoesNotExist => get(&self.key).is_none(),
            Op::GreaterThan | Op::LessThan => {
                let Some(Ok(label)) = get(&self.key).map(go_parse_int64) else {
                    return false;
                };
                let [bound] = self.values.as_slice() else {
                    return false;
                };
                let Ok(bound) = go_parse_int64(bound) else {
                    return false;
                };
                if self.operator == Op::GreaterThan {
                    label > bound
                } else {
                    label < bound
                }
            }
        }
    }

    /// Whether a label map satisfies this requirement.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.matches_lookup(|k| labels.get(k).map(String::as_str))
    }
}

impl fmt::Display for Requirement {
    /// `Requirement.String()`: `!k`, `k`, `k=v`, `k in (a,b)` (several values sorted).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SelectorOperator as Op;
        if self.operator == Op::DoesNotExist {
            f.write_str("!")?;
        }
        f.write_str(&self.key)?;
        let op = match self.operator {
            Op::Exists | Op::DoesNotExist => return Ok(()),
            Op::Equals => "=",
            Op::DoubleEquals => "==",
            Op::NotEquals => "!=",
            Op::In => " in ",
            Op::NotIn => " notin ",
            Op::GreaterThan => ">",
            Op::LessThan => "<",
        };
        f.write_str(op)?;
        let set = matches!(self.operator, Op::In | Op::NotIn);
        if set {
            f.write_str("(")?;
        }
        // `safeSort`: sorted for printing, duplicates kept.
        let mut sorted: Vec<&str> = Vec::with_capacity(self.values.len());
        for v in &self.values {
            let at = sorted.partition_point(|x| *x <= v.as_str());
            sorted.insert(at, v);
        }
        f.write_str(&sorted.join(","))?;
        if set {
            f.write_str(")")?;
        }
        Ok(())
    }
}

/// A label selector (`labels.Selector`): every requirement must hold. The empty
/// selector matches everything; [`Selector::nothing`] matches nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Selector {
    requirements: Vec<Requirement>,
    nothing: bool,
}

impl Selector {
    /// `labels.Everything()`: no requirement.
    pub fn everything() -> Self {
        Self::default()
    }

    /// `labels.Nothing()`: matches no label set (what a nil `metav1.LabelSelector`
    /// becomes).
    pub fn nothing() -> Self {
        Self {
            requirements: Vec::new(),
            nothing: true,
        }
    }

    /// `labels.Parse` with the newest release's label messages.
    pub fn parse(text: &str) -> Result<Self, String> {
        Self::parse_for_version(text, KubeVersion::NEWEST)
    }

    /// `labels.Parse`; `version` picks the wording of label key and value errors.
    pub fn parse_for_version(text: &str, version: KubeVersion) -> Result<Self, String> {
        let mut parser = Parser {
            items: lex(text),
            position: 0,
            version,
        };
        let mut requirements = parser.parse()?;
        sort_by_key(&mut requirements);
        Ok(Self {
            requirements,
            nothing: false,
        })
    }

    /// `Selector.Add`: a copy with more requirements, sorted by key.
    pub fn add(&self, more: impl IntoIterator<Item = Requirement>) -> Self {
        let mut requirements = self.requirements.clone();
        requirements.extend(more);
        sort_by_key(&mut requirements);
        Self {
            requirements,
            nothing: self.nothing,
        }
    }

    /// The requirements, sorted by key.
    pub fn requirements(&self) -> &[Requirement] {
        &self.requirements
    }

    /// `Selector.Empty()`: true when the selector does not restrict anything.
    pub fn is_empty(&self) -> bool {
        !self.nothing && self.requirements.is_empty()
    }

    /// Whether the labels `get` looks up satisfy every requirement.
    pub fn matches_lookup<'l>(&self, get: impl Fn(&str) -> Option<&'l str>) -> bool {
        !self.nothing && self.requirements.iter().all(|r| r.matches_lookup(&get))
    }

    /// Whether a label map satisfies every requirement.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.matches_lookup(|k| labels.get(k).map(String::as_str))
    }
}

impl fmt::Display for Selector {
    /// `Selector.String()`: the requirements joined by `,` (empty for nothing).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.requirements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

/// `validateLabelKey`: `<path>: Invalid value: "<key>": <errors joined by "; ">`.
fn label_key_error(key: &str, path: &str, version: KubeVersion) -> Option<FieldError> {
    let errs = qualified_name_errors(key, version);
    (!errs.is_empty()).then(|| {
        FieldError::invalid(
            String::from(path),
            BadValue::String(key.into()),
            errs.join("; "),
        )
    })
}

// ---------------------------------------------------------------------------------------
// The string form: lexer and parser (labels/selector.go `Lexer`, `Parser`)
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    EndOfString,
    ClosedPar,
    Comma,
    DoesNotExist,
    DoubleEquals,
    Equals,
    GreaterThan,
    Identifier,
    In,
    LessThan,
    NotEquals,
    NotIn,
    OpenPar,
}

/// Where the parser is: `in` and `notin` are operators after a key but plain values
/// elsewhere (`x in (in)`, `notin=in`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    KeyAndOperator,
    Values,
}

/// Upstream's whitespace: space, tab, CR, LF (nothing else).
fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

fn is_special(b: u8) -> bool {
    matches!(b, b'=' | b'!' | b'(' | b')' | b',' | b'>' | b'<')
}

/// Splits the text into tokens, ending with one `EndOfString`.
///
/// Upstream's lexer reads bytes and uses 0 as its end marker, so a NUL byte ends the
/// text where a token would start, and ends an identifier or operator (being skipped)
/// right after one.
/// Operators are the longest of `==`/`!=` or a single special byte; every special byte
/// alone is a token, so the lexer's error token never arises.
fn lex(text: &str) -> Vec<(Token, &str)> {
    let bytes = text.as_bytes();
    let mut items = Vec::new();
    let mut pos = 0usize;
    loop {
        while bytes.get(pos).copied().is_some_and(is_whitespace) {
            pos += 1;
        }
        let Some(&b) = bytes.get(pos).filter(|b| **b != 0) else {
            items.push((Token::EndOfString, ""));
            return items;
        };
        if is_special(b) {
            let two = bytes.get(pos..pos + 2);
            let (tok, len) = match (two, b) {
                (Some(b"=="), _) => (Token::DoubleEquals, 2),
                (Some(b"!="), _) => (Token::NotEquals, 2),
                (_, b'=') => (Token::Equals, 1),
                (_, b'!') => (Token::DoesNotExist, 1),
                (_, b'(') => (Token::OpenPar, 1),
                (_, b')') => (Token::ClosedPar, 1),
                (_, b',') => (Token::Comma, 1),
                (_, b'>') => (Token::GreaterThan, 1),
                _ => (Token::LessThan, 1),
            };
            items.push((tok, &text[pos..pos + len]));
            pos += len;
            // Upstream's symbol scan reads one byte past the operator and keeps a NUL.
            if bytes.get(pos) == Some(&0) {
                pos += 1;
            }
            continue;
        }
        let start = pos;
        while bytes
            .get(pos)
            .is_some_and(|&c| c != 0 && !is_special(c) && !is_whitespace(c))
        {
            pos += 1;
        }
        // Every stop byte is ASCII, so `start..pos` lies on character boundaries.
        let word = &text[start..pos];
        if bytes.get(pos) == Some(&0) {
            pos += 1;
        }
        let tok = match word {
            "in" => Token::In,
            "notin" => Token::NotIn,
            _ => Token::Identifier,
        };
        items.push((tok, word));
    }
}

struct Parser<'a> {
    items: Vec<(Token, &'a str)>,
    position: usize,
    version: KubeVersion,
}

/// `strings.Join(binaryOperators, ", ")`.
const BINARY_OPERATORS: &str = "in, notin, =, ==, !=, gt, lt";

impl<'a> Parser<'a> {
    fn lookahead(&self, context: Context) -> (Token, &'a str) {
        let (tok, lit) = self
            .items
            .get(self.position)
            .copied()
            .unwrap_or((Token::EndOfString, ""));
        match (context, tok) {
            (Context::Values, Token::In | Token::NotIn) => (Token::Identifier, lit),
            _ => (tok, lit),
        }
    }

    fn consume(&mut self, context: Context) -> (Token, &'a str) {
        let item = self.lookahead(context);
        self.position += 1;
        item
    }

    fn parse(&mut self) -> Result<Vec<Requirement>, String> {
        let mut requirements = Vec::new();
        loop {
            let (tok, lit) = self.lookahead(Context::Values);
            match tok {
                Token::Identifier | Token::DoesNotExist => {
                    let r = self
                        .parse_requirement()
                        .map_err(|e| format!("unable to parse requirement: {e}"))?;
                    requirements.push(r);
                    let (t, l) = self.consume(Context::Values);
                    match t {
                        Token::EndOfString => return Ok(requirements),
                        Token::Comma => {
                            let (t2, l2) = self.lookahead(Context::Values);
                            if t2 != Token::Identifier && t2 != Token::DoesNotExist {
                                return Err(format!(
                                    "found '{l2}', expected: identifier after ','"
                                ));
                            }
                        }
                        _ => {
                            return Err(format!("found '{l}', expected: ',' or 'end of string'"));
                        }
                    }
                }
                Token::EndOfString => return Ok(requirements),
                _ => {
                    return Err(format!(
                        "found '{lit}', expected: !, identifier, or 'end of string'"
                    ));
                }
            }
        }
    }

    fn parse_requirement(&mut self) -> Result<Requirement, String> {
        use SelectorOperator as Op;
        let (key, inferred) = self.parse_key_and_infer_operator()?;
        if let Some(op @ (Op::Exists | Op::DoesNotExist)) = inferred {
            return Requirement::new(key, op, Vec::new(), self.version);
        }
        let op = self.parse_operator()?;
        let values = match op {
            Op::In | Op::NotIn => self.parse_values()?,
            _ => self.parse_exact_value()?,
        };
        Requirement::new(key, op, values, self.version)
    }

    /// The key, with `Exists` inferred when a comma or the end follows it; `!key` is
    /// `DoesNotExist` whatever follows (`!x=a` then fails on the `=`).
    fn parse_key_and_infer_operator(
        &mut self,
    ) -> Result<(&'a str, Option<SelectorOperator>), String> {
        let mut operator = None;
        let (mut tok, mut lit) = self.consume(Context::Values);
        if tok == Token::DoesNotExist {
            operator = Some(SelectorOperator::DoesNotExist);
            (tok, lit) = self.consume(Context::Values);
        }
        if tok != Token::Identifier {
            return Err(format!("found '{lit}', expected: identifier"));
        }
        // Upstream validates the key here with a nil field path, printed `<nil>`.
        if let Some(e) = label_key_error(lit, "<nil>", self.version) {
            return Err(e.message());
        }
        let (next, _) = self.lookahead(Context::Values);
        if matches!(next, Token::EndOfString | Token::Comma) && operator.is_none() {
            operator = Some(SelectorOperator::Exists);
        }
        Ok((lit, operator))
    }

    fn parse_operator(&mut self) -> Result<SelectorOperator, String> {
        use SelectorOperator as Op;
        let (tok, lit) = self.consume(Context::KeyAndOperator);
        Ok(match tok {
            Token::In => Op::In,
            Token::Equals => Op::Equals,
            Token::DoubleEquals => Op::DoubleEquals,
            Token::GreaterThan => Op::GreaterThan,
            Token::LessThan => Op::LessThan,
            Token::NotIn => Op::NotIn,
            Token::NotEquals => Op::NotEquals,
            _ => return Err(format!("found '{lit}', expected: {BINARY_OPERATORS}")),
        })
    }

    /// `(a,b)`: a set (sorted, unique); `()` and empty slots are the empty value.
    fn parse_values(&mut self) -> Result<Vec<String>, String> {
        let (tok, lit) = self.consume(Context::Values);
        if tok != Token::OpenPar {
            return Err(format!("found '{lit}' expected: '('"));
        }
        let (tok, lit) = self.lookahead(Context::Values);
        match tok {
            Token::Identifier | Token::Comma => {
                let set = self.parse_identifiers_list()?;
                if self.consume(Context::Values).0 != Token::ClosedPar {
                    // Upstream quirk: names the token seen before the list.
                    return Err(format!("found '{lit}', expected: ')'"));
                }
                Ok(set)
            }
            Token::ClosedPar => {
                self.consume(Context::Values);
                Ok(alloc::vec![String::new()])
            }
            _ => Err(format!("found '{lit}', expected: ',', ')' or identifier")),
        }
    }

    /// The list up to (not including) `)`; `(,`, `,,` and `,)` add the empty value.
    fn parse_identifiers_list(&mut self) -> Result<Vec<String>, String> {
        let mut set = Vec::new();
        loop {
            let (tok, lit) = self.consume(Context::Values);
            match tok {
                Token::Identifier => {
                    insert_sorted(&mut set, String::from(lit));
                    let (t2, l2) = self.lookahead(Context::Values);
                    match t2 {
                        Token::Comma => continue,
                        Token::ClosedPar => return Ok(set),
                        _ => return Err(format!("found '{l2}', expected: ',' or ')'")),
                    }
                }
                Token::Comma => {
                    if set.is_empty() {
                        insert_sorted(&mut set, String::new());
                    }
                    let (t2, _) = self.lookahead(Context::Values);
                    if t2 == Token::ClosedPar {
                        insert_sorted(&mut set, String::new());
                        return Ok(set);
                    }
                    if t2 == Token::Comma {
                        insert_sorted(&mut set, String::new());
                    }
                }
                _ => return Err(format!("found '{lit}', expected: ',', or identifier")),
            }
        }
    }

    /// The one value after `=`, `==`, `!=`, `>`, `<`; nothing before `,` or the end is
    /// the empty value.
    fn parse_exact_value(&mut self) -> Result<Vec<String>, String> {
        let (tok, _) = self.lookahead(Context::Values);
        if matches!(tok, Token::EndOfString | Token::Comma) {
            return Ok(alloc::vec![String::new()]);
        }
        let (tok, lit) = self.consume(Context::Values);
        if tok == Token::Identifier {
            Ok(alloc::vec![String::from(lit)])
        } else {
            Err(format!("found '{lit}', expected: identifier"))
        }
    }
}

// ---------------------------------------------------------------------------------------
// metav1.LabelSelector
// ---------------------------------------------------------------------------------------

/// `metav1.LabelSelectorRequirement`: one `matchExpressions` entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct LabelSelectorRequirement {
    /// The label key.
    pub key: String,
    /// `In`, `NotIn`, `Exists` or `DoesNotExist` (kept as written).
    pub operator: String,
    /// The values (for `In` and `NotIn`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub values: Vec<String>,
}

/// `metav1.LabelSelector`: `matchLabels` and `matchExpressions`, all of which must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct LabelSelector {
    /// `key: value` pairs, each an `Equals` requirement.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "BTreeMap::is_empty"))]
    pub match_labels: BTreeMap<String, String>,
    /// Set-based requirements.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub match_expressions: Vec<LabelSelectorRequirement>,
}

impl LabelSelector {
    /// `metav1.LabelSelectorAsSelector` with the newest release's label messages.
    pub fn to_selector(&self) -> Result<Selector, String> {
        self.to_selector_for_version(KubeVersion::NEWEST)
    }

    /// `metav1.LabelSelectorAsSelector`: an empty selector selects everything;
    /// `matchLabels` become `=` requirements (checked in key order; upstream walks a Go
    /// map, so which of several bad entries it reports first varies), then each
    /// expression's operator is mapped (`"X" is not a valid label selector operator`)
    /// and checked by [`Requirement::new`]. A missing selector (nil in Go) is
    /// [`Selector::nothing`]; see [`label_selector_as_selector`].
    pub fn to_selector_for_version(&self, version: KubeVersion) -> Result<Selector, String> {
        use SelectorOperator as Op;
        if self.match_labels.is_empty() && self.match_expressions.is_empty() {
            return Ok(Selector::everything());
        }
        let mut requirements = Vec::new();
        for (k, v) in &self.match_labels {
            requirements.push(Requirement::new(
                k,
                Op::Equals,
                alloc::vec![v.clone()],
                version,
            )?);
        }
        for expr in &self.match_expressions {
            let op = match expr.operator.as_str() {
                "In" => Op::In,
                "NotIn" => Op::NotIn,
                "Exists" => Op::Exists,
                "DoesNotExist" => Op::DoesNotExist,
                other => {
                    return Err(format!(
                        "{} is not a valid label selector operator",
                        go_quote(other)
                    ));
                }
            };
            requirements.push(Requirement::new(
                &expr.key,
                op,
                expr.values.clone(),
                version,
            )?);
        }
        Ok(Selector::everything().add(requirements))
    }

    /// Whether a label map satisfies the selector; an invalid selector matches nothing.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.to_selector().is_ok_and(|s| s.matches(labels))
    }
}

/// `metav1.LabelSelectorAsSelector` for an optional selector: `None` (nil) selects
/// nothing.
pub fn label_selector_as_selector(
    selector: Option<&LabelSelector>,
    version: KubeVersion,
) -> Result<Selector, String> {
    selector.map_or(Ok(Selector::nothing()), |s| {
        s.to_selector_for_version(version)
    })
}

#[cfg(test)]
mod tests;
