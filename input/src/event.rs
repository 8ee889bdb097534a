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
//! | `node(s) had taint {k: v}, that the pod didn't tolerate` | 1.18 – 1.24 |
//! | `node(s) had untolerated taint {k: v}` | 1.25 – 1.34.2 |
//! | `node(s) had untolerated taint(s)` | 1.34.3+ (1.35+, and 1.34 patches with the cherry-pick) |
//!
//! A preemption suffix ending in a double period (`scheduling..`) was written by 1.25 to
//! 1.29 (the lower bound is approximate).

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
                KubeVersion::new(25, 0),
                KubeVersion::GENERIC_TAINT_MESSAGE_1_34,
            ),
            Self::LegacyTaint { .. } => {
                VersionRange::between(KubeVersion::new(18, 0), KubeVersion::new(25, 0))
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
    /// `N`, the number of nodes in the cluster.
    pub total_nodes: u32,
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
    /// The releases whose wording matches.
    pub versions: VersionRange,
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
        self.all_reasons()
            .filter_map(|r| match &r.kind {
                ReasonKind::UntoleratedTaint { key, value }
                | ReasonKind::LegacyTaint { key, value } => Some((key.as_str(), value.as_str())),
                _ => None,
            })
            .collect()
    }
}

/// Whether a text contains a FailedScheduling message.
pub fn looks_like_failed_scheduling(text: &str) -> bool {
    find_fit(text).is_some() || text.contains("no nodes available to schedule pods")
}

/// Byte offset of `A/N nodes are available` in a text.
fn find_fit(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text.get(from..)?.find(" nodes are available") {
        let at = from + i;
        let head = &text[..at];
        let digits_n = head.bytes().rev().take_while(u8::is_ascii_digit).count();
        let before_n = head.len() - digits_n;
        if digits_n > 0 && head[..before_n].ends_with('/') {
            let h2 = &head[..before_n - 1];
            let digits_a = h2.bytes().rev().take_while(u8::is_ascii_digit).count();
            if digits_a > 0 {
                return Some(h2.len() - digits_a);
            }
        }
        from = at + 1;
    }
    None
}

/// Reads a FailedScheduling message. `location` is where `text` starts; text before
/// `0/N` (event table columns) is skipped and the location moved to the message.
/// What cannot be recognised stays in the reason text.
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
    };
    let start = match (
        find_fit(text),
        text.find("no nodes available to schedule pods"),
    ) {
        (Some(a), Some(b)) => a.min(b),
        (Some(a), None) => a,
        (None, Some(b)) => b,
        (None, None) => 0,
    };
    if ev.location.column > 0 {
        ev.location.column += text[..start].chars().count();
    }
    let msg = text[start..].trim_end();
    ev.message = msg.to_string();
    ev.truncated = msg.ends_with(" ...");
    let body = msg.strip_suffix(" ...").unwrap_or(msg);
    if body.starts_with("no nodes available to schedule pods") {
        ev.no_nodes = true;
        return ev;
    }
    let (fit, rest) = parse_fit(body);
    ev.fit = fit;
    let rest = rest.trim();
    if !rest.is_empty() {
        let (others, preemption) = match rest.find("preemption: ") {
            Some(i) => (&rest[..i], Some(&rest[i + "preemption: ".len()..])),
            None => (rest, None),
        };
        ev.post_filter = others
            .trim()
            .trim_end_matches(',')
            .split(", ")
            .map(|s| s.trim().trim_end_matches('.').to_string())
            .filter(|s| !s.is_empty())
            .collect();
        if let Some(p) = preemption {
            let p = p.trim();
            ev.double_period = p.ends_with("..");
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
    let mut range = VersionRange::ANY;
    for r in ev.all_reasons() {
        range = range.intersect(r.kind.versions());
    }
    if ev.double_period {
        range = range.intersect(VersionRange::between(
            KubeVersion::new(25, 0),
            KubeVersion::new(30, 0),
        ));
    }
    ev.versions = range;
    ev
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
    let total: u32 = text[slash + 1..colon].trim().parse().unwrap_or(0);
    let after = &text[colon + "nodes are available:".len()..];
    let body = after.trim_start();
    // The histogram ends at the first ". " or at a final "." / "..".
    let (hist, rest) = match body.find(". ") {
        Some(i) => (&body[..i], &body[i + 1..]),
        None => (body.trim_end_matches('.'), ""),
    };
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
    for item in split_items(hist) {
        let (count, reason) = item.split_once(' ').unwrap_or((item, ""));
        let count: u32 = count.parse().unwrap_or(0);
        fit.reasons.push(ReasonCount {
            count,
            reason: reason.to_string(),
            kind: classify(reason),
        });
    }
    (Some(fit), rest)
}

fn starts_with_count(s: &str) -> bool {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && s.as_bytes().get(digits) == Some(&b' ')
}

/// Splits `3 a, 2 b, c, 1 d` on the `, ` that come before a count (a reason such as
/// `had taint {k: v}, that the pod didn't tolerate` contains `, ` itself).
fn split_items(s: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut start = 0;
    let mut search = 0;
    while let Some(i) = s.get(search..).and_then(|r| r.find(", ")) {
        let at = search + i;
        if starts_with_count(&s[at + 2..]) {
            items.push(&s[start..at]);
            start = at + 2;
        }
        search = at + 2;
    }
    items.push(&s[start..]);
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
        assert_eq!(e.versions.to_string(), ">= 1.18.0, < 1.25.0");

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
        assert_eq!(e.versions.to_string(), ">= 1.25.0, < 1.30.0");

        let e =
            parse("0/2 nodes are available: 2 node(s) had taints that the pod didn't tolerate.");
        assert_eq!(e.versions.to_string(), "< 1.18.0");
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
