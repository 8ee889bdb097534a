//! FailedScheduling event messages (`0/5 nodes are available: ...`), read into counts
//! and reasons so that a pasted event can be explained.
//!
//! Every historical wording of the TaintToleration plugin's reason is recognised (the
//! `Filter` status of `pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go`,
//! `ErrReasonNotMatch` up to 1.17; modelled by `taintlab_core::scheduling::filter`), and
//! the wording tells which Kubernetes releases could have written the message:
//!
//! | reason text | releases |
//! |---|---|
//! | `node(s) had taints that the pod didn't tolerate` | ≤ 1.17 |
//! | `node(s) had taint {k: v}, that the pod didn't tolerate` | 1.18 – 1.23 |
//! | `node(s) had untolerated taint {k: v}` | 1.24 – 1.34.2 (PR #109119 shipped in v1.24.0) |
//! | `node(s) had untolerated taint(s)` | 1.34.3+ (1.35+, and 1.34 patches with the cherry-pick) |
//!
//! A preemption suffix ending in a double period (`scheduling..`) was written by 1.26 to
//! 1.28 (`FitError.Error()` joined its parts with `" %v."` there; read at the tags).

use core::fmt;

use serde::{Serialize, Serializer};
use taintlab_core::KubeVersion;

use crate::diag::Location;

/// What one counted reason says, recognised.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum ReasonKind {
    /// `node(s) had untolerated taint(s)` (1.34.3 and later).
    UntoleratedTaints,
    /// `node(s) had untolerated taint {key: value}` (1.25 to 1.34.2): the first
    /// untolerated taint of the node.
    UntoleratedTaint {
        /// Taint key.
        key: String,
        /// Taint value (may be empty).
        value: String,
    },
    /// `node(s) had taint {key: value}, that the pod didn't tolerate` (1.18 to 1.24).
    LegacyTaint {
        /// Taint key.
        key: String,
        /// Taint value (may be empty).
        value: String,
    },
    /// `node(s) had taints that the pod didn't tolerate` (1.17 and earlier; also the
    /// kubelet's admission message).
    TaintsNotTolerated,
    /// `node(s) were unschedulable` (cordoned).
    Unschedulable,
    /// `node(s) had unknown conditions`.
    UnknownConditions,
    /// `Preemption is not helpful for scheduling` (inside the preemption part).
    PreemptionNotHelpful,
    /// `No preemption victims found for incoming pod` (inside the preemption part).
    NoPreemptionVictims,
    /// Any other reason (resources, affinity, volumes...).
    Other,
}

impl ReasonKind {
    /// Whether the reason is about taints.
    pub fn is_taint(&self) -> bool {
        matches!(
            self,
            Self::UntoleratedTaints
                | Self::UntoleratedTaint { .. }
                | Self::LegacyTaint { .. }
                | Self::TaintsNotTolerated
        )
    }

    /// The releases that use this wording.
    pub fn versions(&self) -> VersionRange {
        match self {
            Self::UntoleratedTaints => VersionRange::from(KubeVersion::GENERIC_TAINT_MESSAGE_1_34),
            Self::UntoleratedTaint { .. } => VersionRange::between(
                KubeVersion::new(24, 0),
                KubeVersion::GENERIC_TAINT_MESSAGE_1_34,
            ),
            Self::LegacyTaint { .. } => {
                VersionRange::between(KubeVersion::new(18, 0), KubeVersion::new(24, 0))
            }
            Self::TaintsNotTolerated => VersionRange::below(KubeVersion::new(18, 0)),
            _ => VersionRange::ANY,
        }
    }
}

/// Kubernetes releases a message could come from: `min` inclusive, `below` exclusive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VersionRange {
    /// First possible release.
    pub min: Option<KubeVersion>,
    /// First release that is no longer possible.
    pub below: Option<KubeVersion>,
}

impl VersionRange {
    /// Every release.
    pub const ANY: VersionRange = VersionRange {
        min: None,
        below: None,
    };

    /// `min` and later.
    pub fn from(min: KubeVersion) -> Self {
        Self {
            min: Some(min),
            below: None,
        }
    }

    /// Before `below`.
    pub fn below(below: KubeVersion) -> Self {
        Self {
            min: None,
            below: Some(below),
        }
    }

