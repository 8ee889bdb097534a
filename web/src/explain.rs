//! Why a pod does or does not fit a node: every filter of the scheduler in order (the
//! first failing one, the ones after it not evaluated), the node's labels against the
//! pod's nodeSelector and required node-affinity terms, host ports, the resource
//! arithmetic, each taint, the toleration that tolerated it and by which rule, why
//! every other toleration did not match, the cordon check, the per-plugin scores, the
//! kubelet and the eviction consequence; the pod's tolerations after
//! admission with validation errors in the API server's words; every FailedScheduling
//! message; and pasted FailedScheduling events traced back to the pasted nodes.

use std::rc::Rc;

use taintlab_core::admission::TolerationOrigin;
use taintlab_core::matching::{MatchOutcome, describe_toleration, taint_to_string};
use taintlab_core::scheduling::Verdict;
use taintlab_core::scheduling::explain::{Eviction, TaintRole, ToleratedVia};
use taintlab_core::scheduling::filter::{Code, FilterPlugin};
use taintlab_core::{TaintEffect, Toleration};
use taintlab_input::ReasonKind;
use taintlab_scenario::{
    FilterState, Hold, PlacementExplanation, UNMODELLED_FILTER_PLUGINS, UNMODELLED_SCORE_PLUGINS,
};
use yew::prelude::*;

use crate::analysis::{Analysis, EventEntry, Origin, PodEntry};
use crate::i18n::{K, T, use_t};
use crate::matrix::amount;
use crate::store::Selection;

fn outcome_text(t: T, o: MatchOutcome) -> &'static str {
    t.s(match o {
        MatchOutcome::Tolerated => K::OutTolerated,
        MatchOutcome::EffectMismatch => K::OutEffect,
        MatchOutcome::KeyMismatch => K::OutKey,
        MatchOutcome::ValueMismatch => K::OutValue,
        MatchOutcome::ComparisonGateOff => K::OutGateOff,
        MatchOutcome::NotAnInteger => K::OutNotInteger,
        MatchOutcome::ComparisonFalse => K::OutComparison,
        MatchOutcome::UnknownOperator => K::OutOperator,
    })
}

fn via_text(t: T, v: ToleratedVia) -> &'static str {
    t.s(match v {
        ToleratedVia::ExistsAnyKey => K::ViaExistsAnyKey,
        ToleratedVia::Exists => K::ViaExists,
        ToleratedVia::Equal => K::ViaEqual,
        ToleratedVia::LessThan => K::ViaLt,
        ToleratedVia::GreaterThan => K::ViaGt,
    })
}

fn role_text(t: T, r: TaintRole) -> &'static str {
    t.s(match r {
        TaintRole::Filter => K::RoleFilter,
        TaintRole::FilterAndEviction => K::RoleFilterEviction,
        TaintRole::Score => K::RoleScore,
        TaintRole::None => K::RoleNone,
    })
}

/// The origin of a toleration, in words.
pub fn origin_text(t: T, o: Origin) -> &'static str {
    t.s(match o {
        Origin::Pod => K::OriginPod,
        Origin::DaemonSet => K::OriginDaemonSet,
        Origin::Admission(TolerationOrigin::Pod) => K::OriginPod,
        Origin::Admission(TolerationOrigin::DefaultTolerationSeconds) => K::OriginDts,
        Origin::Admission(TolerationOrigin::NamespaceDefault) => K::OriginNsDefault,
        Origin::Admission(TolerationOrigin::ClusterDefault) => K::OriginClusterDefault,
        Origin::Admission(TolerationOrigin::MemoryPressure) => K::OriginMemoryPressure,
        Origin::Admission(TolerationOrigin::ExtendedResource { .. }) => K::OriginExtended,
    })
}

/// A toleration as `kubectl describe pod` would list it, plus the structured form.
fn toleration_line(tol: &Toleration) -> String {
    describe_toleration(tol)
}

/// Properties of [`Explain`].
#[derive(Properties, PartialEq)]
pub struct ExplainProps {
    /// The analysis.
    pub analysis: Rc<Analysis>,
    /// The selected cell.
    pub selected: Option<Selection>,
}

