//! The What-if tab's results as HTML text, rendered in the worker (see
//! [`crate::whatif`]): the summary, the swim lanes, the cluster and the matrix at the
//! scrubbed second, capacity, `kubectl drain`'s lines and the events. The page puts the
//! text in place; it never builds this markup itself, so none of this code is in its
//! first download.
//!
//! Written by hand rather than with Yew's `html!` (which needs a DOM): every string
//! from the paste or the simulation goes through [`esc`]. The element classes are the
//! ones the tab had when it rendered in the page.

use std::fmt::Write;

use taintlab_core::matching::taint_to_string;
use taintlab_core::simulation::{ObjectRef, PodState, Source, Timeline};

use super::super::whatif::{Answer, Session};
use crate::i18n::{K, Lang, tr};

/// Lanes drawn at most (the summary, the table at a second and the events cover every
/// node).
const MAX_LANES: usize = 80;
/// Bars drawn per lane at most.
const MAX_BARS: usize = 200;
/// Rows of the table at a second, capacity rows and events shown at most.
const MAX_ROWS: usize = 500;
/// Events listed at most.
const MAX_EVENTS: usize = 2000;

/// `s` with `&`, `<`, `>`, `"` and `'` escaped, for text and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `{0}`, `{1}`… of `key` in `lang` replaced by `args` (escaped).
fn f(lang: Lang, key: K, args: &[&str]) -> String {
    let mut s = esc(tr(lang, key));
    for (i, a) in args.iter().enumerate() {
        s = s.replace(&format!("{{{i}}}"), &esc(a));
    }
    s
}

fn s(lang: Lang, key: K) -> String {
    esc(tr(lang, key))
}

fn pct(x: i64, until: i64) -> f64 {
    if until <= 0 {
        0.0
    } else {
        (x as f64 * 100.0 / until as f64).clamp(0.0, 100.0)
    }
}

fn pod_label(t: &Timeline, i: usize) -> String {
    t.pods
        .get(i)
        .map(|p| format!("{}/{}", p.namespace, p.name))
        .unwrap_or_default()
}

fn object(o: &ObjectRef) -> String {
    if o.namespace.is_empty() {
        format!("{}/{}", o.kind.as_str(), o.name)
    } else {
        format!("{}/{}/{}", o.kind.as_str(), o.namespace, o.name)
    }
}

/// The errors that stopped a run (each names its line or field), and the notes.
pub fn errors(errors: &[String], notes: &[String]) -> String {
    let mut out = String::from("<div class=\"wi-errors\">");
    for e in errors {
        let _ = write!(out, "<p class=\"error-text engine\">{}</p>", esc(e));
    }
    for n in notes {
        let _ = write!(out, "<p class=\"muted small\">{}</p>", esc(n));
    }
    out.push_str("</div>");
    out
}

/// The whole answer of a run, showing second `at`.
pub fn answer(run: &Session, at: i64, lang: Lang) -> Answer {
    Answer {
        until: Some(run.timeline.until),
        head: head(run, lang),
        lanes: lanes(&run.timeline, lang),
        now: now(run, at, lang),
        tail: tail(&run.timeline, lang),
    }
}

fn head(run: &Session, lang: Lang) -> String {
    let t = &run.timeline;
    let sum = &t.summary;
    let mut out = format!(
        "<p class=\"wi-summary narrative\">{}",
        f(
            lang,
            K::WiSummary,
            &[
                &sum.evicted.to_string(),
                &sum.rescheduled.to_string(),
                &sum.still_pending.len().to_string(),
            ],
        )
    );
    if sum.drains_unfinished {
        let _ = write!(
            out,
            " <span class=\"bad-text\">{}</span>",
            s(lang, K::WiDrainUnfinished)
        );
    }
    let _ = write!(
        out,
        "</p><p class=\"muted small wi-time\">{}</p>",
        f(
            lang,
            K::WiTime,
            &[&format!("{:.0}", run.ms), &t.until.to_string()]
        )
    );
    for n in &run.notes {
        let _ = write!(out, "<p class=\"muted small\">{}</p>", esc(n));
    }
    if !sum.still_pending.is_empty() {
        out.push_str("<ul class=\"wi-pending\">");
        for p in &sum.still_pending {
            let _ = write!(
                out,
                "<li><code>{}</code> <span class=\"engine\">{}</span></li>",
                esc(&pod_label(t, p.pod)),
                esc(&p.message)
            );
        }
        out.push_str("</ul>");
    }
    out
}