    /// `min` up to, not including, `below`.
    pub fn between(min: KubeVersion, below: KubeVersion) -> Self {
        Self {
            min: Some(min),
            below: Some(below),
        }
    }

    /// Both ranges at once.
    pub fn intersect(self, other: VersionRange) -> VersionRange {
        VersionRange {
            min: match (self.min, other.min) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            },
            below: match (self.below, other.below) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
        }
    }

    /// True when no release fits.
    pub fn is_empty(&self) -> bool {
        matches!((self.min, self.below), (Some(a), Some(b)) if a >= b)
    }

    /// True when a release fits.
    pub fn contains(&self, v: KubeVersion) -> bool {
        self.min.is_none_or(|m| v >= m) && self.below.is_none_or(|b| v < b)
    }
}

impl fmt::Display for VersionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.min, self.below) {
            (None, None) => f.write_str("any release"),
            (Some(a), None) => write!(f, ">= {a}"),
            (None, Some(b)) => write!(f, "< {b}"),
            (Some(a), Some(b)) => write!(f, ">= {a}, < {b}"),
        }
    }
}

impl Serialize for VersionRange {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("VersionRange", 2)?;
        st.serialize_field("min", &self.min.map(|v| v.to_string()))?;
        st.serialize_field("below", &self.below.map(|v| v.to_string()))?;
        st.end()
    }
}

/// Reads what [`VersionRange`]'s `Serialize` writes (releases as `1.<minor>[.<patch>]`).
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for VersionRange {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        struct Raw {
            #[serde(default)]
            min: Option<String>,
            #[serde(default)]
            below: Option<String>,
        }
        let raw = Raw::deserialize(d)?;
        let read = |v: Option<String>| -> Result<Option<KubeVersion>, D::Error> {
            v.map(|s| {
                KubeVersion::parse(&s)
                    .ok_or_else(|| serde::de::Error::custom(format!("not a release: {s:?}")))
            })
            .transpose()
        };
        Ok(Self {
            min: read(raw.min)?,
            below: read(raw.below)?,
        })
    }
}

/// One `<count> <reason>` item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
pub struct ReasonCount {
    /// How many nodes gave this reason.
    pub count: u32,
    /// The reason text as written.
    pub reason: String,
    /// The reason, recognised.
    pub kind: ReasonKind,
}

/// A scheduler FitError message: `0/N nodes are available: ...`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(rename_all = "camelCase")]
pub struct FitMessage {
    /// `N`, the number of nodes in the cluster; 0 when [`FitMessage::total_unknown`].
    pub total_nodes: u32,
    /// The text does not print the total: a fragment without its `0/N nodes are
    /// available:` head, or the 1.5–1.7 wordings (`fit failure summary on nodes :`,
    /// `No nodes are available that match all of the following predicates::`), which
    /// never printed it. `total_nodes` is then 0 and means "unknown".
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub total_unknown: bool,
    /// A PreFilter message, when the scheduler stopped before looking at nodes (no
    /// counts then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pre_filter: Option<String>,
    /// The counted reasons, in message order (upstream sorts them as strings).
    pub reasons: Vec<ReasonCount>,
}

/// The `preemption: ...` part of a message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(rename_all = "camelCase")]
pub struct Preemption {
    /// The text after `preemption: `.
    pub text: String,
    /// `not eligible due to preemptionPolicy=Never`.
    pub not_eligible: bool,
    /// The nested FitError of the preemption attempt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<FitMessage>,
}

/// A FailedScheduling event, read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(rename_all = "camelCase")]
pub struct SchedulingEvent {
    /// The message as found (from `0/N` or `no nodes` to the end).
    pub message: String,
    /// Where it is.
    pub location: Location,
    /// `no nodes available to schedule pods` (an empty cluster).
    pub no_nodes: bool,
    /// The main FitError, unless `no_nodes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fit: Option<FitMessage>,
    /// Post-filter messages other than preemption (`no new claims to deallocate`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub post_filter: Vec<String>,
    /// The preemption part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preemption: Option<Preemption>,
    /// The preemption part ends in `..` (releases 1.25 to 1.29).
    pub double_period: bool,
    /// The event was cut at 1024 bytes (it ends in ` ...`): the last items may be
    /// missing.
    pub truncated: bool,
    /// The releases whose wording matches (taint wording, the other reasons' wording,
    /// the head and the double period together).
    pub versions: VersionRange,
    /// The pod (or other object) the event is about, when the text names it: describe's
    /// `Name:`, an events table's `OBJECT` column (`pod/web-0`), a klog `pod="ns/name"`,
    /// 1.5's `pod (web-0) failed to fit in any node`, an Event object's
    /// `involvedObject`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    /// A later `Scheduled` event for the same object in the same paste: the node it was
    /// assigned to. The FailedScheduling is then over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduled_later: Option<String>,
}

