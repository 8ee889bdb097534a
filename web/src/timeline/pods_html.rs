//! The per-pod eviction timelines as HTML text, rendered in the worker (message
//! `timeline`, see [`crate::policy::PolicyWorker::timeline`]): the node-failure
//! narrative, one accessible SVG per pod (title, description and a text list of what
//! happens, on an axis in percent of the width), the pods not placed, the steps that
//! could not be read and the controller's Events. The page's tab
//! ([`super::Timeline`]) keeps the scenario's form and puts this text in place, so
//! neither this code, the timeline's model nor the core's eviction simulators are in
//! the page's first download.
//!
//! Written by hand rather than with Yew's `html!` (which needs a DOM): every string from
//! the paste or the simulation goes through [`esc`]. The element classes are the ones
//! the tab had when it rendered in the page.

use std::fmt::Write;

use super::model::{Mark, Model, PodLine, node_failure, taint_scenario};
use super::view::PART;
use super::whatif_html::esc;
use crate::analysis::Analysis;
use crate::i18n::{K, Lang, T};
use crate::store::Scenario;

/// The worker's answer for the tab: the node the node-failure preset failed (empty
/// without the preset), the separator `U+0001`, the HTML.
pub fn answer(a: &Analysis, s: &Scenario, lang: Lang) -> String {
    let model = match &s.failure {
        Some(f) => node_failure(a, f),
        None => taint_scenario(a, s),
    };
    let mut out = model.failed_node.clone().unwrap_or_default();
    out.push(PART);
    out.push_str(&render(&model, T(lang)));
    out
}

/// The model as HTML.
pub fn render(m: &Model, t: T) -> String {
    let mut out = String::new();
    for e in &m.errors {
        let _ = write!(
            out,
            "<p class=\"error-text\">{}</p>",
            esc(&t.f(K::StepInvalid, &[e]))
        );
    }
    if let Some(g) = m.grace {
        let tainted = m
            .tainted_at
            .map(|x| t.f(K::AtSeconds, &[&x.to_string()]))
            .unwrap_or_else(|| t.s(K::NeverWord).to_string());
        let _ = write!(
            out,
            "<p class=\"narrative\">{}</p>",
            esc(&t.f(K::FailureNarrative, &[&g.to_string(), &tainted]))
        );
    }
    for (i, l) in m.pods.iter().enumerate() {
        if l.node.is_some() {
            pod_svg(&mut out, t, m, i, l);
        } else {
            let _ = write!(
                out,
                "<p class=\"muted\">{}</p>",
                esc(&t.f(K::PodNotPlaced, &[&l.label]))
            );
        }
    }
    if !m.events.is_empty() {
        let _ = write!(
            out,
            "<details class=\"controller-events\"><summary>{}</summary><pre class=\"engine console\">",
            esc(t.s(K::ControllerEvents))
        );
        for (i, (at, msg)) in m.events.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&esc(&format!(
                "{at:>6}s  Normal  TaintManagerEviction  {msg}"
            )));
        }
        out.push_str("</pre></details>");
    }
    out
}

/// A tick step giving about six ticks.
fn tick_step(until: i64) -> i64 {
    let raw = (until as f64 / 6.0).max(1.0);
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let nice = if norm <= 1.0 {
        1.0
    } else if norm <= 2.0 {
        2.0
    } else if norm <= 5.0 {
        5.0
    } else {
        10.0
    };
    (nice * mag) as i64
}

/// Left and right margins of the axis, in percent of the width.
const LEFT: f64 = 1.0;
const RIGHT: f64 = 1.5;

/// Position of second `t` on the axis, in percent of the width (percentages keep
/// circles round and text undistorted at any width).
fn x(t: i64, until: i64) -> f64 {
    LEFT + (t as f64 / until.max(1) as f64) * (100.0 - LEFT - RIGHT)
}

/// A percentage for an SVG attribute, with one decimal (integer arithmetic keeps float
/// formatting code out of the wasm).
fn pct(v: f64) -> String {
    let tenths = (v * 10.0).round() as i64;
    format!("{}.{}%", tenths / 10, (tenths % 10).abs())
}

