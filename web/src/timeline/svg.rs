//! Drawing one pod's timeline as an accessible SVG (title, description and a text list of
//! what happens), on an axis in percent of the width.

use yew::prelude::*;

use super::model::{Mark, Model, PodLine};
use crate::i18n::{K, T};

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

pub(super) fn pod_svg(t: T, m: &Model, i: usize, line: &PodLine) -> Html {
    let until = m.until;
    let end = line.evicted_at.unwrap_or(until);
    let title_id = format!("tl-title-{i}");
    let desc_id = format!("tl-desc-{i}");
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
    let step = tick_step(until);
    let ticks: Vec<i64> = (0..=until / step.max(1)).map(|k| k * step).collect();
    html! {
        <figure class="timeline">
            <figcaption>
                <strong>{line.label.clone()}</strong>
                { match &line.node { Some(n) => format!(" · {}", t.f(K::OnNode, &[n])), None => String::new() } }
                {" · "}
                <span class={if line.evicted_at.is_some() { "bad-text" } else if line.pending_at.is_some() { "warn-text" } else { "ok-text" }}>{outcome}</span>
            </figcaption>
            <svg width="100%" height="96" role="img" aria-labelledby={format!("{title_id} {desc_id}")} class="tl-svg">
                <title id={title_id}>{line.label.clone()}</title>
                <desc id={desc_id}>{desc.join("; ")}</desc>
                if let Some(g) = m.grace {
                    <rect class="tl-grace" x={pct(x(0, until))} y="30" width={pct((x(g, until) - x(0, until)).max(0.0))} height="28" />
                }
                <rect class="tl-bound" x={pct(x(0, until))} y="44" width={pct((x(end, until) - x(0, until)).max(0.2))} height="8" rx="3" />
                { for line.windows.iter().map(|(s, e)| {
                    let e = e.unwrap_or(until).min(until);
                    html!{ <rect class="tl-window" x={pct(x(*s, until))} y="40" width={pct((x(e, until) - x(*s, until)).max(0.3))} height="16" rx="3" /> }
                }) }
                { for line.marks.iter().map(|(a, mk)| {
                    let at = pct(x(*a, until));
                    let class = match mk {
                        Mark::TaintAdded(_) | Mark::ReadyUnknown => "tl-mark add",
                        Mark::TaintRemoved(_) | Mark::Recovered => "tl-mark remove",
                        Mark::Cancelled => "tl-mark cancel",
                        Mark::Evicted => "tl-mark evict",
                    };
                    html!{ <g class={class}><line x1={at.clone()} x2={at.clone()} y1="16" y2="64" /><circle cx={at} cy="16" r="5" /></g> }
                }) }
                <line class="tl-axis" x1={pct(LEFT)} x2={pct(100.0 - RIGHT)} y1="74" y2="74" />
                { for ticks.iter().map(|&k| {
                    let at_x = x(k, until);
                    let at = pct(at_x);
                    html!{ <g class="tl-tick"><line x1={at.clone()} x2={at.clone()} y1="74" y2="79" /><text x={at} y="92" text-anchor={if k == 0 { "start" } else if at_x > 94.0 { "end" } else { "middle" }}>{format!("{k}s")}</text></g> }
                }) }
            </svg>
            <ul class="tl-list">{ for desc.iter().map(|d| html!{ <li>{d.clone()}</li> }) }</ul>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(600), 100);
        assert_eq!(tick_step(420), 100);
        assert_eq!(tick_step(300), 50);
        assert_eq!(tick_step(120), 20);
    }
}