impl SchedulingEvent {
    /// Every counted reason, main and preemption.
    pub fn all_reasons(&self) -> impl Iterator<Item = &ReasonCount> {
        self.fit
            .iter()
            .chain(self.preemption.iter().filter_map(|p| p.nodes.as_ref()))
            .flat_map(|f| f.reasons.iter())
    }

    /// The taints named by the message (`{key: value}` forms), in order.
    pub fn named_taints(&self) -> Vec<(&str, &str)> {
        let mut taints = Vec::new();
        for r in self.all_reasons() {
            if let ReasonKind::UntoleratedTaint { key, value }
            | ReasonKind::LegacyTaint { key, value } = &r.kind
            {
                taints.push((key.as_str(), value.as_str()));
            }
        }
        taints
    }
}

/// The heads a FailedScheduling message starts with, oldest last.
const NO_NODES: &str = "no nodes available to schedule pods";
/// 1.6 and 1.7: `No nodes are available that match all of the following predicates:: ...`.
const PREDICATES_HEAD: &str = "No nodes are available that match all of the following predicates::";
/// Up to 1.6: `pod (x) failed to fit in any node\nfit failure summary on nodes : ...`.
const SUMMARY_HEAD: &str = "fit failure summary on nodes :";
const FAILED_TO_FIT: &str = "failed to fit in any node";

/// Whether a text contains a FailedScheduling message (any release's wording, or a
/// fragment of counted reasons such as `3 node(s) had untolerated taint(s).`).
pub fn looks_like_failed_scheduling(text: &str) -> bool {
    find_start(text).is_some()
}

/// Byte offset where the message starts, and whether it is only a fragment.
fn find_start(text: &str) -> Option<(usize, bool)> {
    let heads = [
        find_fit(text),
        text.find(NO_NODES),
        text.find(PREDICATES_HEAD),
        text.find("pod (")
            .filter(|&i| text[i..].contains(FAILED_TO_FIT)),
        text.find(SUMMARY_HEAD),
    ];
    if let Some(i) = heads.into_iter().flatten().min() {
        return Some((i, false));
    }
    find_fragment(text).map(|i| (i, true))
}

/// A list of counted reasons without its head: `2 node(s) had untolerated taint(s), 1
/// Insufficient cpu.`, at the start of the text or after a wrapper (quote, backtick,
/// parenthesis, `> `).
fn find_fragment(text: &str) -> Option<usize> {
    let t = text.trim_start_matches(|c: char| {
        c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '(' | '>' | '*' | '-')
    });
    let at = text.len() - t.len();
    if !starts_with_count(t) {
        return None;
    }
    let first = split_items(t.trim_end().trim_end_matches('.'))
        .into_iter()
        .next()
        .unwrap_or("");
    let reason = first.split_once(' ').map(|x| x.1).unwrap_or("");
    let known = reason.starts_with("node(s) ")
        || reason.starts_with("Insufficient ")
        || reason.starts_with("Too many pods")
        || reason.starts_with("Preemption is not helpful");
    known.then_some(at)
}

/// How many ASCII digits `s` ends with.
fn trailing_digits(s: &str) -> usize {
    let b = s.as_bytes();
    let mut n = 0;
    while n < b.len() && b[b.len() - 1 - n].is_ascii_digit() {
        n += 1;
    }
    n
}