fn lanes(t: &Timeline, lang: Lang) -> String {
    let until = t.until;
    let mut out = String::from("<div class=\"lanes\">");
    let mut lane = |node: Option<usize>, label: &str| {
        let spans = || {
            t.spans.iter().filter(move |s| match node {
                Some(n) => s.node == Some(n) && s.state != PodState::Pending,
                None => s.state == PodState::Pending || s.node.is_none(),
            })
        };
        let mut rows: Vec<usize> = spans().map(|s| s.pod).collect();
        rows.sort_unstable();
        rows.dedup();
        rows.truncate(MAX_BARS);
        let height = rows.len().max(1) * 14 + 4;
        let label = esc(label);
        match node {
            Some(_) => {
                let _ = write!(
                    out,
                    "<div class=\"lane\" data-node=\"{label}\"><button type=\"button\" class=\"lane-label\" data-pick-node=\"{label}\" title=\"{}\">{label}</button>",
                    s(lang, K::WiPickNode)
                );
            }
            None => {
                let _ = write!(
                    out,
                    "<div class=\"lane pending-lane\" data-node=\"{label}\"><span class=\"lane-label\">{label}</span>"
                );
            }
        }
        let _ = write!(out, "<div class=\"lane-bars\" style=\"height:{height}px\">");
        for sp in spans() {
            let Ok(r) = rows.binary_search(&sp.pod) else {
                continue;
            };
            let end = sp.to.unwrap_or(until);
            let (class, terminating) = match sp.state {
                PodState::Pending => ("bar pending", false),
                PodState::Terminating { .. } => ("bar terminating", true),
                PodState::Running => ("bar running", false),
            };
            let gone = if sp.to.is_some() && terminating {
                " gone"
            } else {
                ""
            };
            let name = esc(&pod_label(t, sp.pod));
            let to = sp.to.map_or_else(|| "…".to_string(), |to| format!("{to}s"));
            let _ = write!(
                out,
                "<span class=\"{class}{gone}\" data-pod=\"{name}\" title=\"{name}  {}s–{to}\" style=\"left:{:.2}%;width:{:.2}%;top:{}px\"><span class=\"bar-label\">{name}</span></span>",
                sp.from,
                pct(sp.from, until),
                (pct(end, until) - pct(sp.from, until)).max(0.3),
                r * 14 + 2
            );
        }
        out.push_str(
            "<span class=\"scrub-line\" style=\"left:var(--scrub,0%)\"></span></div></div>",
        );
    };
    for (i, n) in t.nodes.iter().enumerate().take(MAX_LANES) {
        lane(Some(i), n);
    }
    lane(None, tr(lang, K::WiPendingLane));
    out.push_str("</div>");
    if t.nodes.len() > MAX_LANES {
        let _ = write!(
            out,
            "<p class=\"muted small\">{}</p>",
            f(
                lang,
                K::WiMoreLanes,
                &[&(t.nodes.len() - MAX_LANES).to_string()]
            )
        );
    }
    out
}

/// The cluster and the matrix at second `at` (clamped to the run).
pub fn now(run: &Session, at: i64, lang: Lang) -> String {
    let t = &run.timeline;
    let at = at.clamp(0, t.until.max(0));
    let cluster = t.at(at);
    let caption = f(lang, K::WiAt, &[&at.to_string()]);
    let mut out = format!(
        "<div class=\"wi-now\" data-at=\"{at}\"><table class=\"wi-at-table\"><caption>{caption}</caption><thead><tr><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
        s(lang, K::FieldNode),
        s(lang, K::WiNodeState),
        s(lang, K::WiPodsHere)
    );
    let mut pending = Vec::new();
    let mut here: Vec<Vec<(usize, bool)>> = vec![Vec::new(); t.nodes.len()];
    for p in &cluster.pods {
        match (p.state, p.node) {
            (PodState::Pending, _) | (_, None) => pending.push(p.pod),
            (state, Some(n)) => {
                if let Some(h) = here.get_mut(n) {
                    h.push((p.pod, matches!(state, PodState::Terminating { .. })));
                }
            }
        }
    }
    for n in cluster.nodes.iter().take(MAX_ROWS) {
        let name = esc(t.nodes.get(n.node).map(String::as_str).unwrap_or_default());
        let _ = write!(
            out,
            "<tr data-node=\"{name}\"><th scope=\"row\">{name}</th><td>"
        );
        if !n.ready {
            out.push_str("<span class=\"badge bad\">NotReady</span> ");
        }
        if n.unschedulable {
            out.push_str("<span class=\"badge warn\">SchedulingDisabled</span> ");
        }
        for x in &n.taints {
            let _ = write!(
                out,
                "<code class=\"engine\">{}</code> ",
                esc(&taint_to_string(x))
            );
        }
        out.push_str("</td><td class=\"wi-pods\">");
        for (p, terminating) in here.get(n.node).map(Vec::as_slice).unwrap_or_default() {
            let _ = write!(
                out,
                "<span class=\"pod-chip{}\">{}</span> ",
                if *terminating { " terminating" } else { "" },
                esc(&pod_label(t, *p))
            );
        }
        out.push_str("</td></tr>");
    }
    if !pending.is_empty() {
        let _ = write!(
            out,
            "<tr class=\"pending-row\"><th scope=\"row\">{}</th><td></td><td class=\"wi-pods\">",
            s(lang, K::WiPendingLane)
        );
        for p in &pending {
            let _ = write!(
                out,
                "<span class=\"pod-chip pending\">{}</span> ",
                esc(&pod_label(t, *p))
            );
        }
        out.push_str("</td></tr>");
    }
    out.push_str("</tbody></table>");
    matrix(&mut out, run, at, lang);
    out.push_str("</div>");
    out
}

