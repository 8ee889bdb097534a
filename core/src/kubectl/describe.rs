//! How `kubectl describe` prints taints and tolerations (k8s.io/kubectl
//! `pkg/describe/describe.go`: `printTaintsMultilineWithIndent`,
//! `printTolerationsMultilineWithIndent`), and the tabwriter alignment of the result.
//!
//! The `describe_*` functions return the *raw* text handed to Go's `text/tabwriter`:
//! a `\t` separates the label column, continuation lines start with `\t`.
//! [`align_tabbed`] renders it the way the terminal shows it.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use crate::matching::write_taint;
use crate::model::{Operator, Taint, Toleration};

/// Where `kubectl describe node` values start: tabwriter pads the header labels to the
/// widest one (`CreationTimestamp:`, 18 characters) plus a padding of 2.
pub const DESCRIBE_NODE_VALUE_COLUMN: usize = 20;

/// Taints in `describe` order: by the string `effect + "," + key` (so `NoExecute` <
/// `NoSchedule` < `PreferNoSchedule`, then key order). Upstream uses Go's unstable
/// `sort.Slice`; taints of a valid node are unique by (effect, key), so the order is
/// fully determined. This sort is stable for the invalid rest.
pub fn sort_taints_for_describe(taints: &[Taint]) -> Vec<&Taint> {
    let mut sorted: Vec<&Taint> = taints.iter().collect();
    crate::sort::sort_by(&mut sorted, |a, b| compare_joined(a, b));
    sorted
}

/// Compares `effect + "," + key` byte for byte, as Go compares the joined strings
/// (comparing effect then key would differ when one effect is a prefix of another).
fn compare_joined(a: &Taint, b: &Taint) -> core::cmp::Ordering {
    let ja = a.effect.as_str().bytes().chain(*b",").chain(a.key.bytes());
    let jb = b.effect.as_str().bytes().chain(*b",").chain(b.key.bytes());
    ja.cmp(jb)
}

/// The `Taints:` block of `kubectl describe node`, before tabwriter:
/// `Taints:\t<first>\n` then `\t<next>\n` per further taint (each as `Taint.ToString`,
/// values shown, `timeAdded` never), or `Taints:\t<none>\n`.
pub fn describe_taints(taints: &[Taint]) -> String {
    let mut out = String::from("Taints:\t");
    if taints.is_empty() {
        out.push_str("<none>\n");
        return out;
    }
    for (i, t) in sort_taints_for_describe(taints).into_iter().enumerate() {
        if i > 0 {
            out.push('\t');
        }
        write_taint(&mut out, t);
        out.push('\n');
    }
    out
}

/// One toleration as `describe` prints it: `<key>[=<value>][:<effect>][ op=Exists][ for
/// <N>s]`.
///
/// Upstream quirks kept: ` op=Exists` appears only for `Exists` with an empty value and
/// loses its leading space when key and effect are both empty (bare `op=Exists`); `Equal`,
/// `""`, `Lt` and `Gt` all print alike (`sla=950:NoSchedule`), and `Equal` with an empty
/// value looks like `key:Effect`.
pub fn describe_toleration_line(t: &Toleration) -> String {
    let mut s = String::new();
    s.push_str(&t.key);
    if !t.value.is_empty() {
        s.push('=');
        s.push_str(&t.value);
    }
    if !t.effect.is_empty() {
        s.push(':');
        s.push_str(t.effect.as_str());
    }
    if t.operator == Operator::Exists && t.value.is_empty() {
        if !t.key.is_empty() || !t.effect.is_empty() {
            s.push(' ');
        }
        s.push_str("op=Exists");
    }
    if let Some(secs) = t.toleration_seconds {
        let _ = write!(s, " for {secs}s");
    }
    s
}

/// Tolerations in `describe` order: by key only.
///
/// Upstream uses Go's unstable `sort.Slice`, which is an insertion sort (hence stable)
/// for 12 elements or fewer; this sort is always stable, so equal keys keep their pod
/// order. For longer lists with repeated keys upstream's order may differ.
pub fn sort_tolerations_for_describe(tolerations: &[Toleration]) -> Vec<&Toleration> {
    let mut sorted: Vec<&Toleration> = tolerations.iter().collect();
    crate::sort::sort_by(&mut sorted, |a, b| a.key.cmp(&b.key));
    sorted
}

/// The `Tolerations:` block of `kubectl describe pod`, before tabwriter:
/// `Tolerations:\t<first>\n`, then `\t<next>\n`, or `Tolerations:\t<none>\n`.
pub fn describe_tolerations(tolerations: &[Toleration]) -> String {
    let mut out = String::from("Tolerations:\t");
    if tolerations.is_empty() {
        out.push_str("<none>\n");
        return out;
    }
    for (i, t) in sort_tolerations_for_describe(tolerations)
        .into_iter()
        .enumerate()
    {
        if i > 0 {
            out.push('\t');
        }
        out.push_str(&describe_toleration_line(t));
        out.push('\n');
    }
    out
}

