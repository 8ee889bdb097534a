//! `kubectl describe node` and `kubectl describe pod` output.
//!
//! Read from the node: `Name:`, `Labels:`, the `Taints:` block (continuation lines,
//! `<none>`), `Unschedulable:`, the `Conditions:` table, `Kubelet Version:`, the
//! `Capacity:` and `Allocatable:` blocks, and the `Non-terminated Pods:` table as pods
//! bound to the node (each row one workload with the row's cpu and memory requests and
//! limits). From the pod: `Name:`, `Namespace:`, `Priority:`, `Priority Class Name:`,
//! `Node:`, `Status:` (the phase), `Start Time:`, `Node-Selectors:`, the containers'
//! and init containers' `Requests:` and `Limits:`, `QoS Class:`, the `Tolerations:`
//! block and FailedScheduling lines of `Events:`; for what-if simulations also `Labels:`,
//! `Controlled By:` (the controlling owner), the mirror annotation in `Annotations:` and
//! `EmptyDir` volumes in `Volumes:`. Any
//! leading whitespace and tabs are accepted, as are bare `Taints:` / `Tolerations:`
//! blocks without the rest.
//!
//! Describe output loses information: it prints `Equal`, `Lt` and `Gt` tolerations
//! alike (`sla=950:NoSchedule`), and never shows `timeAdded`. A warning says so when it
//! matters.

use std::collections::BTreeMap;

use taintlab_core::{
    ConditionStatus, NodeCondition, Operator, QosClass, Taint, TaintEffect, Toleration,
};

use crate::diag::{Code, Diagnostic, Location};
use crate::event;
use crate::model::{
    ContainerResources, Form, InputNode, MIRROR_ANNOTATION, OwnerRef, Parsed, TaintList,
    TolerationList, Workload,
};
use crate::quantity::Quantity;
use crate::reduce::core_container;
use crate::table;
use taintlab_core::resource::ResourceList;

/// A describe field label at the start of a line: `Name:`, `Priority Class Name:`,
/// `Node-Selectors:`. Returns the label, the column of the value and the value.
fn label(line: &str) -> Option<(&str, usize, &str)> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let t = line.trim_start();
    let lead = line.len() - t.len();
    let colon = t.find(':')?;
    let name = &t[..colon];
    let first = name.chars().next()?;
    if !first.is_ascii_uppercase()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '(' | ')'))
    {
        return None;
    }
    let after = &t[colon + 1..];
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let value = after.trim();
    let value_off = lead + colon + 1 + (after.len() - after.trim_start().len());
    Some((name, value_off, value))
}

/// Whether a line starts describe output (a `Taints:` or `Tolerations:` block, or a
/// `Name:` header at column 1).
pub(crate) fn is_describe_start(line: &str) -> bool {
    match label(line) {
        Some(("Taints" | "Tolerations" | "Unschedulable", _, _)) => true,
        Some(("Name", _, v)) => !line.starts_with([' ', '\t']) && !v.is_empty(),
        _ => false,
    }
}

/// Whether a line belongs to describe output (labels, indented lines, blank lines).
pub(crate) fn is_describe_line(line: &str) -> bool {
    line.trim().is_empty() || line.starts_with([' ', '\t']) || label(line).is_some()
}

struct Block<'a> {
    line: usize,
    col: usize,
    value: &'a str,
    /// Continuation lines: (line number, column of text, text).
    more: Vec<(usize, usize, &'a str)>,
}

fn col_of(line: &str, byte: usize) -> usize {
    line.get(..byte).map(|s| s.chars().count()).unwrap_or(0) + 1
}