fn matrix(out: &mut String, run: &Session, at: i64, lang: Lang) {
    let t = &run.timeline;
    let m = run.matrix(at);
    if m.rows.is_empty() || m.nodes.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<div class=\"matrix-scroll wi-matrix-scroll\" role=\"region\" tabindex=\"0\" aria-labelledby=\"wi-matrix-caption\"><table class=\"matrix wi-matrix\"><caption id=\"wi-matrix-caption\">{}</caption><thead><tr><td></td>",
        f(lang, K::WiMatrix, &[&at.to_string()])
    );
    for n in &m.nodes {
        let _ = write!(
            out,
            "<th scope=\"col\"><span class=\"node-name\">{}</span></th>",
            esc(t.nodes.get(*n).map(String::as_str).unwrap_or_default())
        );
    }
    out.push_str("</tr></thead><tbody>");
    for (pod, cells) in &m.rows {
        let label = esc(&pod_label(t, *pod));
        let _ = write!(
            out,
            "<tr data-pod=\"{label}\"><th scope=\"row\"><span class=\"pod-name\">{label}</span></th>"
        );
        for (n, failed) in m.nodes.iter().zip(cells) {
            let node = esc(t.nodes.get(*n).map(String::as_str).unwrap_or_default());
            match failed.first() {
                None => {
                    let _ = write!(
                        out,
                        "<td data-node=\"{node}\" data-fit=\"yes\"><span class=\"cell ok inline\">✓</span></td>"
                    );
                }
                Some((plugin, _)) => {
                    let reasons: Vec<String> = failed
                        .iter()
                        .flat_map(|(_, st)| st.reasons.iter().cloned())
                        .collect();
                    let _ = write!(
                        out,
                        "<td data-node=\"{node}\" data-fit=\"no\" title=\"{}\"><span class=\"cell bad inline\">{}</span></td>",
                        esc(&reasons.join("; ")),
                        plugin.name()
                    );
                }
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    let _ = write!(out, "<p class=\"muted small\">{}", s(lang, K::WiMatrixNote));
    if m.more_pods > 0 || m.more_nodes > 0 {
        let _ = write!(
            out,
            " {}",
            f(
                lang,
                K::WiMatrixMore,
                &[&m.more_pods.to_string(), &m.more_nodes.to_string()]
            )
        );
    }
    out.push_str("</p>");
}

fn tail(t: &Timeline, lang: Lang) -> String {
    let mut out = String::new();
    let cap = &t.summary.capacity;
    if !cap.is_empty() {
        let _ = write!(
            out,
            "<details class=\"wi-capacity\"><summary>{}</summary><table><thead><tr><th>{}</th><th>cpu</th><th>memory</th><th>pods</th></tr></thead><tbody>",
            s(lang, K::WiCapacity),
            s(lang, K::FieldNode)
        );
        for c in cap.iter().take(MAX_ROWS) {
            let opt = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
            let _ = write!(
                out,
                "<tr{}><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{}</td></tr>",
                if c.open { "" } else { " class=\"closed\"" },
                esc(t.nodes.get(c.node).map(String::as_str).unwrap_or_default()),
                c.cpu_milli_free
                    .map(|v| format!("{v}m"))
                    .unwrap_or_default(),
                opt(c.memory_free),
                opt(c.pods_free)
            );
        }
        out.push_str("</tbody></table></details>");
    }
    let drain: Vec<String> = t
        .events
        .iter()
        .filter(|e| e.source != Source::Event)
        .map(|e| esc(&format!("{:>6}s  {}", e.at, e.message)))
        .collect();
    if !drain.is_empty() {
        let _ = write!(
            out,
            "<h4>{}</h4><pre class=\"engine console wi-drain\">{}</pre>",
            s(lang, K::WiDrainOutput),
            drain.join("\n")
        );
    }
    let events = || t.events.iter().filter(|e| e.source == Source::Event);
    let _ = write!(
        out,
        "<details class=\"wi-events\" open><summary>{}</summary><table class=\"engine\"><thead><tr><th>t</th><th>type</th><th>reason</th><th>object</th><th>message</th></tr></thead><tbody>",
        f(lang, K::WiEvents, &[&events().count().to_string()])
    );
    for e in events().take(MAX_EVENTS) {
        let reason = esc(&e.reason);
        let _ = write!(
            out,
            "<tr data-reason=\"{reason}\"><td>{}s</td><td>{}</td><td>{reason}</td><td>{}</td><td>{}</td></tr>",
            e.at,
            esc(&e.event_type),
            esc(&object(&e.object)),
            esc(&e.message)
        );
    }
    out.push_str("</tbody></table></details>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_names_is_escaped() {
        assert_eq!(
            esc("<img src=x onerror=\"a('b')\">&"),
            "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;"
        );
        // Arguments are escaped after the translation's own text.
        assert_eq!(f(Lang::En, K::WiAt, &["<5>"]), "Cluster at &lt;5&gt; s");
    }
}