/// The explanation of the selected cell.
#[function_component(Explain)]
pub fn explain_cell(props: &ExplainProps) -> Html {
    let t = use_t();
    let a = &props.analysis;
    let Some(sel) = props.selected else {
        return html! { <p class="empty">{t.s(K::ExplainPick)}</p> };
    };
    let (Some(pod), Some(node)) = (a.pods.get(sel.pod), a.nodes.get(sel.node)) else {
        return html! { <p class="empty">{t.s(K::ExplainPick)}</p> };
    };
    let Some(x) = a.explain(sel.pod, sel.node) else {
        return html! { <p class="empty">{t.s(K::ExplainPick)}</p> };
    };
    let verdict: String = match x.verdict {
        Verdict::Schedulable => t.s(K::VerdictSchedulable).to_string(),
        Verdict::Penalized {
            untolerated_prefer_no_schedule: n,
        } => t.f(K::VerdictPenalized, &[&n.to_string()]),
        Verdict::Unschedulable => t.s(K::VerdictUnschedulable).to_string(),
        Verdict::Untolerated { first_untolerated } => t.f(
            K::VerdictUntolerated,
            &[&node
                .node
                .taints
                .get(first_untolerated)
                .map(taint_to_string)
                .unwrap_or_default()],
        ),
        Verdict::Bypassed => t.s(K::VerdictBypassed).to_string(),
    };
    let mut verdict_class = match x.verdict {
        Verdict::Schedulable => "ok",
        Verdict::Penalized { .. } => "warn",
        Verdict::Bypassed => "none",
        _ => "bad",
    };
    let placement = a.explain_placement(sel.pod, sel.node);
    // The full chain decides when something other than a taint or the cordon blocks.
    let mut verdict = verdict;
    if let Some(px) = &placement {
        let c = &px.cell;
        let hold = match c.hold {
            Some(Hold::Gated) => Some(K::HoldGated),
            Some(Hold::OtherScheduler) => Some(K::HoldOtherScheduler),
            Some(Hold::NoDaemonPod) => Some(K::HoldNoDaemonPod),
            Some(Hold::SchedulerError) => Some(K::HoldError),
            Some(Hold::Bound) | None => None,
        };
        if let Some(k) = hold {
            verdict = t.s(k).to_string();
            verdict_class = "none";
        } else if c.hold.is_none() {
            match c.rejected_by {
                Some(FilterPlugin::NodeUnschedulable | FilterPlugin::TaintToleration) => {}
                Some(plugin) => {
                    verdict = t.f(K::VerdictRejectedBy, &[plugin.name()]);
                    verdict_class = "bad";
                }
                None if c.scores.is_none() && c.code.is_some() => {
                    verdict = t.s(K::VerdictPreFilter).to_string();
                    verdict_class = "bad";
                }
                None => {}
            }
        }
    }
    let tol_name = |i: usize| -> String {
        let d = pod
            .pod
            .tolerations
            .get(i)
            .map(toleration_line)
            .unwrap_or_default();
        format!("{} {d}", t.f(K::TolerationN, &[&(i + 1).to_string()]))
    };

    let cordon = if !x.cordon.node_unschedulable {
        t.s(K::CordonNo).to_string()
    } else if let Some(by) = x.cordon.tolerated_by {
        t.f(K::CordonTolerated, &[&tol_name(by.toleration)])
    } else {
        t.s(K::CordonBlocks).to_string()
    };

    let taint_rows = x.taints.iter().map(|te| {
        let tolerated = match &te.tolerated_by {
            Some(by) => html! {
                <>
                    <span class="ok-text">{tol_name(by.toleration)}</span>
                    <br/><span class="muted">{via_text(t, by.via)}{ if by.any_effect { format!(" {}", t.s(K::ViaAnyEffect)) } else { String::new() } }</span>
                </>
            },
            None => html! { <span class={if te.blocks_scheduling { "bad-text" } else if te.score_penalty { "warn-text" } else { "muted" }}>{t.s(K::Untolerated)}</span> },
        };
        let why = if pod.pod.tolerations.is_empty() {
            Html::default()
        } else {
            html! {
                <details class="why">
                    <summary>{t.s(K::WhyNot)}</summary>
                    <ol>
                        { for te.outcomes.iter().enumerate().map(|(i, o)| html!{
                            <li class={if o.is_tolerated() { "ok-text" } else { "" }}>
                                <code>{pod.pod.tolerations.get(i).map(toleration_line).unwrap_or_default()}</code>{": "}{outcome_text(t, *o)}
                            </li>
                        }) }
                    </ol>
                </details>
            }
        };
        let first = x.filter.first_untolerated == Some(te.index);
        html! {
            <tr class={classes!(first.then_some("first-untolerated"))}>
                <td><code>{taint_to_string(&te.taint)}</code></td>
                <td>{role_text(t, te.role)}</td>
                <td>{tolerated}{why}</td>
            </tr>
        }
    });

    let score = match a.result.score(sel.pod, sel.node) {
        Some(s) => t.f(
            K::ScoreText,
            &[
                &x.raw_score.to_string(),
                &s.to_string(),
                &x.score_weight.to_string(),
            ],
        ),
        None => t.s(K::NotFeasible).to_string(),
    };
    let eviction = match x.eviction {
        Eviction::NotApplicable => t.s(K::EvictNotApplicable).to_string(),
        Eviction::Immediate => t.s(K::EvictImmediate).to_string(),
        Eviction::After(s) => t.f(K::EvictAfterText, &[&s.to_string()]),
        Eviction::Never => t.s(K::EvictNever).to_string(),
    };

    html! {
        <article class="explanation" aria-live="polite">
            <h3>{t.f(K::PodOnNode, &[&pod.label(), &node.node.name])}</h3>
            <p class={classes!("verdict", verdict_class)}>{verdict}</p>
            if let Some(reason) = &x.filter.reason {
                <p>{t.s(K::SchedulerReason)}{": "}<code class="engine">{reason.clone()}</code></p>
            }
            if let Some(px) = &placement {
                {placement_html(t, a, sel.pod, sel.node, px)}
            }
            <h4>{t.s(K::TaintsTitle)}</h4>
            if x.taints.is_empty() {
                <p>{t.s(K::NoTaints)}</p>
            } else {
                <div class="table-scroll">
                    <table class="taints">
                        <thead><tr><th scope="col">{t.s(K::ColTaint)}</th><th scope="col">{t.s(K::ColRole)}</th><th scope="col">{t.s(K::ColToleratedBy)}</th></tr></thead>
                        <tbody>{ for taint_rows }</tbody>
                    </table>
                </div>
            }
            <h4>{t.s(K::CordonTitle)}</h4>
            <p>{cordon}</p>
            <h4>{t.s(K::ScoreTitle)}</h4>
            <p>{score}</p>
            if let Some(px) = &placement {
                {scores_html(t, px)}
            }
            <h4>{t.s(K::KubeletTitle)}</h4>
            <p>{ if x.kubelet_admits { t.s(K::KubeletAdmits) } else { t.s(K::KubeletRejects) } }</p>
            <h4>{t.s(K::EvictionTitle)}</h4>
            <p>{eviction}</p>
            {pod_details(t, pod)}
        </article>
    }
}