/// Reads one describe object (lines from one `Name:` to the next) and records it.
pub(crate) fn parse_object(lines: &[(usize, &str)], doc: usize, out: &mut Parsed) -> Form {
    let mut fields: Vec<(&str, Block)> = Vec::new();
    let mut in_events = false;
    let mut events: Vec<(usize, usize, &str)> = Vec::new();
    let mut kubelet_version = None;
    for (no, raw) in lines {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            continue;
        }
        let indented = line.starts_with([' ', '\t']);
        if let Some((name, off, value)) = label(line) {
            // A label that is indented deeper than a block's value column is part of a
            // table or a nested section (Lease, System Info), not a top-level field.
            let top = !indented || matches!(name, "Taints" | "Tolerations" | "Unschedulable");
            if name == "Kubelet Version" {
                kubelet_version = Some(value.to_string());
            }
            if top {
                in_events = name == "Events";
                fields.push((
                    name,
                    Block {
                        line: *no,
                        col: col_of(line, off),
                        value,
                        more: Vec::new(),
                    },
                ));
                continue;
            }
        }
        if in_events {
            events.push((*no, 1, line));
            continue;
        }
        if indented && let Some((_, b)) = fields.last_mut() {
            let t = line.trim_start();
            b.more
                .push((*no, col_of(line, line.len() - t.len()), t.trim_end()));
        }
    }
    let get = |n: &str| fields.iter().find(|(k, _)| *k == n).map(|(_, b)| b);
    let is_node =
        get("Taints").is_some() || get("Unschedulable").is_some() || get("Roles").is_some();
    let is_pod =
        get("Tolerations").is_some() || get("QoS Class").is_some() || get("Namespace").is_some();
    let name = get("Name").map(|b| b.value.to_string()).unwrap_or_default();
    let first_line = lines.first().map(|l| l.0).unwrap_or(0);
    let loc = Location::at(doc, first_line, 1);
    let obj = (!name.is_empty()).then_some(name.as_str());
    let header = events
        .iter()
        .position(|(_, _, l)| table::header(l).is_some());
    let mut read = match header.and_then(|k| table::header(events[k].2).map(|h| (k, h))) {
        Some((k, h)) => {
            let mut body: Vec<(usize, &str)> = Vec::new();
            for (n, _, l) in &events[k + 1..] {
                body.push((*n, *l));
            }
            table::events(&table::rows(&h, &body), doc, obj)
        }
        // Rows without their header.
        None => {
            let mut read = Vec::new();
            for (no, col, text) in &events {
                if event::looks_like_failed_scheduling(text) {
                    let mut ev = event::parse_message(text, Location::at(doc, *no, *col));
                    if ev.object.is_none() {
                        ev.object = obj.map(str::to_string);
                    }
                    read.push(ev);
                }
            }
            read
        }
    };
    let events_read = !read.is_empty();
    out.events.append(&mut read);
    if is_node && !(is_pod && get("Taints").is_none()) {
        let mut node = taintlab_core::Node {
            name: name.clone(),
            ..Default::default()
        };
        let mut taint_locations = Vec::new();
        if let Some(b) = get("Taints") {
            for (no, col, text) in block_items(b) {
                if let Some(t) =
                    read_taint(text, Location::at(doc, no, col).with_path("Taints"), out)
                {
                    node.taints.push(t);
                    taint_locations.push(Location::at(doc, no, col).with_path("Taints"));
                }
            }
        }
        let mut unschedulable_location = None;
        if let Some(b) = get("Unschedulable") {
            node.unschedulable = b.value == "true";
            unschedulable_location =
                Some(Location::at(doc, b.line, b.col).with_path("Unschedulable"));
        }
        if let Some(b) = get("Labels") {
            node.labels = labels(b);
        }
        if let Some(b) = get("Conditions") {
            node.conditions = conditions(b);
        }
        if name.is_empty() && get("Unschedulable").is_none() {
            out.taint_lists.push(TaintList {
                taints: node.taints,
                locations: taint_locations,
                location: loc.clone(),
                form: Form::DescribeNode,
            });
            // A bare `Tolerations:` block pasted together with the taints.
            if get("Tolerations").is_none() {
                return Form::DescribeNode;
            }
        } else {
            if unschedulable_location.is_none() && !node.unschedulable {
                out.push_warning(
                    Code::Lossy,
                    loc.clone(),
                    format!(
                        "the describe output of node \"{name}\" has no Unschedulable: line (kubectl before 1.10 does not print it): whether it is cordoned is unknown"
                    ),
                );
            }
            let capacity = get("Capacity").map(|b| resource_block(b, "Capacity", doc, out));
            let allocatable =
                get("Allocatable").map(|b| resource_block(b, "Allocatable", doc, out));
            out.nodes.push(InputNode {
                node,
                location: loc.clone(),
                taint_locations,
                unschedulable_location,
                kubelet_version,
                allocatable,
                capacity,
                form: Form::DescribeNode,
            });
            if let Some(b) = get("Non-terminated Pods") {
                bound_pods(b, &name, doc, out);
            }
            return Form::DescribeNode;
        }
    }
    let mut tolerations = Vec::new();
    let mut locations = Vec::new();
    if let Some(b) = get("Tolerations") {
        let items = block_items(b);
        // kubectl 1.7 to 1.18 printed neither the operator nor `op=Exists`: `key:Effect`
        // is then Exists, or Equal with an empty value. kubectl 1.6 printed the operator
        // (`key=:Exists:Effect`); 1.19 and later add `op=Exists`.
        let operator_shown = items.iter().any(|(_, _, t)| {
            t.contains("op=Exists") || t.contains(":Exists:") || t.contains(":Equal:")
        });
        for (no, col, text) in items {
            let l = Location::at(doc, no, col).with_path("Tolerations");
            if let Some(t) = read_toleration(text, l.clone(), out) {
                if !operator_shown && t.value.is_empty() && t.operator == Operator::Equal {
                    out.push_warning(
                        Code::Lossy,
                        l.clone(),
                        format!(
                            "\"{text}\" does not show its operator (kubectl 1.7 to 1.18 printed Exists and Equal with an empty value alike): it may be Exists (any value) or Equal to \"\"; read as Equal, check the pod's YAML"
                        ),
                    );
                }
                tolerations.push(t);
                locations.push(l);
            }
        }
    }
    if name.is_empty() {
        if get("Tolerations").is_some() {
            out.toleration_lists.push(TolerationList {
                tolerations,
                locations,
                location: loc,
                form: Form::DescribePod,
            });
        } else if !events_read {
            out.push_warning(
                Code::Describe,
                loc,
                "this looks like kubectl describe output but has no Name:, Taints: or Tolerations: to read",
            );
        }
        return Form::DescribePod;
    }
    let mut w = Workload::pod(
        &name,
        get("Namespace").map_or("", |b| b.value),
        loc,
        Form::DescribePod,
    );
    w.toleration_locations = locations;
    w.pod.tolerations = tolerations;
    if let Some(b) = get("Priority") {
        w.priority = crate::parse_i32(b.value);
        w.placement.priority = w.priority.unwrap_or(0);
    }
    if let Some(b) = get("Node-Selectors") {
        w.placement.node_selector = labels(b);
    }
    if let Some(b) = get("Status")
        && matches!(
            b.value,
            "Pending" | "Running" | "Succeeded" | "Failed" | "Unknown"
        )
    {
        w.placement.phase = b.value.to_string();
    }
    if let Some(b) = get("Start Time") {
        w.placement.start_time = rfc1123_to_utc(b.value).unwrap_or_default();
    }
    for (field, init) in [("Containers", false), ("Init Containers", true)] {
        let Some(b) = get(field) else { continue };
        let containers = container_blocks(b, field, doc, out);
        for c in &containers {
            let core = core_container(c, String::new());
            if init {
                w.placement.init_containers.push(core);
            } else {
                w.placement.containers.push(core);
            }
        }
        if init {
            w.init_containers = containers;
        } else {
            w.containers = containers;
        }
    }
    if let Some(b) = get("Priority Class Name")
        && b.value != "<none>"
    {
        w.priority_class_name = b.value.to_string();
    }
    if let Some(b) = get("Node")
        && b.value != "<none>"
    {
        w.pod.node_name = b.value.split('/').next().unwrap_or("").to_string();
    }
    if let Some(b) = get("QoS Class")
        && matches!(b.value, "BestEffort" | "Burstable" | "Guaranteed")
    {
        w.stated_qos_class = Some(QosClass::parse(b.value));
    }
    pod_lifecycle(&get, &mut w);
    out.workloads.push(w);
    Form::DescribePod
}