/// Byte offset of `A/N nodes are available` in a text.
fn find_fit(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text.get(from..)?.find(" nodes are available") {
        let at = from + i;
        let head = &text[..at];
        let digits_n = trailing_digits(head);
        let before_n = head.len() - digits_n;
        if digits_n > 0 && head[..before_n].ends_with('/') {
            let h2 = &head[..before_n - 1];
            let digits_a = trailing_digits(h2);
            if digits_a > 0 {
                return Some(h2.len() - digits_a);
            }
        }
        from = at + 1;
    }
    None
}

/// The message text from `start`: when a quote opens right before it (a klog
/// `err="..."`, a JSON string), up to the closing quote with `\"`, `\\` and `\n`
/// unescaped; otherwise to the end, without a wrapper that closes there (a quote,
/// backtick or parenthesis that the text before the message opened).
fn unwrap_message(text: &str, start: usize) -> String {
    let before = text[..start].trim_end();
    let rest = &text[start..];
    if before.ends_with('"') {
        let mut out = String::with_capacity(rest.len());
        let mut it = rest.chars();
        while let Some(c) = it.next() {
            match c {
                '"' => return out,
                '\\' => match it.next() {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some(o) => out.push(o),
                    None => {}
                },
                _ => out.push(c),
            }
        }
        return out;
    }
    let mut m = rest.trim_end();
    // Wrappers that close the message: `"...scheduling.."`, `(... taint(s).)`.
    while let Some(last) = m.chars().last() {
        let strip = match last {
            '"' | '\'' | '`' => m.matches(last).count() % 2 == 1,
            ')' => m.matches(')').count() > m.matches('(').count(),
            ']' => m.matches(']').count() > m.matches('[').count(),
            ',' | ';' | '*' | '_' => true,
            _ => false,
        };
        if !strip {
            break;
        }
        m = m[..m.len() - last.len_utf8()].trim_end();
    }
    // An old scheduler's log suffix.
    let m = m.strip_suffix("; retrying").unwrap_or(m);
    m.to_string()
}

/// Reads a FailedScheduling message. `location` is where `text` starts; text before
/// the message (event table columns, a log prefix, an opening quote) is skipped and
/// the location moved to the message. What cannot be recognised stays in the reason
/// text.
pub fn parse_message(text: &str, location: Location) -> SchedulingEvent {
    let text = text.trim_end_matches(['\r', '\n']);
    let mut ev = SchedulingEvent {
        message: String::new(),
        location,
        no_nodes: false,
        fit: None,
        post_filter: Vec::new(),
        preemption: None,
        double_period: false,
        truncated: false,
        versions: VersionRange::ANY,
        object: object_in(text),
        scheduled_later: None,
    };
    let (start, fragment) = find_start(text).unwrap_or((0, false));
    if ev.location.column > 0 {
        ev.location.column += text[..start].chars().count();
    }
    let msg = unwrap_message(text, start);
    // Wrapped text: line breaks and runs of spaces read as one space.
    let msg = if msg.contains(['\n', '\t']) || msg.contains("  ") {
        let mut joined = String::new();
        for w in msg.split_whitespace() {
            if !joined.is_empty() {
                joined.push(' ');
            }
            joined.push_str(w);
        }
        joined
    } else {
        msg
    };
    ev.message = msg.clone();
    let msg = msg.as_str();
    ev.truncated = msg.ends_with(" ...") || msg.ends_with('…');
    let body = msg
        .strip_suffix(" ...")
        .or_else(|| msg.strip_suffix('…'))
        .unwrap_or(msg);
    if body.starts_with(NO_NODES) {
        ev.no_nodes = true;
        return ev;
    }
    let mut range = VersionRange::ANY;
    if let Some(fit) = parse_old(body) {
        range = fit.1;
        ev.fit = Some(fit.0);
        if ev.object.is_none()
            && let Some(name) = body
                .strip_prefix("pod (")
                .and_then(|r| r.split_once(") "))
                .map(|x| x.0)
        {
            ev.object = Some(name.to_string());
        }
    } else if fragment {
        let (hist, rest) = split_histogram(body);
        let mut fit = FitMessage {
            total_unknown: true,
            ..FitMessage::default()
        };
        push_reasons(&mut fit, hist);
        ev.fit = Some(fit);
        post_filter(&mut ev, rest);
    } else {
        let (fit, rest) = parse_fit(body);
        ev.fit = fit;
        post_filter(&mut ev, rest);
    }
    for r in ev.all_reasons() {
        range = range.intersect(r.kind.versions());
        range = range.intersect(reason_versions(&r.reason));
    }
    if ev.double_period {
        // `FitError.Error()` joined its parts with `" %v."` in 1.26-1.28 only (read at
        // the v1.25.0, v1.26.0, v1.28.0 and v1.29.0 tags of pkg/scheduler/framework).
        range = range.intersect(VersionRange::between(
            KubeVersion::new(26, 0),
            KubeVersion::new(29, 0),
        ));
    }
    if !fragment && ev.fit.as_ref().is_some_and(|f| !f.total_unknown) {
        // `0/N nodes are available:` is 1.8 and later.
        range = range.intersect(VersionRange::from(KubeVersion::new(8, 0)));
    }
    ev.versions = range;
    ev
}