/// `8080/TCP` (with `hostIP` when set).
fn port_text(hp: &taintlab_core::model::HostPort) -> String {
    let proto = if hp.protocol.is_empty() {
        "TCP"
    } else {
        hp.protocol.as_str()
    };
    if hp.host_ip.is_empty() {
        format!("{}/{proto}", hp.host_port)
    } else {
        format!("{}:{}/{proto}", hp.host_ip, hp.host_port)
    }
}

fn filter_state_html(t: T, state: &FilterState) -> Html {
    match state {
        FilterState::Passed => html! { <span class="ok-text">{t.s(K::FilterPassed)}</span> },
        FilterState::Failed(status) => html! {
            <>
                <span class="bad-text">{t.s(K::FilterFailed)}</span>
                { for status.reasons.iter().map(|r| html!{ <>{" "}<code class="engine">{r.clone()}</code></> }) }
                <br/><span class="muted">{t.s(match status.code {
                    Code::Unschedulable => K::CodeUnschedulable,
                    _ => K::CodeUnresolvable,
                })}</span>
            </>
        },
        FilterState::NotEvaluated => {
            html! { <span class="muted">{t.s(K::FilterNotEvaluated)}</span> }
        }
        FilterState::NotChecked => {
            html! { <span class="warn-text">{t.s(K::FilterNotChecked)}</span> }
        }
    }
}