/// What kubectl drain and the workload controllers read, as `kubectl describe pod`
/// prints it (staging/src/k8s.io/kubectl/pkg/describe/describe.go `describePod`):
/// `Labels:` one `key=value` per line, `Controlled By:  <Kind>/<name>` (`printController`,
/// printed only for a pod with a controlling owner reference), the annotations as
/// `key: value` lines, and each volume's `Type:` line (`EmptyDir (a temporary directory
/// that shares a pod's lifetime)` for `printEmptyDirVolumeSource`).
fn pod_lifecycle<'a>(get: &dyn Fn(&str) -> Option<&'a Block<'a>>, w: &mut Workload) {
    if let Some(b) = get("Labels") {
        w.lifecycle.labels = labels(b);
    }
    if let Some(b) = get("Controlled By")
        && let Some((kind, name)) = b.value.split_once('/')
        && !kind.is_empty()
        && !name.is_empty()
    {
        w.lifecycle.owner = Some(OwnerRef {
            kind: kind.to_string(),
            name: name.to_string(),
        });
    }
    if let Some(b) = get("Annotations") {
        w.lifecycle.mirror = block_items(b).iter().any(|(_, _, t)| {
            t.strip_prefix(MIRROR_ANNOTATION)
                .is_some_and(|rest| rest.starts_with([':', '=']))
        });
    }
    if let Some(b) = get("Volumes") {
        w.lifecycle.empty_dir = b.more.iter().any(|(_, _, t)| {
            t.strip_prefix("Type:")
                .is_some_and(|rest| rest.trim_start().starts_with("EmptyDir"))
        });
    }
}

/// `Capacity:` / `Allocatable:` lines (`cpu:  4`); bad quantities are reported and left
/// out.
fn resource_block(b: &Block, field: &str, doc: usize, out: &mut Parsed) -> ResourceList {
    let mut list = ResourceList::new();
    for (no, col, text) in block_items(b) {
        let Some((name, value)) = text.split_once(':') else {
            continue;
        };
        let (name, value) = (name.trim(), value.trim());
        if name.is_empty() {
            continue;
        }
        match Quantity::parse(value) {
            Some(q) => {
                list.insert(name.to_string(), q);
            }
            None => out.push_error(
                Code::Describe,
                Location::at(doc, no, col).with_path(format!("{field}.{name}")),
                format!(
                    "{field} {name}: \"{value}\" is not a resource quantity (such as 500m, 2, 1.5Gi); left out"
                ),
            ),
        }
    }
    list
}