fn mark_text(t: T, at: i64, m: &Mark) -> String {
    let s = at.to_string();
    match m {
        Mark::TaintAdded(taint) => t.f(K::TaintAddedAt, &[taint, &s]),
        Mark::TaintRemoved(taint) => t.f(K::TaintRemovedAt, &[taint, &s]),
        Mark::ReadyUnknown => t.f(K::ReadyUnknownAt, &[&s]),
        Mark::Recovered => t.f(K::RecoveredAt, &[&s]),
        Mark::Cancelled => t.f(K::Cancelled, &[&s]),
        Mark::Evicted => t.f(K::EvictedAt, &[&s]),
    }
}

fn pod_svg(out: &mut String, t: T, m: &Model, i: usize, line: &PodLine) {
    let until = m.until;
    let end = line.evicted_at.unwrap_or(until);
    let outcome = match (line.evicted_at, line.pending_at) {
        (Some(e), _) => t.f(K::EvictedAt, &[&e.to_string()]),
        (None, Some(p)) => t.f(K::PendingAt, &[&p.to_string()]),
        (None, None) => t.s(K::StaysBound).to_string(),
    };
    let mut desc: Vec<String> = vec![t.f(K::PodCreatedAt, &["0"])];
    if let Some(g) = m.grace {
        desc.push(format!("{} {g} s", t.s(K::GracePeriod)));
    }
    for (s, e) in &line.windows {
        desc.push(t.f(
            K::ToleratedWindow,
            &[
                &s.to_string(),
                &e.map(|e| e.to_string()).unwrap_or_else(|| "∞".into()),
            ],
        ));
    }
    // The eviction itself is the outcome, listed last.
    desc.extend(
        line.marks
            .iter()
            .filter(|(_, mk)| *mk != Mark::Evicted)
            .map(|(a, mk)| mark_text(t, *a, mk)),
    );
    desc.push(outcome.clone());
    let label = esc(&line.label);
    let on_node = match &line.node {
        Some(n) => format!(" · {}", esc(&t.f(K::OnNode, &[n]))),
        None => String::new(),
    };
    let class = if line.evicted_at.is_some() {
        "bad-text"
    } else if line.pending_at.is_some() {
        "warn-text"
    } else {
        "ok-text"
    };
    let _ = write!(
        out,
        "<figure class=\"timeline\"><figcaption><strong>{label}</strong>{on_node} · <span class=\"{class}\">{}</span></figcaption>\
         <svg width=\"100%\" height=\"96\" role=\"img\" aria-labelledby=\"tl-title-{i} tl-desc-{i}\" class=\"tl-svg\">\
         <title id=\"tl-title-{i}\">{label}</title><desc id=\"tl-desc-{i}\">{}</desc>",
        esc(&outcome),
        esc(&desc.join("; "))
    );
    let x0 = x(0, until);
    if let Some(g) = m.grace {
        let _ = write!(
            out,
            "<rect class=\"tl-grace\" x=\"{}\" y=\"30\" width=\"{}\" height=\"28\"></rect>",
            pct(x0),
            pct((x(g, until) - x0).max(0.0))
        );
    }
    let _ = write!(
        out,
        "<rect class=\"tl-bound\" x=\"{}\" y=\"44\" width=\"{}\" height=\"8\" rx=\"3\"></rect>",
        pct(x0),
        pct((x(end, until) - x0).max(0.2))
    );
    for (s, e) in &line.windows {
        let e = e.unwrap_or(until).min(until);
        let _ = write!(
            out,
            "<rect class=\"tl-window\" x=\"{}\" y=\"40\" width=\"{}\" height=\"16\" rx=\"3\"></rect>",
            pct(x(*s, until)),
            pct((x(e, until) - x(*s, until)).max(0.3))
        );
    }
    for (a, mk) in &line.marks {
        let at = pct(x(*a, until));
        let class = match mk {
            Mark::TaintAdded(_) | Mark::ReadyUnknown => "tl-mark add",
            Mark::TaintRemoved(_) | Mark::Recovered => "tl-mark remove",
            Mark::Cancelled => "tl-mark cancel",
            Mark::Evicted => "tl-mark evict",
        };
        let _ = write!(
            out,
            "<g class=\"{class}\"><line x1=\"{at}\" x2=\"{at}\" y1=\"16\" y2=\"64\"></line><circle cx=\"{at}\" cy=\"16\" r=\"5\"></circle></g>"
        );
    }
    let _ = write!(
        out,
        "<line class=\"tl-axis\" x1=\"{}\" x2=\"{}\" y1=\"74\" y2=\"74\"></line>",
        pct(LEFT),
        pct(100.0 - RIGHT)
    );
    let step = tick_step(until).max(1);
    for k in (0..=until / step).map(|k| k * step) {
        let at_x = x(k, until);
        let at = pct(at_x);
        let anchor = if k == 0 {
            "start"
        } else if at_x > 94.0 {
            "end"
        } else {
            "middle"
        };
        let _ = write!(
            out,
            "<g class=\"tl-tick\"><line x1=\"{at}\" x2=\"{at}\" y1=\"74\" y2=\"79\"></line><text x=\"{at}\" y=\"92\" text-anchor=\"{anchor}\">{k}s</text></g>"
        );
    }
    out.push_str("</svg><ul class=\"tl-list\">");
    for d in &desc {
        let _ = write!(out, "<li>{}</li>", esc(d));
    }
    out.push_str("</ul></figure>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyse, options};
    use crate::parse::parse_pane;
    use crate::store::{Admission, Failure, Step, StepOp};
    use taintlab_core::Semantics;
    use taintlab_scenario::PaneKind;

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(600), 100);
        assert_eq!(tick_step(420), 100);
        assert_eq!(tick_step(300), 50);
        assert_eq!(tick_step(120), 20);
    }

    fn analysis(nodes: &str, pods: &str) -> Analysis {
        analyse(
            &parse_pane(nodes, PaneKind::Nodes),
            &parse_pane(pods, PaneKind::Pods),
            &options(Semantics::newest(), &Admission::default()),
        )
    }

    #[test]
    fn one_escaped_figure_per_placed_pod_and_the_events() {
        let a = analysis(
            "kubectl taint nodes n1 a=b:PreferNoSchedule\n",
            "apiVersion: v1\nkind: Pod\nmetadata: {name: \"w<b>\"}\nspec:\n  containers: [{name: c, image: x}]\n",
        );
        let s = Scenario {
            steps: vec![
                Step {
                    at: 60,
                    node: "n1".into(),
                    op: StepOp::Add,
                    taint: "node.kubernetes.io/unreachable:NoExecute".into(),
                },
                Step {
                    at: 5,
                    node: "n1".into(),
                    op: StepOp::Add,
                    taint: "no effect".into(),
                },
            ],
            ..Scenario::default()
        };
        let text = answer(&a, &s, Lang::En);
        let (failed, html) = text.split_once(PART).expect("two parts");
        assert_eq!(failed, "");
        assert_eq!(html.matches("<figure class=\"timeline\">").count(), 1);
        assert!(html.contains("<strong>w&lt;b&gt;</strong>"), "{html}");
        assert!(!html.contains("w<b>"), "{html}");
        assert_eq!(html.matches("class=\"error-text\"").count(), 1, "{html}");
        assert!(html.contains("evicted at 360 s"), "{html}");
        assert!(
            html.contains("<details class=\"controller-events\">"),
            "{html}"
        );
        assert!(!html.contains("class=\"narrative\""));
    }

    #[test]
    fn the_failure_preset_names_its_node_and_tells_the_story() {
        let a = analysis(
            "kubectl taint nodes n1 a=b:PreferNoSchedule\nkubectl taint nodes n2 a=b:PreferNoSchedule\n",
            "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  nodeName: n2\n  containers: [{name: c, image: x}]\n",
        );
        let s = Scenario {
            failure: Some(Failure::default()),
            ..Scenario::default()
        };
        let text = answer(&a, &s, Lang::En);
        let (failed, html) = text.split_once(PART).expect("two parts");
        assert_eq!(failed, "n2");
        assert!(html.contains("class=\"narrative\""), "{html}");
        assert!(html.contains("(50 s)"), "{html}");
        assert_eq!(html.matches("<svg ").count(), 1);
    }
}