/// The releases the wording of a reason other than the taint one implies
/// (`pkg/scheduler/framework/plugins/nodeaffinity`: `ErrReasonPod` became "didn't match
/// Pod's node affinity/selector" in 1.21).
fn reason_versions(reason: &str) -> VersionRange {
    match reason {
        "node(s) didn't match node selector" => VersionRange::below(KubeVersion::new(21, 0)),
        "node(s) didn't match Pod's node affinity/selector"
        | "node(s) didn't match Pod's node affinity" => VersionRange::from(KubeVersion::new(21, 0)),
        _ => VersionRange::ANY,
    }
}

/// The object a line names: `pod/web-0` (events table), `pod="ns/web-0"` (klog).
fn object_in(text: &str) -> Option<String> {
    if let Some(i) = text.find("pod=\"") {
        let r = &text[i + 5..];
        let end = r.find('"')?;
        return Some(r[..end].to_string());
    }
    None
}

/// The 1.5–1.7 wordings: `Reason (count), ...` after their head.
fn parse_old(body: &str) -> Option<(FitMessage, VersionRange)> {
    let (items, range) = if let Some(i) = body.find(SUMMARY_HEAD) {
        (
            &body[i + SUMMARY_HEAD.len()..],
            VersionRange::below(KubeVersion::new(7, 0)),
        )
    } else if let Some(i) = body.find(PREDICATES_HEAD) {
        (
            &body[i + PREDICATES_HEAD.len()..],
            // Seen from 1.6 clusters (kops, mid-2017) to 1.7; 1.8 prints `0/N`.
            VersionRange::between(KubeVersion::new(6, 0), KubeVersion::new(8, 0)),
        )
    } else if let Some(i) = body.find("fit failure on node (") {
        // 1.4/1.5 with one node: `fit failure on node (name): Reason, Reason`.
        let rest = &body[i..];
        let items = rest.split_once("): ").map_or("", |x| x.1);
        let mut fit = FitMessage {
            total_unknown: true,
            ..FitMessage::default()
        };
        for r in items.trim().trim_end_matches('.').split(',') {
            let r = r.trim();
            if r.is_empty() {
                continue;
            }
            let kind = match r {
                "PodToleratesNodeTaints" => ReasonKind::TaintsNotTolerated,
                r => classify(r),
            };
            fit.reasons.push(ReasonCount {
                count: 1,
                reason: r.to_string(),
                kind,
            });
        }
        return Some((fit, VersionRange::below(KubeVersion::new(7, 0))));
    } else if body.starts_with("pod (") && body.contains(FAILED_TO_FIT) {
        ("", VersionRange::below(KubeVersion::new(7, 0)))
    } else {
        return None;
    };
    let mut fit = FitMessage {
        total_unknown: true,
        ..FitMessage::default()
    };
    let items = items.trim().trim_end_matches('.');
    for item in items.split(',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let (reason, count) = match crate::rsplit_once_str(item, " (") {
            Some((r, c)) => (
                r.trim(),
                crate::parse_u32(c.trim_end_matches(')')).unwrap_or(0),
            ),
            None => (item, 0),
        };
        let kind = match reason {
            "PodToleratesNodeTaints" => ReasonKind::TaintsNotTolerated,
            "NodeUnschedulable" | "CheckNodeUnschedulable" => ReasonKind::Unschedulable,
            r => classify(r),
        };
        fit.reasons.push(ReasonCount {
            count,
            reason: reason.to_string(),
            kind,
        });
    }
    Some((fit, range))
}