/// The `Non-terminated Pods:` table of a node: each row a pod bound to it, with the
/// table's cpu and memory requests and limits as one container's (a pod's containers
/// are summed in the table, which is all the scheduler counts for them; zero shows the
/// same as unset and is read as unset).
fn bound_pods(b: &Block, node: &str, doc: usize, out: &mut Parsed) {
    for (no, col, text) in &b.more {
        let cols: Vec<&str> = text.split_whitespace().collect();
        if cols.len() < 2 || cols[0] == "Namespace" || cols[0].starts_with('-') {
            continue;
        }
        let (ns, name) = (cols[0], cols[1]);
        let mut values: Vec<&str> = Vec::new();
        for c in &cols[2..] {
            if !c.starts_with('(') {
                values.push(c);
            }
        }
        let loc = Location::at(doc, *no, *col).with_path("Non-terminated Pods");
        let mut c = ContainerResources::default();
        for (i, (resource, limit)) in [
            ("cpu", false),
            ("cpu", true),
            ("memory", false),
            ("memory", true),
        ]
        .into_iter()
        .enumerate()
        {
            let Some(v) = values.get(i) else { break };
            match Quantity::parse(v) {
                Some(q) if q.is_zero() => {}
                Some(_) => {
                    let m = if limit { &mut c.limits } else { &mut c.requests };
                    m.insert(resource.to_string(), v.to_string());
                }
                None => out.push_error(
                    Code::Describe,
                    loc.clone(),
                    format!(
                        "pod {ns}/{name}: \"{v}\" is not a resource quantity ({resource} {}); left out",
                        if limit { "limit" } else { "request" }
                    ),
                ),
            }
        }
        let mut w = Workload::pod(name, ns, loc, Form::DescribeNode);
        w.pod.node_name = node.to_string();
        w.placement
            .containers
            .push(core_container(&c, String::new()));
        w.containers.push(c);
        out.workloads.push(w);
    }
}

/// The containers of a describe pod `Containers:` / `Init Containers:` block: a
/// `name:` line at the block's outer indentation starts a container; `Requests:` and
/// `Limits:` sections below it hold `cpu:  100m` lines.
fn container_blocks(
    b: &Block,
    field: &str,
    doc: usize,
    out: &mut Parsed,
) -> Vec<ContainerResources> {
    let mut containers: Vec<ContainerResources> = Vec::new();
    let outer = b.more.iter().map(|(_, c, _)| *c).min().unwrap_or(0);
    // (column of the `Requests:` line, is limits)
    let mut section: Option<(usize, bool)> = None;
    for (no, col, text) in &b.more {
        if *col == outer {
            section = None;
            if let Some(name) = text.strip_suffix(':') {
                containers.push(ContainerResources {
                    name: name.to_string(),
                    ..Default::default()
                });
            }
            continue;
        }
        if let Some((scol, _)) = section
            && *col <= scol
        {
            section = None;
        }
        match (text.trim_end(), section) {
            ("Requests:", _) => section = Some((*col, false)),
            ("Limits:", _) => section = Some((*col, true)),
            (t, Some((_, limits))) => {
                let Some(c) = containers.last_mut() else {
                    continue;
                };
                let Some((name, value)) = t.split_once(':') else {
                    continue;
                };
                let (name, value) = (name.trim(), value.trim());
                if Quantity::parse(value).is_some() {
                    let m = if limits {
                        &mut c.limits
                    } else {
                        &mut c.requests
                    };
                    m.insert(name.to_string(), value.to_string());
                } else {
                    out.push_error(
                        Code::Describe,
                        Location::at(doc, *no, *col).with_path(field),
                        format!(
                            "container {}: {name} \"{value}\" is not a resource quantity; left out",
                            c.name
                        ),
                    );
                }
            }
            (t, None) if t.starts_with("Image:") => {
                if let Some(c) = containers.last_mut() {
                    c.image = t["Image:".len()..].trim().to_string();
                }
            }
            _ => {}
        }
    }
    containers
}

/// kubectl's `Start Time:` (RFC 1123 with a numeric zone, `Mon, 12 May 2025 09:14:02
/// +0200`) as the API's RFC 3339 UTC text (`2025-05-12T07:14:02Z`).
fn rfc1123_to_utc(s: &str) -> Option<String> {
    let parts: Vec<&str> = s.split_whitespace().collect();
    let [_, day, month, year, time, zone] = parts.as_slice() else {
        return None;
    };
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = MONTHS.iter().position(|m| m == month)? as i64 + 1;
    let day: i64 = day.parse().ok()?;
    let year: i64 = year.parse().ok()?;
    let (h, ms) = time.split_once(':')?;
    let (m, sec) = ms.split_once(':')?;
    let (h, m, sec): (i64, i64, i64) = (h.parse().ok()?, m.parse().ok()?, sec.parse().ok()?);
    let sign = match zone.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let z: i64 = zone.get(1..)?.parse().ok()?;
    if zone.len() != 5 || !(1..=31).contains(&day) || h > 23 || m > 59 || sec > 60 {
        return None;
    }
    let offset = sign * ((z / 100) * 3600 + (z % 100) * 60);
    let secs = days_from_civil(year, month, day) * 86400 + h * 3600 + m * 60 + sec - offset;
    let (days, rem) = (secs.div_euclid(86400), secs.rem_euclid(86400));
    let (y, mo, d) = civil_from_days(days);
    Some(format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    ))
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// The date of a day count since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

/// The value of a block and its continuation lines, without `<none>`.
fn block_items<'a>(b: &'a Block<'a>) -> Vec<(usize, usize, &'a str)> {
    let mut items = Vec::new();
    for item in std::iter::once(&(b.line, b.col, b.value)).chain(&b.more) {
        if !item.2.is_empty() && item.2 != "<none>" {
            items.push(*item);
        }
    }
    items
}