/// The full filter chain for one pod on one node: every filter, the labels against the
/// selector, host ports and the resource arithmetic.
fn placement_html(t: T, a: &Analysis, p: usize, n: usize, px: &PlacementExplanation) -> Html {
    let node = &a.nodes[n].node;
    let pod = a.placement.pods.get(p);
    let any_failed = px
        .filters
        .iter()
        .any(|f| matches!(f.state, FilterState::Failed(_)));
    let labels: Vec<String> = node
        .labels
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let has_selector = !px.node_selector.is_empty() || !px.affinity_terms.is_empty();
    let wanted_ports: Vec<String> = pod
        .map(|p| {
            p.placement
                .host_ports
                .iter()
                .filter(|hp| hp.host_port > 0)
                .map(port_text)
                .collect()
        })
        .unwrap_or_default();
    html! {
        <>
            <h4>{t.s(K::FiltersTitle)}</h4>
            <ol class="filters">
                { for px.filters.iter().map(|f| {
                    let failed = matches!(f.state, FilterState::Failed(_));
                    html!{
                        <li class={classes!(failed.then_some("first-failing"))} data-plugin={f.plugin.name()}>
                            <code>{f.plugin.name()}</code>{": "}{filter_state_html(t, &f.state)}
                        </li>
                    }
                }) }
            </ol>
            if any_failed && a.placement.options.stops_at_first_failure() {
                <p class="muted small">{t.s(K::FiltersStop)}</p>
            }
            <p class="muted small">{t.f(K::FiltersUnmodelled, &[&UNMODELLED_FILTER_PLUGINS.join(", ")])}</p>
            <h4>{t.s(K::LabelsTitle)}</h4>
            if labels.is_empty() {
                <p>{t.s(K::NoLabels)}</p>
            } else {
                <ul class="labels">{ for labels.iter().map(|l| html!{ <li><code>{l.clone()}</code></li> }) }</ul>
            }
            <h4>{t.s(K::SelectorTitle)}</h4>
            if !has_selector {
                <p>{t.s(K::NoSelector)}</p>
            } else {
                <ul class="selector">
                    { for px.node_selector.iter().map(|c| {
                        let (class, text) = if c.matches() {
                            ("ok-text", t.s(K::LabelMatches).to_string())
                        } else if let Some(v) = &c.node_value {
                            ("bad-text", t.f(K::LabelOther, &[&format!("{}={v}", c.key)]))
                        } else {
                            ("bad-text", t.s(K::LabelMissing).to_string())
                        };
                        html!{ <li><code>{format!("nodeSelector {}={}", c.key, c.wanted)}</code>{": "}<span class={class}>{text}</span></li> }
                    }) }
                    { for px.affinity_terms.iter().enumerate().map(|(i, ok)| {
                        let n = (i + 1).to_string();
                        html!{ <li class={if *ok { "ok-text" } else { "bad-text" }}>{t.f(if *ok { K::TermMatches } else { K::TermFails }, &[&n])}</li>
                        }
                    }) }
                </ul>
                if px.affinity_terms.len() > 1 { <p class="muted small">{t.s(K::TermsOr)}</p> }
            }
            if !wanted_ports.is_empty() {
                <h4>{t.s(K::PortsTitle)}</h4>
                <ul>
                    { for wanted_ports.iter().map(|w| html!{ <li><code>{w.clone()}</code></li> }) }
                    { for px.port_conflicts.iter().map(|hp| html!{ <li class="bad-text">{t.f(K::PortInUse, &[&port_text(hp)])}</li> }) }
                </ul>
            }
            <h4>{t.s(K::ResourcesTitle)}</h4>
            { match &px.resources {
                None => html! { <p class="warn-text">{t.s(K::ResourcesUnknown)}</p> },
                Some(lines) => html! {
                    <div class="table-scroll">
                        <table class="resources">
                            <thead><tr>
                                <th scope="col">{t.s(K::ColResource)}</th>
                                <th scope="col">{t.s(K::ColPodRequest)}</th>
                                <th scope="col">{t.s(K::ColUsed)}</th>
                                <th scope="col">{t.s(K::ColAllocatable)}</th>
                                <th scope="col">{t.s(K::ColLeft)}</th>
                            </tr></thead>
                            <tbody>
                                { for lines.iter().map(|l| {
                                    let short = px.cell.insufficient.iter().find(|i| i.resource == l.resource);
                                    let left = l.headroom();
                                    html!{
                                        <tr class={classes!(short.is_some().then_some("short"))} data-resource={l.resource.clone()}>
                                            <th scope="row"><code>{l.resource.clone()}</code></th>
                                            <td>{amount(&l.resource, l.requested)}</td>
                                            <td>{amount(&l.resource, l.used)}</td>
                                            <td>{amount(&l.resource, l.allocatable)}</td>
                                            <td class={if left < 0 { "bad-text" } else { "" }}>
                                                { if left < 0 { format!("−{}", amount(&l.resource, -left)) } else { amount(&l.resource, left) } }
                                                if let Some(i) = short { {" "}<code class="engine">{i.reason.clone()}</code> }
                                            </td>
                                        </tr>
                                    }
                                }) }
                            </tbody>
                        </table>
                    </div>
                },
            } }
        </>
    }
}