/// Splits the histogram (up to the first ". " or a final "." / "..") from the rest.
fn split_histogram(body: &str) -> (&str, &str) {
    match body.find(". ") {
        Some(i) => (&body[..i], &body[i + 1..]),
        None => (body.trim_end_matches('.'), ""),
    }
}

fn push_reasons(fit: &mut FitMessage, hist: &str) {
    for item in split_items(hist) {
        let (count, reason) = item.split_once(' ').unwrap_or((item, ""));
        let count = crate::parse_u32(count).unwrap_or(0);
        fit.reasons.push(ReasonCount {
            count,
            reason: reason.to_string(),
            kind: classify(reason),
        });
    }
}

/// Post-filter messages and the preemption part after the histogram.
fn post_filter(ev: &mut SchedulingEvent, rest: &str) {
    let rest = rest.trim();
    if rest.is_empty() {
        return;
    }
    let (others, preemption) = match rest.find("preemption: ") {
        Some(i) => (&rest[..i], Some(&rest[i + "preemption: ".len()..])),
        None => (rest, None),
    };
    for s in others.trim().trim_end_matches(',').split(", ") {
        let s = s.trim().trim_end_matches('.');
        if !s.is_empty() {
            ev.post_filter.push(s.to_string());
        }
    }
    if let Some(p) = preemption {
        let p = p.trim();
        ev.double_period = p.ends_with("..") && !p.ends_with("...");
        let not_eligible = p.starts_with("not eligible due to preemptionPolicy=Never");
        let nodes = if find_fit(p) == Some(0) {
            parse_fit(p).0
        } else {
            None
        };
        ev.preemption = Some(Preemption {
            text: p.to_string(),
            not_eligible,
            nodes,
        });
    }
}

/// Parses `A/N nodes are available: ...` up to the end of its histogram; returns the
/// rest (post-filter messages).
fn parse_fit(text: &str) -> (Option<FitMessage>, &str) {
    let Some(colon) = text.find("nodes are available:") else {
        return (None, text);
    };
    let Some(slash) = text[..colon].rfind('/') else {
        return (None, text);
    };
    let total = crate::parse_u32(text[slash + 1..colon].trim()).unwrap_or(0);
    let after = &text[colon + "nodes are available:".len()..];
    let body = after.trim_start();
    let (hist, rest) = split_histogram(body);
    let mut fit = FitMessage {
        total_nodes: total,
        ..FitMessage::default()
    };
    if !starts_with_count(hist) {
        if !hist.is_empty() {
            fit.pre_filter = Some(hist.to_string());
        }
        return (Some(fit), rest);
    }
    push_reasons(&mut fit, hist);
    (Some(fit), rest)
}

fn starts_with_count(s: &str) -> bool {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && s.as_bytes().get(digits) == Some(&b' ')
}

/// Splits `3 a, 2 b, c, 1 d` on the commas that come before a count (a reason such as
/// `had taint {k: v}, that the pod didn't tolerate` contains `, ` itself); a comma
/// without a space after it (`1 a,2 b`) separates too.
fn split_items(s: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut start = 0;
    let mut search = 0;
    while let Some(i) = s.get(search..).and_then(|r| r.find(',')) {
        let at = search + i;
        let next = s[at + 1..].trim_start();
        if starts_with_count(next) {
            items.push(s[start..at].trim());
            start = s.len() - next.len();
        }
        search = at + 1;
    }
    items.push(s[start..].trim());
    items
}