fn labels(b: &Block) -> BTreeMap<String, String> {
    let mut labels = BTreeMap::new();
    for (_, _, t) in block_items(b) {
        let (k, v) = t.split_once('=').unwrap_or((t, ""));
        if !k.is_empty() {
            labels.insert(k.to_string(), v.to_string());
        }
    }
    labels
}

fn conditions(b: &Block) -> Vec<NodeCondition> {
    let mut conditions = Vec::new();
    for (_, _, t) in &b.more {
        let mut cols = t.split_whitespace();
        let (Some(type_), Some(status)) = (cols.next(), cols.next()) else {
            continue;
        };
        if type_ == "Type" || type_.starts_with('-') {
            continue;
        }
        conditions.push(NodeCondition {
            type_: type_.to_string(),
            status: ConditionStatus::parse(status),
        });
    }
    conditions
}

const EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

fn read_effect(s: &str, loc: &Location, out: &mut Parsed) -> TaintEffect {
    let e = TaintEffect::parse(s);
    if matches!(e, TaintEffect::Other(_)) {
        let mut msg =
            format!("effect \"{s}\" is not one of NoSchedule, PreferNoSchedule, NoExecute");
        crate::did_you_mean(&mut msg, s, &EFFECTS);
        out.diagnostics
            .push(Diagnostic::error(Code::InvalidValue, loc.clone(), msg));
    }
    e
}

/// One describe taint: `key`, `key:Effect`, `key=value:Effect`, `key=value:`.
fn read_taint(text: &str, loc: Location, out: &mut Parsed) -> Option<Taint> {
    if text.contains(char::is_whitespace) {
        out.push_error(
            Code::Describe,
            loc,
            format!("\"{text}\" is not a taint as kubectl describe prints it (key=value:Effect)"),
        );
        return None;
    }
    let (kv, effect) = match text.rsplit_once(':') {
        Some((kv, e)) => (kv, read_effect(e, &loc, out)),
        None => (text, TaintEffect::Empty),
    };
    let (key, value) = kv.split_once('=').unwrap_or((kv, ""));
    if effect.is_empty() {
        out.push_warning(
            Code::Describe,
            loc.clone(),
            format!(
                "the taint \"{text}\" has no effect; the API server does not accept such a taint"
            ),
        );
    }
    Some(Taint::new(key, value, effect))
}