/// The per-plugin scores of a feasible node and what they leave out.
fn scores_html(t: T, px: &PlacementExplanation) -> Html {
    let Some(s) = px.cell.scores else {
        return Html::default();
    };
    let line = |name: &str, v: Option<i64>, w: i64| match v {
        Some(v) => t.f(K::ScorePlugin, &[name, &v.to_string(), &w.to_string()]),
        None => t.f(K::ScoreNotComputed, &[name]),
    };
    html! {
        <div class="scores">
            <h5>{t.s(K::ScoresTitle)}</h5>
            <ul>
                <li>{line("TaintToleration", Some(s.taint_toleration), 3)}</li>
                <li>{line("NodeAffinity", Some(s.node_affinity), 2)}</li>
                <li>{line("NodeResourcesFit", s.node_resources_fit, 1)}</li>
                <li>{line("NodeResourcesBalancedAllocation", s.balanced_allocation, 1)}</li>
            </ul>
            <p><strong>{t.f(K::ScoreCombined, &[&s.combined.to_string()])}</strong></p>
            <p class="muted small">{t.f(K::ScoreUnmodelled, &[&UNMODELLED_SCORE_PLUGINS.join(", ")])}</p>
        </div>
    }
}

/// A pod's tolerations after admission, what admission dropped, and API validation (a
/// function of the explanation, not a component: each component type costs the page its
/// own copy of Yew's lifecycle code).
pub fn pod_details(t: T, pod: &PodEntry) -> Html {
    html! {
        <>
            <h4>{t.s(K::PodTolerations)}</h4>
            if pod.tolerations.is_empty() {
                <p>{t.s(K::NoTolerations)}</p>
            } else {
                <ol class="tolerations">
                    { for pod.tolerations.iter().map(|e| html!{
                        <li><code>{toleration_line(&e.toleration)}</code>{" — "}<span class="muted">{origin_text(t, e.origin)}</span></li>
                    }) }
                </ol>
            }
            { for pod.dropped.iter().map(|d| html!{ <p class="note">{t.f(K::Dropped, &[&toleration_line(&d.toleration)])}</p> }) }
            if let Some(r) = &pod.rejection {
                <p class="bad-text">{t.s(K::AdmissionRejected)}{" "}<code class="engine">{r.clone()}</code></p>
            }
            <h4>{t.s(K::ValidationTitle)}</h4>
            if let Some(status) = &pod.status_message {
                <pre class="engine error-block">{status.clone()}</pre>
                <ul class="validation">
                    { for pod.validation.iter().map(|e| {
                        let idx = toleration_index(&e.field);
                        let line = idx.and_then(|i| pod.submitted_locations.get(i)).map(|l| l.line);
                        html!{
                            <li>
                                if let Some(l) = line { <span class="muted">{t.f(K::ValidationLine, &[&l.to_string()])}{": "}</span> }
                                <code class="engine">{e.message()}</code>
                            </li>
                        }
                    }) }
                </ul>
            } else {
                <p class="ok-text">{t.s(K::ValidationOk)}</p>
            }
        </>
    }
}