fn classify(reason: &str) -> ReasonKind {
    let braces = |r: &str| -> Option<(String, String)> {
        let open = r.find('{')?;
        let close = r[open..].find('}')? + open;
        let inner = &r[open + 1..close];
        let (k, v) = inner.split_once(": ").or_else(|| inner.split_once(':'))?;
        Some((k.trim().to_string(), v.trim().to_string()))
    };
    match reason {
        "node(s) had untolerated taint(s)" => ReasonKind::UntoleratedTaints,
        "node(s) had taints that the pod didn't tolerate" => ReasonKind::TaintsNotTolerated,
        "node(s) were unschedulable" => ReasonKind::Unschedulable,
        "node(s) had unknown conditions" => ReasonKind::UnknownConditions,
        "Preemption is not helpful for scheduling" => ReasonKind::PreemptionNotHelpful,
        "No preemption victims found for incoming pod" => ReasonKind::NoPreemptionVictims,
        r if r.starts_with("node(s) had untolerated taint {") => match braces(r) {
            Some((key, value)) => ReasonKind::UntoleratedTaint { key, value },
            None => ReasonKind::Other,
        },
        r if r.starts_with("node(s) had taint {")
            && r.ends_with("that the pod didn't tolerate") =>
        {
            match braces(r) {
                Some((key, value)) => ReasonKind::LegacyTaint { key, value },
                None => ReasonKind::Other,
            }
        }
        _ => ReasonKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> SchedulingEvent {
        parse_message(s, Location::default())
    }

    #[test]
    fn current_wording_with_preemption() {
        let e = parse(
            "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) had untolerated taint(s). preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
        );
        let f = e.fit.as_ref().unwrap();
        assert_eq!(f.total_nodes, 3);
        assert_eq!(f.reasons.len(), 2);
        assert_eq!(f.reasons[0].kind, ReasonKind::Unschedulable);
        assert_eq!(f.reasons[1].count, 2);
        assert_eq!(f.reasons[1].kind, ReasonKind::UntoleratedTaints);
        let p = e.preemption.as_ref().unwrap();
        assert_eq!(
            p.nodes.as_ref().unwrap().reasons[0].kind,
            ReasonKind::PreemptionNotHelpful
        );
        assert!(!e.double_period);
        assert_eq!(e.versions, VersionRange::from(KubeVersion::new(34, 3)));
    }

    #[test]
    fn old_wordings_and_versions() {
        let e = parse(
            "0/5 nodes are available: 2 Insufficient cpu, 3 node(s) had taint {dedicated: gpu}, that the pod didn't tolerate.",
        );
        let f = e.fit.unwrap();
        assert_eq!(f.reasons.len(), 2);
        assert_eq!(
            f.reasons[1].kind,
            ReasonKind::LegacyTaint {
                key: "dedicated".into(),
                value: "gpu".into()
            }
        );
        assert_eq!(e.versions.to_string(), ">= 1.18.0, < 1.24.0");

        let e = parse(
            "0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 node(s) had untolerated taint {dedicated: infra}. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling..",
        );
        assert!(e.double_period);
        assert_eq!(
            e.named_taints(),
            vec![
                ("node-role.kubernetes.io/control-plane", ""),
                ("dedicated", "infra")
            ]
        );
        assert_eq!(e.versions.to_string(), ">= 1.26.0, < 1.29.0");

        let e =
            parse("0/2 nodes are available: 2 node(s) had taints that the pod didn't tolerate.");
        // `0/N nodes are available:` itself is 1.8 and later.
        assert_eq!(e.versions.to_string(), ">= 1.8.0, < 1.18.0");
    }

    #[test]
    fn releases_before_1_8() {
        let e = parse(
            "pod (web-0) failed to fit in any node\nfit failure summary on nodes : PodToleratesNodeTaints (2), Insufficient cpu (1)",
        );
        let f = e.fit.as_ref().unwrap();
        assert!(f.total_unknown);
        assert_eq!(f.reasons.len(), 2);
        assert_eq!(f.reasons[0].kind, ReasonKind::TaintsNotTolerated);
        assert_eq!(f.reasons[0].count, 2);
        assert_eq!(f.reasons[1].reason, "Insufficient cpu");
        assert_eq!(e.object.as_deref(), Some("web-0"));
        assert_eq!(e.versions.to_string(), "< 1.7.0");

        let e = parse(
            "No nodes are available that match all of the following predicates:: MatchNodeSelector (3), PodToleratesNodeTaints (1).",
        );
        let f = e.fit.as_ref().unwrap();
        assert_eq!((f.reasons[0].count, f.reasons[1].count), (3, 1));
        assert!(f.reasons[1].kind.is_taint());
        assert_eq!(e.versions.to_string(), ">= 1.6.0, < 1.8.0");
    }

    #[test]
    fn joined_wrapped_fragment_and_wrappers() {
        let e = parse(
            "0/3 nodes are available: 1 node(s) were unschedulable,2 node(s) had untolerated taint(s).",
        );
        assert_eq!(e.fit.unwrap().reasons.len(), 2);
        let e = parse(
            "0/3 nodes are available: 1 node(s) were unschedulable,\n   2 node(s) had untolerated\n   taint(s).",
        );
        let f = e.fit.unwrap();
        assert_eq!(f.reasons[1].reason, "node(s) had untolerated taint(s)");
        let e = parse("  2 node(s) had untolerated taint {dedicated: gpu}, 1 Insufficient memory.");
        let f = e.fit.as_ref().unwrap();
        assert!(f.total_unknown);
        assert_eq!(e.named_taints(), vec![("dedicated", "gpu")]);
        let e = parse(
            "Message: \"0/2 nodes are available: 2 node(s) had untolerated taint {a: }. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling..\"",
        );
        assert!(e.double_period);
        assert!(!e.preemption.as_ref().unwrap().text.contains('"'));
        let e = parse("(`0/1 nodes are available: 1 node(s) had untolerated taint(s).`)");
        assert_eq!(
            e.message,
            "0/1 nodes are available: 1 node(s) had untolerated taint(s)."
        );
    }

    #[test]
    fn klog_and_other_reasons_narrow_the_release() {
        let e = parse(
            r#"I0115 08:00:00.000000       1 schedule_one.go:1004] "Unable to schedule pod; no fit; waiting" pod="shop/cart-7" err="0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 node(s) didn't match node selector. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling..""#,
        );
        assert_eq!(e.object.as_deref(), Some("shop/cart-7"));
        assert!(e.double_period);
        assert!(e.versions.is_empty(), "{}", e.versions);
        let e = parse(
            "0/3 nodes are available: 1 node(s) had taint {a: b}, that the pod didn't tolerate, 2 node(s) didn't match Pod's node affinity/selector.",
        );
        assert_eq!(e.versions.to_string(), ">= 1.21.0, < 1.24.0");
        let e = parse(
            r#"{"msg":"x","err":"0/2 nodes are available: 2 node(s) had taint {\"a\": b}, that the pod didn't tolerate."}"#,
        );
        assert_eq!(e.fit.unwrap().reasons.len(), 1);
    }

    #[test]
    fn other_forms() {
        let e = parse("no nodes available to schedule pods");
        assert!(e.no_nodes);
        let e = parse(
            "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
        );
        assert_eq!(
            e.fit.unwrap().pre_filter.as_deref(),
            Some("pod has unbound immediate PersistentVolumeClaims")
        );
        let e = parse(
            "0/1 nodes are available: 1 node(s) had untolerated taint(s). preemption: not eligible due to preemptionPolicy=Never.",
        );
        assert!(e.preemption.unwrap().not_eligible);
        let e = parse(
            "  Warning  FailedScheduling  2m (x3 over 5m)  default-scheduler  0/10 nodes are available: 10 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/10 nodes are available: 10 No preemption victims found for incoming pod.",
        );
        assert!(e.message.starts_with("0/10"));
        assert_eq!(
            e.fit.unwrap().reasons[0].reason,
            "Insufficient nvidia.com/gpu"
        );
        assert_eq!(
            e.post_filter,
            vec!["no new claims to deallocate".to_string()]
        );
    }

    #[test]
    fn odd_text_does_not_panic() {
        // Found by fuzzing: a slash after the colon.
        let e = parse("x nodes are available: 1/2 nodes are available");
        assert_eq!(e.fit, None);
        let e = parse("0/2 nodes are available: 2 a/b.");
        assert_eq!(e.fit.unwrap().total_nodes, 2);
        let _ = parse("0/ nodes are available:");
        let _ = parse("nodes are available: 0/1 nodes are available:");
    }

    #[test]
    fn truncated() {
        let e = parse(
            "0/300 nodes are available: 1 node(s) had untolerated taint {a: b}, 1 node(s) had untol ...",
        );
        assert!(e.truncated);
        assert_eq!(e.fit.unwrap().reasons.len(), 2);
    }
}