/// One describe toleration: `<key>[=<value>][:<effect>][ op=Exists][ for <N>s]`.
fn read_toleration(text: &str, loc: Location, out: &mut Parsed) -> Option<Toleration> {
    let mut rest = text.trim();
    let mut seconds = None;
    if let Some(i) = crate::rfind_str(rest, " for ") {
        let tail = &rest[i + 5..];
        if let Some(n) = tail.strip_suffix('s').and_then(|n| n.parse::<i64>().ok()) {
            seconds = Some(n);
            rest = rest[..i].trim_end();
        }
    }
    let mut exists = false;
    if rest == "op=Exists" {
        exists = true;
        rest = "";
    } else if let Some(r) = rest.strip_suffix(" op=Exists") {
        exists = true;
        rest = r.trim_end();
    }
    if rest.contains(char::is_whitespace) {
        out.push_error(
            Code::Describe,
            loc,
            format!("\"{text}\" is not a toleration as kubectl describe prints it (key=value:Effect op=Exists for 300s)"),
        );
        return None;
    }
    let (kv, effect) = match rest.rsplit_once(':') {
        Some((kv, e)) => (kv, read_effect(e, &loc, out)),
        None => (rest, TaintEffect::Empty),
    };
    // kubectl 1.6 printed `key=value:Operator:Effect`.
    let (kv, old_op) = match kv.rsplit_once(':') {
        Some((k, op @ ("Exists" | "Equal" | "Lt" | "Gt"))) => (k, Some(op)),
        _ => (kv, None),
    };
    let (key, value) = kv.split_once('=').unwrap_or((kv, ""));
    let operator = match old_op {
        Some(op) => Operator::parse(op),
        None if exists => Operator::Exists,
        None => Operator::Equal,
    };
    let exists = exists || old_op == Some("Exists");
    if old_op.is_none()
        && !exists
        && !value.is_empty()
        && value
            .trim_start_matches('-')
            .chars()
            .all(|c| c.is_ascii_digit())
    {
        out.push_warning(
            Code::Lossy,
            loc.clone(),
            format!(
                "kubectl describe prints Equal, Lt and Gt tolerations alike, so \"{rest}\" is read as operator Equal; it may have been Lt or Gt (check the pod's YAML)"
            ),
        );
    }
    Some(Toleration::new(key, operator, value, effect).with_seconds(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<(usize, &str)> {
        s.split('\n').enumerate().map(|(i, l)| (i + 1, l)).collect()
    }

    #[test]
    fn node_taints_block() {
        let text = "Name:               worker-1\nRoles:              <none>\nLabels:             kubernetes.io/hostname=worker-1\n                    zone=a\nTaints:             node.kubernetes.io/unreachable:NoExecute\n                    dedicated=gpu:NoSchedule\nUnschedulable:      true\nConditions:\n  Type    Status\n  ----    ------\n  Ready   Unknown\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        let n = &out.nodes[0];
        assert_eq!(n.node.name, "worker-1");
        assert_eq!(
            n.node.taints,
            vec![
                Taint::new("node.kubernetes.io/unreachable", "", TaintEffect::NoExecute),
                Taint::new("dedicated", "gpu", TaintEffect::NoSchedule),
            ]
        );
        assert!(n.node.unschedulable);
        assert_eq!(n.node.labels.get("zone").map(String::as_str), Some("a"));
        assert_eq!(n.node.conditions[0].status, ConditionStatus::Unknown);
        assert_eq!(
            n.taint_locations[1],
            Location::at(1, 6, 21).with_path("Taints")
        );
    }

    #[test]
    fn pod_tolerations_block() {
        let text = "\tTolerations:\tnode.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n\t\top=Exists\n\t\t:NoExecute op=Exists\n\t\tsla=950:NoSchedule\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        let l = &out.toleration_lists[0];
        assert_eq!(
            l.tolerations,
            vec![
                Toleration::new(
                    "node.kubernetes.io/not-ready",
                    Operator::Exists,
                    "",
                    TaintEffect::NoExecute
                )
                .with_seconds(Some(300)),
                Toleration::new("", Operator::Exists, "", TaintEffect::Empty),
                Toleration::new("", Operator::Exists, "", TaintEffect::NoExecute),
                Toleration::new("sla", Operator::Equal, "950", TaintEffect::NoSchedule),
            ]
        );
        assert_eq!(out.diagnostics.len(), 1);
        assert_eq!(out.diagnostics[0].code, Code::Lossy);
    }

    #[test]
    fn old_toleration_layouts() {
        // kubectl 1.6: `key=value:Operator:Effect`.
        let text = "Name:           web-0\nNamespace:      default\nTolerations:    node.alpha.kubernetes.io/notReady=:Exists:NoExecute for 300s\n                dedicated=gpu:Equal:NoSchedule\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        let t = &out.workloads[0].pod.tolerations;
        assert_eq!(
            t[0],
            Toleration::new(
                "node.alpha.kubernetes.io/notReady",
                Operator::Exists,
                "",
                TaintEffect::NoExecute
            )
            .with_seconds(Some(300))
        );
        assert_eq!(
            t[1],
            Toleration::new("dedicated", Operator::Equal, "gpu", TaintEffect::NoSchedule)
        );
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);

        // kubectl 1.7 to 1.18: no operator shown; an empty value cannot tell Exists
        // from Equal.
        let text = "Name:           web-0\nNamespace:      default\nTolerations:    node.kubernetes.io/not-ready:NoExecute for 300s\n                dedicated=gpu:NoSchedule\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        let lossy: Vec<usize> = out
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::Lossy)
            .map(|d| d.location.line)
            .collect();
        assert_eq!(lossy, vec![3]);
        // 1.19 and later print `op=Exists`: then no doubt.
        let text = "Name:           web-0\nNamespace:      default\nTolerations:    node.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n                team:NoSchedule\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        assert!(out.diagnostics.is_empty());
    }

    #[test]
    fn unschedulable_unknown_without_its_line() {
        let text = "Name:\t\t\tworker-7\nRole:\nLabels:\t\t\tzone=a\nTaints:\t\t\t<none>\nCreationTimestamp:\tWed, 30 Aug 2017 11:11:59 -0400\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        assert_eq!(out.nodes[0].unschedulable_state(), None);
        assert_eq!(out.diagnostics[0].code, Code::Lossy);
        let text = "Name:  worker-7\nTaints:  <none>\nUnschedulable:  false\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        assert_eq!(out.nodes[0].unschedulable_state(), Some(false));
    }

    const NODE: &str = "Name:               worker-1
Roles:              <none>
Labels:             kubernetes.io/hostname=worker-1
                    pool=gpu
Annotations:        node.alpha.kubernetes.io/ttl: 0
Taints:             <none>
Unschedulable:      false
Capacity:
  cpu:                4
  ephemeral-storage:  101445540Ki
  hugepages-2Mi:      0
  memory:             16393916Ki
  nvidia.com/gpu:     2
  pods:               110
Allocatable:
  cpu:                3800m
  memory:             15Gi
  nvidia.com/gpu:     2
  pods:               110
  bogus:              12zz
System Info:
  Kubelet Version:            v1.30.2
Non-terminated Pods:          (3 in total)
  Namespace                   Name                  CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
  ---------                   ----                  ------------  ----------  ---------------  -------------  ---
  kube-system                 kindnet-x2z           100m (2%)     100m (2%)   50Mi (0%)        50Mi (0%)      10d
  kube-system                 kube-proxy-abc        0 (0%)        0 (0%)      0 (0%)           0 (0%)         10d
  shop                        web-1                 1500m (39%)   2 (52%)     1Gi (6%)         0 (0%)         3h
Allocated resources:
  (Total limits may be over 100 percent, i.e., overcommitted.)
  Resource           Requests     Limits
  --------           --------     ------
  cpu                1600m (42%)  2100m (55%)
Events:              <none>
";

    #[test]
    fn node_resources_and_bound_pods() {
        let mut out = Parsed::default();
        parse_object(&lines(NODE), 1, &mut out);
        let n = &out.nodes[0];
        assert_eq!(n.node.labels["pool"], "gpu");
        assert_eq!(n.node.labels.len(), 2);
        let cap = n.capacity.as_ref().unwrap();
        assert_eq!(cap["cpu"].milli_value(), 4000);
        assert_eq!(cap["memory"], Quantity::parse("16393916Ki").unwrap());
        assert_eq!(cap["nvidia.com/gpu"].value(), 2);
        assert_eq!(cap.len(), 6);
        let alloc = n.allocatable.as_ref().unwrap();
        assert_eq!(alloc["cpu"].milli_value(), 3800);
        assert_eq!(alloc.len(), 4, "the bad quantity is left out");
        assert_eq!(out.diagnostics.len(), 1, "{:?}", out.diagnostics);
        let d = &out.diagnostics[0];
        assert_eq!(d.code, Code::Describe);
        assert_eq!(
            d.location,
            Location::at(1, 20, 3).with_path("Allocatable.bogus")
        );
        let pods: Vec<_> = out
            .workloads
            .iter()
            .map(|w| {
                (
                    w.namespace.as_str(),
                    w.name.as_str(),
                    w.pod.node_name.as_str(),
                )
            })
            .collect();
        assert_eq!(
            pods,
            [
                ("kube-system", "kindnet-x2z", "worker-1"),
                ("kube-system", "kube-proxy-abc", "worker-1"),
                ("shop", "web-1", "worker-1"),
            ]
        );
        let web = &out.workloads[2];
        assert_eq!(web.form, Form::DescribeNode);
        assert_eq!(
            web.location,
            Location::at(1, 28, 3).with_path("Non-terminated Pods")
        );
        let c = &web.placement.containers[0].resources;
        assert_eq!(c.requests["cpu"].milli_value(), 1500);
        assert_eq!(c.requests["memory"], Quantity::parse("1Gi").unwrap());
        assert_eq!(c.limits["cpu"].milli_value(), 2000);
        assert!(!c.limits.contains_key("memory"), "0 reads as unset");
        assert_eq!(web.containers[0].requests["cpu"], "1500m");
        // Zero everywhere: no requests at all (BestEffort).
        assert!(
            out.workloads[1].placement.containers[0]
                .resources
                .is_empty()
        );
        assert_eq!(out.workloads[1].qos_class(), QosClass::BestEffort);
    }

    #[test]
    fn old_tab_separated_node_tables() {
        let text = "Name:\t\t\tburrow\nLabels:\t\t\tzone=a\nTaints:\t\t\t<none>\nUnschedulable:\t\tfalse\nCapacity:\n cpu:\t\t2\n memory:\t4046732Ki\n pods:\t\t110\nAllocatable:\n cpu:\t\t2\n memory:\t3944332Ki\n pods:\t\t110\nNon-terminated Pods:\t\t(1 in total)\n  Namespace\t\t\tName\t\t\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\n  ---------\t\t\t----\t\t\t\t------------\t----------\t---------------\t-------------\n  kube-system\t\t\tkube-dns-1\t\t\t260m (13%)\t0 (0%)\t\t110Mi (2%)\t170Mi (4%)\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        let n = &out.nodes[0];
        assert_eq!(
            n.allocatable.as_ref().unwrap()["memory"].value(),
            3944332 * 1024
        );
        assert_eq!(n.capacity.as_ref().unwrap()["pods"].value(), 110);
        let w = &out.workloads[0];
        assert_eq!(
            (w.name.as_str(), w.pod.node_name.as_str()),
            ("kube-dns-1", "burrow")
        );
        let r = &w.placement.containers[0].resources;
        assert_eq!(r.requests["cpu"].milli_value(), 260);
        assert_eq!(r.limits["memory"], Quantity::parse("170Mi").unwrap());
    }

    #[test]
    fn pod_node_selectors_node_priority_and_resources() {
        let text = "Name:             web-0
Namespace:        shop
Priority:         1000
Node:             worker-1/10.0.0.5
Start Time:       Mon, 12 May 2025 01:14:02 +0200
Labels:           app=web
Status:           Running
Init Containers:
  proxy:
    Image:      envoy:1
    Requests:
      cpu:     50m
Containers:
  nginx:
    Image:      nginx:1.27
    Limits:
      memory:  256Mi
    Requests:
      cpu:        100m
      memory:     128Mi
    Environment:  <none>
  sidecar:
    Image:      busybox
    Requests:
      cpu:        lots
QoS Class:                   Burstable
Node-Selectors:              disktype=ssd
                             pool=web
Tolerations:                 <none>
";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        let w = &out.workloads[0];
        assert_eq!(w.pod.node_name, "worker-1");
        assert_eq!(w.priority, Some(1000));
        assert_eq!(w.placement.priority, 1000);
        assert_eq!(w.placement.node_selector.len(), 2);
        assert_eq!(w.placement.node_selector["pool"], "web");
        assert_eq!(w.placement.phase, "Running");
        assert_eq!(w.placement.start_time, "2025-05-11T23:14:02Z");
        let names: Vec<&str> = w.containers.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["nginx", "sidecar"]);
        assert_eq!(w.containers[0].image, "nginx:1.27");
        let r = &w.placement.containers[0].resources;
        assert_eq!(r.requests["memory"], Quantity::parse("128Mi").unwrap());
        assert_eq!(r.limits["memory"], Quantity::parse("256Mi").unwrap());
        assert!(!r.limits.contains_key("cpu"));
        assert!(w.placement.containers[1].resources.requests.is_empty());
        assert_eq!(
            w.placement.init_containers[0].resources.requests["cpu"].milli_value(),
            50
        );
        assert_eq!(out.diagnostics.len(), 1, "{:?}", out.diagnostics);
        assert_eq!(out.diagnostics[0].location.line, 25);
        // `<none>` selectors and node.
        let text =
            "Name: p\nNamespace: d\nNode: <none>\nNode-Selectors: <none>\nTolerations: <none>\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        assert!(out.workloads[0].placement.node_selector.is_empty());
        assert!(out.workloads[0].pod.node_name.is_empty());
    }

    #[test]
    fn pod_owner_labels_mirror_and_empty_dir() {
        // kubectl 1.30's layout of a Deployment's pod (describePod).
        let text = "Name:             storefront-7d9f8b6c4d-x2x9k
Namespace:        shop
Priority:         0
Service Account:  default
Node:             worker-1/10.0.0.5
Labels:           app=storefront
                  pod-template-hash=7d9f8b6c4d
Annotations:      <none>
Status:           Running
IP:               10.244.1.7
Controlled By:    ReplicaSet/storefront-7d9f8b6c4d
Containers:
  web:
    Image:          nginx:1.27
    Mounts:
      /cache from cache (rw)
Volumes:
  cache:
    Type:       EmptyDir (a temporary directory that shares a pod's lifetime)
    Medium:
    SizeLimit:  <unset>
  kube-api-access-7m2xq:
    Type:                    Projected (a volume that contains injected data from multiple sources)
QoS Class:                   BestEffort
Node-Selectors:              <none>
Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
Events:                      <none>
";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        let lc = &out.workloads[0].lifecycle;
        assert_eq!(
            lc.owner,
            Some(OwnerRef {
                kind: "ReplicaSet".into(),
                name: "storefront-7d9f8b6c4d".into()
            })
        );
        assert_eq!(lc.labels.len(), 2);
        assert_eq!(lc.labels["pod-template-hash"], "7d9f8b6c4d");
        assert!(lc.empty_dir);
        assert!(!lc.mirror);
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        // A static pod's mirror: owned by its Node, with the mirror annotation; no
        // Controlled By line, no EmptyDir.
        let text = "Name:                 kube-apiserver-cp-1
Namespace:            kube-system
Node:                 cp-1/172.18.0.2
Labels:               component=kube-apiserver
                      tier=control-plane
Annotations:          kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint: 172.18.0.2:6443
                      kubernetes.io/config.hash: 5d7ad2a6b8c1
                      kubernetes.io/config.mirror: 5d7ad2a6b8c1
Status:               Running
Controlled By:        Node/cp-1
Volumes:
  k8s-certs:
    Type:          HostPath (bare host directory volume)
QoS Class:            Burstable
Tolerations:          :NoExecute op=Exists
";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        let lc = &out.workloads[0].lifecycle;
        assert!(lc.mirror);
        assert!(!lc.empty_dir);
        assert_eq!(lc.owner.as_ref().map(|o| o.kind.as_str()), Some("Node"));
        // An unmanaged pod: kubectl prints no Controlled By line.
        let text = "Name: p\nNamespace: d\nAnnotations: kubernetes.io/config.mirrored: x\nTolerations: <none>\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        assert_eq!(out.workloads[0].lifecycle, Default::default());
    }

    #[test]
    fn start_times() {
        assert_eq!(
            rfc1123_to_utc("Wed, 30 Aug 2017 23:11:59 -0400").as_deref(),
            Some("2017-08-31T03:11:59Z")
        );
        assert_eq!(
            rfc1123_to_utc("Thu, 29 Feb 2024 00:00:00 +0000").as_deref(),
            Some("2024-02-29T00:00:00Z")
        );
        assert_eq!(rfc1123_to_utc("yesterday"), None);
        assert_eq!(rfc1123_to_utc("Mon, 12 Foo 2025 01:14:02 +0200"), None);
        assert_eq!(rfc1123_to_utc("Mon, 12 May 2025 01:14 +0200"), None);
    }

    #[test]
    fn whole_describe_node_paste_is_detected_and_read() {
        let p = crate::parse(NODE);
        assert_eq!(p.nodes.len(), 1);
        assert_eq!(p.workloads.len(), 3);
        assert_eq!(p.nodes[0].form, Form::DescribeNode);
        assert!(p.nodes[0].allocatable.is_some());
    }
}