/// `spec.tolerations[3].key` → 3.
fn toleration_index(field: &str) -> Option<usize> {
    let start = field.find("tolerations[")? + "tolerations[".len();
    let end = field[start..].find(']')? + start;
    field[start..end].parse().ok()
}

/// Properties of [`Events`].
#[derive(Properties, PartialEq)]
pub struct EventsProps {
    /// The analysis.
    pub analysis: Rc<Analysis>,
}

/// Pasted FailedScheduling events explained against the pasted nodes ([`pasted_events`]),
/// then every pending pod's FailedScheduling event, as `kubectl describe pod` shows it.
/// One component for both: each component type costs the page its own copy of Yew's
/// lifecycle code.
#[function_component(Events)]
pub fn events(props: &EventsProps) -> Html {
    let t = use_t();
    let a = &props.analysis;
    let pasted = pasted_events(t, a);
    if a.nodes.is_empty() && a.pods.is_empty() {
        return pasted;
    }
    let pending: Vec<usize> = (0..a.pods.len())
        .filter(|&p| a.message(p).is_some())
        .collect();
    html! {
        <>
        {pasted}
        <section class="events" aria-labelledby="events-heading">
            <h3 id="events-heading">{t.s(K::FailedSchedulingTitle)}</h3>
            if pending.is_empty() {
                <p class="ok-text">{t.s(K::FailedSchedulingNone)}</p>
            }
            { for pending.iter().take(100).map(|&p| {
                let pod = &a.pods[p];
                let message = a.message(p).unwrap_or_default().to_string();
                let nomination = a.pod_scheduling(p).and_then(|s| s.nomination);
                html!{
                    <div class="event">
                        <p>{t.f(K::PodEvent, &[&pod.label()])}</p>
                        <pre class="engine console failed-scheduling">{format!("Type     Reason            From               Message\n----     ------            ----               -------\nWarning  FailedScheduling  default-scheduler  {message}")}</pre>
                        if let Some(nom) = nomination {
                            <div class="preemption">
                                <p>{t.f(K::PreemptionHelps, &[&nom.node])}</p>
                                <ul>{ for nom.victims.iter().map(|v| html!{ <li>{t.f(K::VictimLine, &[&format!("{}/{}", v.namespace, v.name), &v.priority.to_string()])}</li> }) }</ul>
                            </div>
                        }
                    </div>
                }
            }) }
        </section>
        </>
    }
}

fn suggest(key: &str, value: &str, effect: &TaintEffect) -> String {
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut s = if value.is_empty() {
        format!("- key: {}\n  operator: \"Exists\"\n", q(key))
    } else {
        format!(
            "- key: {}\n  operator: \"Equal\"\n  value: {}\n",
            q(key),
            q(value)
        )
    };
    if !effect.is_empty() {
        s.push_str(&format!("  effect: {}\n", q(effect.as_str())));
    }
    s
}