/// Renders tab-separated text as `text/tabwriter` (padding 2, pad with spaces) does for
/// the label column: in each block of consecutive lines that contain a tab, the text
/// before the first tab is padded to the block's widest label plus 2, but at least to
/// `min_column` (pass [`DESCRIBE_NODE_VALUE_COLUMN`] to get `describe node`'s layout,
/// where wider labels of the same block sit outside the snippet). Widths count
/// characters, as tabwriter counts runes. Only the first column is aligned; later tabs
/// are kept as they are.
pub fn align_tabbed(raw: &str, min_column: usize) -> String {
    let lines: Vec<&str> = raw.split_inclusive('\n').collect();
    let mut out = String::with_capacity(raw.len() + lines.len() * min_column);
    let mut start = 0;
    while start < lines.len() {
        let has_cell = |l: &&&str| l.contains('\t');
        let block_len = lines
            .get(start..)
            .unwrap_or_default()
            .iter()
            .take_while(has_cell)
            .count();
        if block_len == 0 {
            out.push_str(lines.get(start).copied().unwrap_or_default());
            start += 1;
            continue;
        }
        let block = lines.get(start..start + block_len).unwrap_or_default();
        let widest = block
            .iter()
            .filter_map(|l| l.split_once('\t'))
            .map(|(cell, _)| cell.chars().count())
            .max()
            .unwrap_or(0);
        let column = min_column.max(widest + 2);
        for line in block {
            if let Some((cell, rest)) = line.split_once('\t') {
                out.push_str(cell);
                for _ in cell.chars().count()..column {
                    out.push(' ');
                }
                out.push_str(rest);
            }
        }
        start += block_len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TaintEffect;
    use proptest::prelude::*;

    fn tol(k: &str, op: &str, v: &str, e: &str, secs: Option<i64>) -> Toleration {
        Toleration::new(k, Operator::parse(op), v, TaintEffect::parse(e)).with_seconds(secs)
    }

    #[test]
    fn toleration_line_quirks() {
        assert_eq!(
            describe_toleration_line(&tol("", "Exists", "", "", None)),
            "op=Exists"
        );
        assert_eq!(
            describe_toleration_line(&tol("", "Exists", "", "NoExecute", None)),
            ":NoExecute op=Exists"
        );
        assert_eq!(
            describe_toleration_line(&tol("", "Exists", "", "", Some(5))),
            "op=Exists for 5s"
        );
        assert_eq!(
            describe_toleration_line(&tol(
                "node.kubernetes.io/not-ready",
                "Exists",
                "",
                "NoExecute",
                Some(300)
            )),
            "node.kubernetes.io/not-ready:NoExecute op=Exists for 300s"
        );
        assert_eq!(
            describe_toleration_line(&tol("k", "Equal", "", "NoSchedule", None)),
            "k:NoSchedule"
        );
        assert_eq!(
            describe_toleration_line(&tol("sla", "Lt", "950", "NoSchedule", None)),
            describe_toleration_line(&tol("sla", "Equal", "950", "NoSchedule", None))
        );
        // Exists with a value (invalid) prints no op marker.
        assert_eq!(
            describe_toleration_line(&tol("k", "Exists", "v", "", Some(-1))),
            "k=v for -1s"
        );
    }

    #[test]
    fn tolerations_sorted_by_key_stably() {
        let tols = [
            tol("b", "Exists", "", "NoExecute", None),
            tol("a", "Equal", "2", "", None),
            tol("a", "Equal", "1", "", None),
        ];
        assert_eq!(
            describe_tolerations(&tols),
            "Tolerations:\ta=2\n\ta=1\n\tb:NoExecute op=Exists\n"
        );
    }

    #[test]
    fn taints_block_and_alignment() {
        let taints = [
            Taint::new("z", "", TaintEffect::PreferNoSchedule),
            Taint::new("b", "1", TaintEffect::NoSchedule),
            Taint::new("a", "", TaintEffect::NoExecute),
        ];
        let raw = describe_taints(&taints);
        assert_eq!(
            raw,
            "Taints:\ta:NoExecute\n\tb=1:NoSchedule\n\tz:PreferNoSchedule\n"
        );
        let rendered = align_tabbed(&raw, DESCRIBE_NODE_VALUE_COLUMN);
        assert_eq!(
            rendered,
            "Taints:             a:NoExecute\n                    b=1:NoSchedule\n                    z:PreferNoSchedule\n"
        );
        assert_eq!(describe_taints(&[]), "Taints:\t<none>\n");
        // The column grows with a wider label; a line without tab ends the block.
        assert_eq!(
            align_tabbed("Taints:\tx\nUnschedulable:\tfalse\nplain\na:\tb", 0),
            "Taints:         x\nUnschedulable:  false\nplain\na:  b"
        );
    }

    #[test]
    fn effect_prefix_ordering_matches_go_strings() {
        // "NoSchedule,k" vs "NoSchedule+,a": Go compares ',' (0x2c) with '+' (0x2b).
        let taints = [
            Taint::new("k", "", TaintEffect::NoSchedule),
            Taint::new("a", "", TaintEffect::parse("NoSchedule+")),
        ];
        let sorted: Vec<&str> = sort_taints_for_describe(&taints)
            .iter()
            .map(|t| t.key.as_str())
            .collect();
        assert_eq!(sorted, ["a", "k"]);
    }

    proptest! {
        #[test]
        fn alignment_keeps_text(raw in "[a-z:\\t\\n ]{0,60}", col in 0usize..30) {
            let out = align_tabbed(&raw, col);
            let squash = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
            prop_assert_eq!(squash(&out), squash(&raw));
            prop_assert_eq!(out.matches('\n').count(), raw.matches('\n').count());
        }
    }
}