fn event_html(t: T, a: &Analysis, e: &EventEntry) -> Html {
    let ev = &e.event;
    let names = |pred: &dyn Fn(&crate::analysis::NodeEntry) -> bool| -> String {
        let v: Vec<&str> = a
            .nodes
            .iter()
            .filter(|n| pred(n))
            .map(|n| n.node.name.as_str())
            .take(20)
            .collect();
        if v.is_empty() {
            t.s(K::NoneWord).to_string()
        } else {
            v.join(", ")
        }
    };
    let blocking =
        |eff: &TaintEffect| matches!(eff, TaintEffect::NoSchedule | TaintEffect::NoExecute);
    let reasons = ev.all_reasons().map(|r| {
        let detail = match &r.kind {
            ReasonKind::UntoleratedTaint { key, value }
            | ReasonKind::LegacyTaint { key, value } => {
                let with = names(&|n| {
                    n.node
                        .taints
                        .iter()
                        .any(|x| x.key == *key && x.value == *value && blocking(&x.effect))
                });
                let effect = a
                    .nodes
                    .iter()
                    .flat_map(|n| n.node.taints.iter())
                    .find(|x| x.key == *key && x.value == *value && blocking(&x.effect))
                    .map(|x| x.effect.clone())
                    .unwrap_or(TaintEffect::Empty);
                html! {
                    <>
                        <p>{t.f(K::EventTaintNodes, &[&with])}</p>
                        <p>{t.s(K::EventSuggest)}</p>
                        <pre class="console">{suggest(key, value, &effect)}</pre>
                    </>
                }
            }
            ReasonKind::UntoleratedTaints | ReasonKind::TaintsNotTolerated => {
                let with = names(&|n| n.node.taints.iter().any(|x| blocking(&x.effect)));
                html! { <p>{t.f(K::EventTaintedNodes, &[&with])}</p> }
            }
            ReasonKind::Unschedulable => {
                html! { <p>{t.f(K::EventCordoned, &[&names(&|n| n.node.unschedulable)])}</p> }
            }
            ReasonKind::PreemptionNotHelpful | ReasonKind::NoPreemptionVictims => Html::default(),
            ReasonKind::UnknownConditions | ReasonKind::Other => {
                html! { <p class="muted">{t.s(K::EventOtherReason)}</p> }
            }
        };
        html! {
            <li><code class="engine">{format!("{} {}", r.count, r.reason)}</code>{detail}</li>
        }
    });
    let matching = a.pods_with_message(&ev.message);
    html! {
        <div class="pasted-event">
            <pre class="engine console">{ev.message.clone()}</pre>
            if ev.no_nodes {
                <p>{t.s(K::EventNoNodes)}</p>
            } else if let Some(fit) = &ev.fit {
                <p>{t.f(K::EventNodesCount, &[&fit.total_nodes.to_string(), &a.nodes.len().to_string()])}</p>
            }
            <p class="muted">{t.f(K::EventVersions, &[&ev.versions.to_string()])}</p>
            if ev.truncated { <p class="warn-text">{t.s(K::EventTruncated)}</p> }
            <ul>{ for reasons }</ul>
            if !matching.is_empty() {
                <p class="ok-text">{t.f(K::EventMatchesPod, &[&matching.iter().map(|&p| a.pods[p].label()).collect::<Vec<_>>().join(", ")])}</p>
            }
        </div>
    }
}

/// Pasted FailedScheduling events, explained against the pasted nodes.
pub fn pasted_events(t: T, a: &Analysis) -> Html {
    if a.events.is_empty() {
        return Html::default();
    }
    html! {
        <section class="pasted-events" aria-labelledby="pasted-events-heading">
            <h3 id="pasted-events-heading">{t.s(K::PastedEventsTitle)}</h3>
            { for a.events.iter().map(|e| event_html(t, a, e)) }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toleration_index_from_field_path() {
        assert_eq!(toleration_index("spec.tolerations[3].key"), Some(3));
        assert_eq!(
            toleration_index("spec.template.spec.tolerations[0]"),
            Some(0)
        );
        assert_eq!(toleration_index("metadata.name"), None);
    }
}
