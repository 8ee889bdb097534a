//! Event tables: the `Events:` section of `kubectl describe` (every layout since 1.5:
//! `Type Reason Age From Message`, the older `FirstSeen LastSeen Count From
//! SubObjectPath Type Reason Message`, the docs' `Reason Message`), `kubectl get events`
//! (`LAST SEEN TYPE REASON OBJECT MESSAGE`, and the old `LASTSEEN FIRSTSEEN COUNT NAME
//! KIND SUBOBJECT TYPE REASON SOURCE MESSAGE`) and `kubectl events`.
//!
//! A row is found by its type (`Normal`, `Warning`) or, in layouts without a type
//! column, by its reason; lines that are neither a row nor a header continue the
//! message of the row above (messages wrapped by a terminal or an editor, and the
//! two-line messages of 1.5). Columns are separated by two or more spaces or a tab.

use taintlab_core::{Node, Taint, TaintEffect};

use crate::diag::{Code, Location};
use crate::event::{self, SchedulingEvent};
use crate::model::{Form, InputNode, Parsed, PriorityClass, Workload};

/// Column positions read from an events table header.
#[derive(Clone, Debug, Default)]
pub(crate) struct Header {
    type_idx: Option<usize>,
    reason_idx: usize,
    object_idx: Option<usize>,
    name_idx: Option<usize>,
}

/// Splits a line into columns (runs of two or more spaces, or tabs), with the byte
/// offset of each.
/// Columns, or words when the line has no column gaps (a paste whose runs of spaces a
/// web page collapsed).
fn columns_or_words(line: &str) -> Vec<(usize, &str)> {
    let cols = columns(line);
    if cols.len() > 1 {
        return cols;
    }
    let mut out = Vec::new();
    let mut pos = 0;
    for w in line.split_whitespace() {
        let at = line[pos..].find(w).map_or(pos, |i| i + pos);
        pos = at + w.len();
        out.push((at, w));
    }
    out
}

pub(crate) fn columns(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        let start = i;
        while i < b.len() {
            if b[i] == b'\t'
                || (b[i] == b' ' && b.get(i + 1).is_none_or(|c| *c == b' ' || *c == b'\t'))
            {
                break;
            }
            i += 1;
        }
        out.push((start, &line[start..i]));
    }
    out
}

/// Longest header line considered.
const MAX_HEADER: usize = 400;

const HEADER_WORDS: [&str; 20] = [
    "last",
    "seen",
    "first",
    "type",
    "reason",
    "age",
    "from",
    "message",
    "last seen",
    "first seen",
    "lastseen",
    "firstseen",
    "count",
    "name",
    "kind",
    "subobject",
    "subobjectpath",
    "source",
    "object",
    "namespace",
];

impl Header {
    /// The layout of `kubectl describe` since 1.14: `Type Reason Age From Message`.
    pub(crate) fn describe() -> Self {
        Self {
            type_idx: Some(0),
            reason_idx: 1,
            object_idx: None,
            name_idx: None,
        }
    }
}

impl Header {
    /// The columns of `kubectl get events` / `kubectl events` rows pasted without their
    /// header: `LAST SEEN TYPE REASON OBJECT MESSAGE`.
    pub(crate) fn get_events() -> Self {
        Self {
            type_idx: Some(1),
            reason_idx: 2,
            object_idx: Some(3),
            name_idx: None,
        }
    }
}

/// A `kubectl get events` row without its header: `118s  Warning  FailedScheduling
/// pod/web-0  0/2 nodes are available: ...`.
pub(crate) fn is_get_events_row(line: &str) -> bool {
    if line.starts_with([' ', '\t']) || line.len() > 100_000 {
        return false;
    }
    let mut cols: Vec<&str> = Vec::new();
    for (_, c) in columns(line).into_iter().take(5) {
        cols.push(c);
    }
    cols.len() == 5
        && matches!(cols[1], "Normal" | "Warning")
        && is_reason_word(cols[2])
        && cols[3].contains('/')
}

/// Reads an events table header (`Type  Reason  Age  From  Message`, `LAST SEEN  TYPE
/// REASON  OBJECT  MESSAGE`, ...).
pub(crate) fn header(line: &str) -> Option<Header> {
    // A header is short; a long line (minified JSON) is never one.
    if line.len() > MAX_HEADER {
        return None;
    }
    let cols = columns_or_words(line.trim_end_matches('\r'));
    let mut names: Vec<String> = Vec::new();
    for (_, c) in &cols {
        let c = c.to_ascii_lowercase();
        if c != "..." {
            names.push(c);
        }
    }
    if names.len() < 2 || !names.iter().all(|n| HEADER_WORDS.contains(&n.as_str())) {
        return None;
    }
    let pos = |w: &str| names.iter().position(|n| n == w);
    let reason_idx = pos("reason")?;
    pos("message")?;
    Some(Header {
        type_idx: pos("type"),
        reason_idx,
        object_idx: pos("object"),
        name_idx: pos("name"),
    })
}

/// `Events:` (with `<none>` or nothing after it), the label before a describe table.
pub(crate) fn is_events_label(line: &str) -> bool {
    let t = line.trim();
    t == "Events:"
        || t.strip_prefix("Events:")
            .is_some_and(|r| r.trim() == "<none>")
}

/// A line of dashes under a header.
pub(crate) fn is_rule(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.chars().all(|c| c == '-' || c.is_whitespace() || c == '.')
}

/// One row, with its continuation lines.
#[derive(Debug)]
pub(crate) struct Row {
    /// Line number of the row.
    pub line: usize,
    /// The reason column (`FailedScheduling`, `Scheduled`).
    pub reason: String,
    /// The object column (`pod/web-0`), when the layout has one.
    pub object: Option<String>,
    /// The row's text and its continuation lines, joined with `\n`.
    pub text: String,
}

fn is_reason_word(w: &str) -> bool {
    w.len() > 2
        && w.starts_with(|c: char| c.is_ascii_uppercase())
        && w.chars().all(|c| c.is_ascii_alphanumeric())
}

/// The rows of a table body (the lines after the header).
pub(crate) fn rows(h: &Header, lines: &[(usize, &str)]) -> Vec<Row> {
    let mut out: Vec<Row> = Vec::new();
    for (no, raw) in lines {
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() || is_rule(line) {
            continue;
        }
        // Docs elide the first columns with `...`.
        let t = line.trim_start();
        let cols = columns_or_words(t.strip_prefix("...").unwrap_or(t));
        let cols = &cols[..];
        // The type column (or, without one, the reason column) places the row.
        let (anchor, anchor_idx) = match h.type_idx {
            Some(t) => (
                cols.iter()
                    .take(8)
                    .position(|c| matches!(c.1, "Normal" | "Warning"))
                    .or_else(|| {
                        // `WarningFailedScheduling`: the two columns run together.
                        cols.iter().take(8).position(|c| {
                            c.1.strip_prefix("Warning")
                                .or_else(|| c.1.strip_prefix("Normal"))
                                .is_some_and(is_reason_word)
                        })
                    }),
                t,
            ),
            None => (
                cols.get(h.reason_idx)
                    .filter(|c| {
                        // Event reasons are verbs (`FailedScheduling`, `Scheduled`,
                        // `Pulled`); a capitalised word that continues a wrapped
                        // message (`Preemption is not ...`) is not a row.
                        is_reason_word(c.1)
                            && (c.1.starts_with("Failed")
                                || c.1.ends_with("ed")
                                || c.1 == "BackOff")
                    })
                    .map(|_| h.reason_idx),
                h.reason_idx,
            ),
        };
        let Some(a) = anchor else {
            if let Some(last) = out.last_mut() {
                last.text.push('\n');
                last.text.push_str(line.trim());
            }
            continue;
        };
        let at = |idx: usize| -> Option<&str> {
            let k = (a + idx).checked_sub(anchor_idx)?;
            cols.get(k).map(|c| c.1)
        };
        let mut reason = at(h.reason_idx).unwrap_or("").to_string();
        if let Some(r) = cols[a]
            .1
            .strip_prefix("Warning")
            .or_else(|| cols[a].1.strip_prefix("Normal"))
            .filter(|r| is_reason_word(r))
        {
            reason = r.to_string();
        }
        let object = h
            .object_idx
            .filter(|o| Some(*o) > h.type_idx)
            .and_then(at)
            .or_else(|| h.name_idx.and_then(|n| cols.get(n)).map(|c| c.1))
            .map(str::to_string);
        out.push(Row {
            line: *no,
            reason,
            object,
            text: line.to_string(),
        });
    }
    out
}

/// The FailedScheduling events of a table's rows, linked to `object` (or the row's own
/// object column); a later `Scheduled` row for the same object marks them as over.
pub(crate) fn events(rows: &[Row], doc: usize, object: Option<&str>) -> Vec<SchedulingEvent> {
    let mut out: Vec<SchedulingEvent> = Vec::new();
    for r in rows {
        let obj = r.object.as_deref().or(object);
        if r.reason == "Scheduled" || r.text.contains("Successfully assigned ") {
            let node = crate::rsplit_once_str(&r.text, " to ")
                .map(|x| x.1.split_whitespace().next().unwrap_or("").to_string());
            for e in out.iter_mut() {
                if e.scheduled_later.is_none() && same_object(e.object.as_deref(), obj) {
                    e.scheduled_later = node.clone();
                }
            }
            continue;
        }
        if !event::looks_like_failed_scheduling(&r.text) {
            continue;
        }
        let mut ev = event::parse_message(&r.text, Location::at(doc, r.line, 1));
        if ev.object.is_none() {
            ev.object = obj.map(str::to_string);
        }
        out.push(ev);
    }
    out
}

/// `pod/web-0`, `web-0` and `default/web-0` name the same pod.
fn same_object(a: Option<&str>, b: Option<&str>) -> bool {
    let base = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
    match (a, b) {
        (Some(a), Some(b)) => base(a) == base(b),
        _ => true,
    }
}

/// Columns of a `kubectl get nodes` table (plain, `-o wide`, or `-o custom-columns`
/// with a taints column).
#[derive(Clone, Debug)]
pub(crate) struct NodeHeader {
    status: Option<usize>,
    taints: Option<usize>,
}

/// Reads a `kubectl get nodes` header: `NAME STATUS ROLES AGE VERSION`, or custom
/// columns with a `TAINTS` column (`NODE TAINTS`).
pub(crate) fn node_header(line: &str) -> Option<NodeHeader> {
    if line.len() > MAX_HEADER {
        return None;
    }
    if line.starts_with([' ', '\t']) {
        return None;
    }
    let cols = columns(line.trim_end_matches('\r'));
    let names: Vec<&str> = cols.iter().map(|c| c.1).collect();
    if names.len() < 2
        || !names.iter().all(|n| {
            n.chars()
                .all(|c| c.is_ascii_uppercase() || matches!(c, '-' | '_' | ' ' | '(' | ')'))
        })
    {
        return None;
    }
    let pos = |w: &str| names.iter().position(|n| *n == w);
    let taints = names.iter().position(|n| n.contains("TAINT"));
    let status = pos("STATUS");
    let plain = matches!(names.first(), Some(&"NAME"))
        && status == Some(1)
        && (pos("ROLES").is_some() || pos("VERSION").is_some() || pos("AGE") == Some(2));
    if !(plain || (taints.is_some() && matches!(names.first(), Some(&("NAME" | "NODE" | "NODES")))))
    {
        return None;
    }
    Some(NodeHeader { status, taints })
}

/// Go's `%v` of a taint list, as custom columns print it: `[map[effect:NoSchedule
/// key:k value:v] map[...]]`. `timeAdded` values contain spaces.
pub(crate) fn go_map_taints(cell: &str) -> Option<Vec<Taint>> {
    let inner = cell.trim().strip_prefix('[')?.strip_suffix(']')?;
    let mut out = Vec::new();
    for m in inner.split("map[").skip(1) {
        let body = m.trim_end().trim_end_matches(']');
        // key, value, effect; `current` is the field a space-separated word continues.
        let mut f = [String::new(), String::new(), String::new()];
        let mut current: Option<usize> = None;
        for tok in body.split(' ') {
            let start = [("key:", 0), ("value:", 1), ("effect:", 2)]
                .iter()
                .find_map(|(p, k)| tok.strip_prefix(p).map(|v| (*k, v)));
            if let Some((k, v)) = start {
                f[k] = v.to_string();
                current = Some(k);
            } else if tok.starts_with("timeAdded:") {
                current = None;
            } else if let Some(k) = current {
                f[k].push(' ');
                f[k].push_str(tok);
            }
        }
        out.push(Taint::new(&f[0], &f[1], TaintEffect::parse(&f[2])));
    }
    Some(out)
}

/// One line of `-o go-template='{{range .items}}{{.metadata.name}}{{"\t"}}{{.spec.taints}}{{"\n"}}{{end}}'`
/// or of the same `-o jsonpath` range: a node name, a tab or spaces, and its taints as
/// Go maps (`[map[effect:NoSchedule key:k value:v]]`), as JSON (`[{"effect":...}]`), or
/// nothing: `<no value>` (go-template), `<none>`, `[]` or an empty rest (jsonpath).
#[derive(Debug)]
pub(crate) struct TaintRow<'a> {
    /// The node name.
    pub name: &'a str,
    /// Byte offset of the taints, when there are any.
    pub at: usize,
    /// The taints; `None` when the rest is a list that could not be read.
    pub taints: Option<Vec<Taint>>,
    /// The rest shows a taint list (`[map[`, `[{`, `<no value>`), not only an empty cell.
    pub distinctive: bool,
}

/// Reads one name-and-taints line (see [`TaintRow`]).
pub(crate) fn taint_row(line: &str) -> Option<TaintRow<'_>> {
    let line = line.trim_end_matches('\r');
    if line.starts_with([' ', '\t']) || line.len() > 100_000 {
        return None;
    }
    let end = line.find([' ', '\t']).unwrap_or(line.len());
    let name = &line[..end];
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
        || !name.starts_with(|c: char| c.is_ascii_alphanumeric())
    {
        return None;
    }
    let rest = line[end..].trim_start();
    let at = line.len() - rest.len();
    let rest = rest.trim_end();
    if end == line.len() {
        return None;
    }
    match rest {
        "" | "<none>" | "[]" => Some(TaintRow {
            name,
            at,
            taints: Some(Vec::new()),
            distinctive: false,
        }),
        "<no value>" => Some(TaintRow {
            name,
            at,
            taints: Some(Vec::new()),
            distinctive: true,
        }),
        r if r.starts_with("[map[") && r.ends_with(']') => Some(TaintRow {
            name,
            at,
            taints: go_map_taints(r),
            distinctive: true,
        }),
        r if r.starts_with("[{") && r.ends_with("}]") => Some(TaintRow {
            name,
            at,
            taints: json_taints(r),
            distinctive: true,
        }),
        // The go-template that prints `{{.key}}={{.value}}:{{.effect}}{{"\t"}}` per
        // taint after the name and a tab (`<no value>` for a taint without one).
        r if line.as_bytes()[end] == b'\t' => Some(TaintRow {
            name,
            at,
            taints: Some(tab_spec_taints(r)?),
            distinctive: true,
        }),
        _ => None,
    }
}

/// Taints printed as `key=value:Effect` separated by tabs; `None` unless every item is
/// one with a known effect.
fn tab_spec_taints(text: &str) -> Option<Vec<Taint>> {
    // A loop rather than `collect::<Option<Vec<_>>>()`, which costs the wasm modules a
    // copy of the standard library's short-circuiting adapter per use.
    let mut out = Vec::new();
    for s in text.split('\t').map(str::trim).filter(|s| !s.is_empty()) {
        let (kv, effect) = s.rsplit_once(':')?;
        let effect = TaintEffect::parse(effect);
        if matches!(effect, TaintEffect::Empty | TaintEffect::Other(_)) {
            return None;
        }
        let (key, value) = kv.split_once('=').unwrap_or((kv, ""));
        let value = if value == "<no value>" { "" } else { value };
        if key.is_empty() || key.contains(' ') || value.contains(' ') {
            return None;
        }
        out.push(Taint::new(key, value, effect));
    }
    (!out.is_empty()).then_some(out)
}

/// A JSON taint list as jsonpath prints `.spec.taints`.
fn json_taints(text: &str) -> Option<Vec<Taint>> {
    let (v, end) = crate::json::parse_first(text)?;
    if !text[end..]
        .trim_start_matches([' ', '\t', '\n', '\r'])
        .is_empty()
    {
        return None;
    }
    let field = |o: &crate::tree::Value, k: &str| match o.get(k).map(|e| &e.value.kind) {
        Some(crate::tree::Kind::Str(s)) => s.clone(),
        _ => String::new(),
    };
    let crate::tree::Kind::Seq(items) = &v.kind else {
        return None;
    };
    let mut out = Vec::new();
    for o in items {
        o.entries()?;
        let mut t = Taint::new(
            &field(o, "key"),
            &field(o, "value"),
            TaintEffect::parse(&field(o, "effect")),
        );
        let added = field(o, "timeAdded");
        if !added.is_empty() {
            t.time_added = Some(added);
        }
        out.push(t);
    }
    Some(out)
}

/// Reads name-and-taints lines (see [`TaintRow`]) into nodes; a list that cannot be
/// read is an error at its place.
pub(crate) fn read_taint_rows(lines: &[(usize, &str)], doc: usize, out: &mut Parsed) {
    for (no, line) in lines {
        let Some(row) = taint_row(line) else { continue };
        let loc = Location::at(doc, *no, line[..row.at].chars().count() + 1).with_path("TAINTS");
        let mut node = Node {
            name: row.name.to_string(),
            ..Node::default()
        };
        let mut taint_locations = Vec::new();
        match row.taints {
            Some(ts) => {
                for t in ts {
                    node.taints.push(t);
                    taint_locations.push(loc.clone());
                }
            }
            None => out.push_error(
                Code::InvalidValue,
                loc.clone(),
                format!(
                    "the taints of node {} are not a list kubectl prints (Go maps `[map[effect:NoSchedule key:k]]` or JSON); not read",
                    row.name
                ),
            ),
        }
        out.nodes.push(InputNode {
            node,
            location: Location::at(doc, *no, 1),
            taint_locations,
            unschedulable_location: None,
            kubelet_version: None,
            allocatable: None,
            capacity: None,
            form: Form::NodeTable,
        });
    }
}

/// Reads the rows of a `kubectl get nodes` table into nodes.
pub(crate) fn read_nodes(h: &NodeHeader, lines: &[(usize, &str)], doc: usize, out: &mut Parsed) {
    let mut any = false;
    for (no, raw) in lines {
        let line = raw.trim_end_matches('\r');
        let cols = columns(line);
        let Some(&(_, name)) = cols.first() else {
            continue;
        };
        let mut node = Node {
            name: name.to_string(),
            ..Node::default()
        };
        let mut unschedulable_location = None;
        if let Some((at, status)) = h.status.and_then(|i| cols.get(i)) {
            node.unschedulable = status.split(',').any(|s| s == "SchedulingDisabled");
            unschedulable_location =
                Some(Location::at(doc, *no, line[..*at].chars().count() + 1).with_path("STATUS"));
        }
        let mut taint_locations = Vec::new();
        if h.taints.is_some() {
            let at = line.find("[map[").or_else(|| line.find("<none>"));
            if let Some(at) = at {
                let loc =
                    Location::at(doc, *no, line[..at].chars().count() + 1).with_path("TAINTS");
                if let Some(ts) = go_map_taints(&line[at..]) {
                    for t in ts {
                        node.taints.push(t);
                        taint_locations.push(loc.clone());
                    }
                }
            }
        }
        any = true;
        out.nodes.push(InputNode {
            node,
            location: Location::at(doc, *no, 1),
            taint_locations,
            unschedulable_location,
            kubelet_version: h
                .status
                .and_then(|_| cols.last().map(|c| c.1))
                .filter(|v| v.starts_with('v'))
                .map(str::to_string),
            allocatable: None,
            capacity: None,
            form: Form::NodeTable,
        });
    }
    if any && h.taints.is_none() {
        out.push_warning(
            Code::Lossy,
            Location::at(doc, lines.first().map_or(0, |l| l.0), 1),
            "kubectl get nodes does not print taints: these nodes are read with their names and cordon state only (use -o yaml, or custom columns with TAINTS:.spec.taints, to see taints)",
        );
    }
}

/// Columns of a `kubectl get pods -o wide` table: `[NAMESPACE] NAME READY STATUS
/// RESTARTS AGE IP NODE [NOMINATED NODE] [READINESS GATES]`.
#[derive(Clone, Debug)]
pub(crate) struct PodHeader {
    /// Header cells with their byte offsets (kubectl's tabwriter starts every cell of a
    /// column where its header starts).
    cells: Vec<(usize, String)>,
    namespace: Option<usize>,
    name: usize,
    status: usize,
    node: usize,
}

/// Two-word header cells, which a page that collapsed runs of spaces splits in two.
const POD_HEADER_PAIRS: [(&str, &str); 2] = [("NOMINATED", "NODE"), ("READINESS", "GATES")];

/// Reads a `kubectl get pods -o wide` header (also `-A`, and one whose runs of spaces a
/// web page collapsed to single spaces). A table without a `NODE` column (plain `kubectl
/// get pods`) does not say where its pods run and is not claimed.
pub(crate) fn pod_header(line: &str) -> Option<PodHeader> {
    let line = line.trim_end_matches('\r');
    if line.len() > MAX_HEADER
        || line.starts_with([' ', '\t'])
        || !(line.contains("NODE") && line.contains("STATUS"))
    {
        return None;
    }
    let mut cells: Vec<(usize, String)> = Vec::new();
    for (at, c) in columns(line) {
        cells.push((at, c.to_string()));
    }
    if cells.len() < 4 {
        // Collapsed spaces: one word a cell, the two-word headers joined again.
        cells.clear();
        let mut pos = 0;
        for w in line.split_whitespace() {
            let at = line[pos..].find(w).map_or(pos, |i| i + pos);
            pos = at + w.len();
            if let Some(last) = cells.last_mut()
                && POD_HEADER_PAIRS.contains(&(last.1.as_str(), w))
            {
                last.1.push(' ');
                last.1.push_str(w);
                continue;
            }
            cells.push((at, w.to_string()));
        }
    }
    let pos = |w: &str| cells.iter().position(|c| c.1 == w);
    if !cells.iter().all(|c| {
        c.1.chars()
            .all(|ch| ch.is_ascii_uppercase() || matches!(ch, ' ' | '-' | '_'))
    }) {
        return None;
    }
    let name = pos("NAME")?;
    let status = pos("STATUS")?;
    let node = pos("NODE")?;
    pos("READY")?;
    let namespace = pos("NAMESPACE");
    if !(name == 0 || (namespace == Some(0) && name == 1)) || node < status {
        return None;
    }
    Some(PodHeader {
        cells,
        namespace,
        name,
        status,
        node,
    })
}

/// The header a `kubectl get pods -o wide` table would have above `row`, for rows whose
/// header a `| grep` dropped: one column name for each of the row's columns, where the
/// row's cell starts. The row must have the columns of one of kubectl's `-o wide`
/// layouts (`NAME READY STATUS RESTARTS AGE IP NODE`, then `NOMINATED NODE` from 1.10 and
/// `READINESS GATES` from 1.11; `NAMESPACE` first with `-A`) and a READY cell such as
/// `1/2`; anything else is not taken for a pod row.
pub(crate) fn pod_header_for_row(row: &str, all_namespaces: bool) -> Option<PodHeader> {
    const WIDE: [&str; 9] = [
        "NAME",
        "READY",
        "STATUS",
        "RESTARTS",
        "AGE",
        "IP",
        "NODE",
        "NOMINATED NODE",
        "READINESS GATES",
    ];
    let row = row.trim_end_matches('\r');
    if row.len() > MAX_HEADER || row.starts_with([' ', '\t']) {
        return None;
    }
    let cols = columns(row);
    let lead = usize::from(all_namespaces);
    let n = cols.len().checked_sub(lead)?;
    if !(7..=WIDE.len()).contains(&n) {
        return None;
    }
    let ready = cols[lead + 1].1.split_once('/');
    if !ready.is_some_and(|(a, b)| {
        !a.is_empty()
            && !b.is_empty()
            && a.bytes().all(|c| c.is_ascii_digit())
            && b.bytes().all(|c| c.is_ascii_digit())
    }) {
        return None;
    }
    let names = all_namespaces
        .then_some("NAMESPACE")
        .into_iter()
        .chain(WIDE[..n].iter().copied());
    let mut cells = Vec::new();
    for ((at, _), name) in cols.iter().zip(names) {
        cells.push((*at, name.to_string()));
    }
    Some(PodHeader {
        cells,
        namespace: all_namespaces.then_some(0),
        name: lead,
        status: lead + 2,
        node: lead + 6,
    })
}

/// The cells of one pod row, aligned with the header: split at runs of spaces; when
/// that does not give one cell per header cell, split at single spaces with a
/// parenthesised part (`RESTARTS` `3 (2m ago)`) kept with its cell; failing that, the
/// cells that start where a header cell starts (a row may end early, before its empty
/// cells).
fn pod_cells<'a>(h: &PodHeader, line: &'a str) -> Option<Vec<(usize, &'a str)>> {
    let cols = columns(line);
    if cols.len() == h.cells.len() {
        return Some(cols);
    }
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut pos = 0;
    let mut open = false;
    for w in line.split_whitespace() {
        let at = line[pos..].find(w).map_or(pos, |i| i + pos);
        pos = at + w.len();
        match words.last_mut() {
            Some(last) if open || w.starts_with('(') => last.1 = pos,
            _ => words.push((at, pos)),
        }
        if w.starts_with('(') {
            open = true;
        }
        if w.ends_with(')') {
            open = false;
        }
    }
    if words.len() == h.cells.len() {
        let mut cells = Vec::new();
        for (a, b) in &words {
            cells.push((*a, &line[*a..*b]));
        }
        return Some(cells);
    }
    let mut aligned: Vec<(usize, &str)> = Vec::new();
    for (at, _) in &h.cells {
        if let Some(c) = cols.iter().find(|c| c.0 == *at) {
            aligned.push(*c);
        }
    }
    if aligned.len() == h.cells.len() {
        return Some(aligned);
    }
    // Before kubectl 1.10 a pod without a node leaves its last cells empty: the row
    // ends early, each cell where its header starts.
    (cols.len() > h.status
        && cols.len() < h.cells.len()
        && cols.iter().zip(&h.cells).all(|(c, hc)| c.0 == hc.0))
    .then_some(cols)
}

/// The pod phase a `kubectl get pods` STATUS shows, where it tells one: kubectl prints
/// the phase, or the pod's `status.reason`, or a container's waiting or terminated
/// reason (`printPod` in kubectl's `pkg/printers/internalversion/printers.go`).
/// `None` where the column does not tell (`Error` and `OOMKilled` are printed both for
/// a Failed pod and for a Running pod whose container is being restarted;
/// `Terminating` shows the deletion, not the phase).
pub(crate) fn phase_of_status(status: &str) -> Option<&'static str> {
    Some(match status {
        "Running" | "NotReady" | "CrashLoopBackOff" => "Running",
        "Pending"
        | "ContainerCreating"
        | "PodInitializing"
        | "ErrImagePull"
        | "ImagePullBackOff"
        | "InvalidImageName"
        | "CreateContainerConfigError"
        | "CreateContainerError"
        | "SchedulingGated" => "Pending",
        s if s.starts_with("Init:") => "Pending",
        "Completed" | "Succeeded" => "Succeeded",
        // Phase Failed, with the kubelet's or the eviction's `status.reason`.
        "Failed"
        | "Evicted"
        | "OutOfcpu"
        | "OutOfmemory"
        | "OutOfpods"
        | "OutOfephemeral-storage"
        | "NodeAffinity"
        | "NodeSelectorMismatching"
        | "UnexpectedAdmissionError"
        | "DeadlineExceeded"
        | "Shutdown"
        | "Terminated"
        | "NodeShutdown"
        | "ContainerStatusUnknown" => "Failed",
        "Unknown" | "NodeLost" => "Unknown",
        _ => return None,
    })
}

/// Reads the rows of a `kubectl get pods -o wide` table into pods: bound to the node of
/// the `NODE` column, or pending when it is `<none>`, in the phase STATUS shows (see
/// [`phase_of_status`]). The table prints no tolerations, selectors or requests: one
/// note says so. Rows that do not line up with the header are noted once.
pub(crate) fn read_pods(h: &PodHeader, lines: &[(usize, &str)], doc: usize, out: &mut Parsed) {
    let mut any = false;
    let mut unread: Option<(usize, usize)> = None;
    for (no, raw) in lines {
        let line = raw.trim_end_matches('\r');
        let Some(cells) = pod_cells(h, line) else {
            let u = unread.get_or_insert((*no, *no));
            u.1 = *no;
            continue;
        };
        let col = |at: usize| line[..at].chars().count() + 1;
        let (name_at, name) = cells[h.name];
        let status = cells[h.status].1;
        // An empty NODE cell (the row ends before it) is a pod no node holds yet.
        let node = cells.get(h.node).map_or("", |c| c.1);
        if node.is_empty() && phase_of_status(status) != Some("Pending") {
            let u = unread.get_or_insert((*no, *no));
            u.1 = *no;
            continue;
        }
        let namespace = h.namespace.map_or("", |i| cells[i].1);
        let mut w = Workload::pod(
            name,
            namespace,
            Location::at(doc, *no, col(name_at)),
            Form::PodTable,
        );
        let bound = node != "<none>" && !node.is_empty();
        if bound {
            w.pod.node_name = node.to_string();
        }
        match phase_of_status(status) {
            Some(p) => w.placement.phase = p.to_string(),
            // A pod no node holds has not left Pending.
            None if !bound => w.placement.phase = "Pending".into(),
            None => {}
        }
        any = true;
        out.workloads.push(w);
    }
    if let Some((a, b)) = unread {
        out.push_warning(
            Code::Unrecognized,
            Location::at(doc, a, 1),
            if a == b {
                format!("line {a} not read: it does not line up with the pods table's header")
            } else {
                format!("lines {a}–{b} not read: they do not line up with the pods table's header")
            },
        );
    }
    if any {
        out.push_warning(
            Code::Lossy,
            Location::at(doc, lines.first().map_or(0, |l| l.0), 1),
            "kubectl get pods does not print tolerations, node selectors or requests: these pods are read with their names, phases and nodes only (use -o yaml to see the rest)",
        );
    }
}

/// Column positions of a `kubectl get priorityclass` header (`priorityClassColumnDefinitions`
/// in `pkg/printers/internalversion/printers.go`: Name, Value, Global-Default, Age, and
/// PreemptionPolicy in newer releases).
pub(crate) struct PriorityClassHeader {
    cells: usize,
    value: usize,
    global_default: usize,
    preemption_policy: Option<usize>,
}

/// Reads a `kubectl get priorityclass` header.
pub(crate) fn priority_class_header(line: &str) -> Option<PriorityClassHeader> {
    let line = line.trim_end_matches('\r');
    if line.len() > MAX_HEADER || line.starts_with([' ', '\t']) || !line.starts_with("NAME") {
        return None;
    }
    let cells: Vec<&str> = line.split_whitespace().collect();
    let pos = |w: &str| cells.iter().position(|c| *c == w);
    let value = pos("VALUE")?;
    let global_default = pos("GLOBAL-DEFAULT")?;
    if cells.iter().any(|c| {
        !matches!(
            *c,
            "NAME" | "VALUE" | "GLOBAL-DEFAULT" | "AGE" | "PREEMPTIONPOLICY"
        )
    }) {
        return None;
    }
    Some(PriorityClassHeader {
        cells: cells.len(),
        value,
        global_default,
        preemption_policy: pos("PREEMPTIONPOLICY"),
    })
}

/// Reads the rows of a `kubectl get priorityclass` table into PriorityClasses.
pub(crate) fn read_priority_classes(
    h: &PriorityClassHeader,
    lines: &[(usize, &str)],
    doc: usize,
    out: &mut Parsed,
) {
    for (no, raw) in lines {
        let line = raw.trim_end_matches('\r');
        let mut words: Vec<(usize, &str)> = Vec::new();
        let mut pos = 0;
        for w in line.split_whitespace() {
            let at = line[pos..].find(w).map_or(pos, |i| i + pos);
            pos = at + w.len();
            words.push((at, w));
        }
        let col = |at: usize| line[..at].chars().count() + 1;
        if words.len() != h.cells {
            out.push_warning(
                Code::Unrecognized,
                Location::at(doc, *no, 1),
                format!(
                    "line {no} not read: it does not line up with the PriorityClass table's header"
                ),
            );
            continue;
        }
        let (value_at, value) = words[h.value];
        let Some(value) = crate::parse_i32(value) else {
            out.push_error(
                Code::WrongType,
                Location::at(doc, *no, col(value_at)),
                format!("VALUE {value} is not a whole number; the PriorityClass is not read"),
            );
            continue;
        };
        let policy = h.preemption_policy.map(|i| words[i]);
        if let Some((at, p)) = h
            .preemption_policy
            .map(|i| words[i])
            .filter(|(_, p)| !matches!(*p, "Never" | "PreemptLowerPriority" | "<none>"))
        {
            out.push_error(
                Code::InvalidValue,
                Location::at(doc, *no, col(at)),
                format!("preemptionPolicy \"{p}\" is not one of PreemptLowerPriority, Never"),
            );
        }
        out.priority_classes.push(PriorityClass {
            name: words[0].1.to_string(),
            value,
            global_default: words[h.global_default].1 == "true",
            preemption_policy: policy
                .map(|(_, p)| p)
                .filter(|p| *p != "<none>")
                .map(str::to_string),
            location: Location::at(doc, *no, col(words[0].0)),
            form: Form::PriorityClassTable,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<(usize, &str)> {
        s.lines().enumerate().map(|(i, l)| (i + 2, l)).collect()
    }

    #[test]
    fn describe_layout_with_wrapping_and_scheduled() {
        let h =
            header("  Type     Reason            Age                 From               Message")
                .unwrap();
        let body = "  ----     ------            ----                ----               -------\n  Warning  FailedScheduling  3m (x4 over 10m)    default-scheduler  0/3 nodes are available: 1 node(s) were unschedulable,\n                                                                         2 node(s) had untolerated taint(s). preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.\n  Normal   Scheduled         20s                 default-scheduler  Successfully assigned default/web-0 to worker-2";
        let r = rows(&h, &lines(body));
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].reason, "FailedScheduling");
        let ev = events(&r, 1, Some("web-0"));
        assert_eq!(ev.len(), 1);
        assert_eq!(ev[0].fit.as_ref().unwrap().reasons.len(), 2);
        assert_eq!(ev[0].object.as_deref(), Some("web-0"));
        assert_eq!(ev[0].scheduled_later.as_deref(), Some("worker-2"));
        assert_eq!(ev[0].location.line, 3);
    }

    #[test]
    fn get_events_layouts() {
        let h = header("LAST SEEN   TYPE      REASON             OBJECT          MESSAGE").unwrap();
        let r = rows(
            &h,
            &lines(
                "2m          Warning   FailedScheduling   pod/api-1       0/2 nodes are available: 2 node(s) had untolerated taint(s).",
            ),
        );
        assert_eq!(r[0].object.as_deref(), Some("pod/api-1"));
        let h = header("LASTSEEN   FIRSTSEEN   COUNT     NAME      KIND      SUBOBJECT   TYPE      REASON             SOURCE              MESSAGE").unwrap();
        let r = rows(
            &h,
            &lines(
                "1m         1m          3         api-1     Pod                   Warning   FailedScheduling   default-scheduler   No nodes are available that match all of the following predicates:: PodToleratesNodeTaints (2).",
            ),
        );
        assert_eq!(r[0].object.as_deref(), Some("api-1"));
        assert_eq!(r[0].reason, "FailedScheduling");
        assert!(header("NAME       STATUS   ROLES   AGE   VERSION").is_none());
        let h = header("  Reason\t\t\tMessage").unwrap();
        let r = rows(
            &h,
            &lines(
                "  FailedScheduling\tNo nodes are available that match all of the following predicates:: Insufficient cpu (3).",
            ),
        );
        assert_eq!(r.len(), 1);
    }

    #[test]
    fn node_tables() {
        assert!(
            node_header("NAME       STATUS                     ROLES    AGE   VERSION").is_some()
        );
        assert!(node_header("NODE            TAINTS").is_some());
        assert!(node_header("NAME      READY   STATUS    RESTARTS   AGE").is_none());
        let t = go_map_taints("[map[effect:NoSchedule key:dedicated value:gpu] map[effect:NoExecute key:node.kubernetes.io/unreachable timeAdded:2024-05-01 10:00:00 +0000 UTC]]").unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(
            t[0],
            Taint::new("dedicated", "gpu", TaintEffect::NoSchedule)
        );
        assert_eq!(t[1].key, "node.kubernetes.io/unreachable");
        assert_eq!(t[1].effect, TaintEffect::NoExecute);
    }

    #[test]
    fn pod_rows_without_their_header() {
        let row = "web-7c9d-abcde     1/1     Running     2 (3h ago)    5d    10.244.1.7    worker-1   <none>           <none>";
        let h = pod_header_for_row(row, false).unwrap();
        assert_eq!(h.cells.len(), 9);
        assert_eq!(h.cells[6], (73, "NODE".to_string()));
        let mut out = Parsed::default();
        read_pods(&h, &lines(row), 2, &mut out);
        assert_eq!(out.workloads[0].pod.node_name, "worker-1");
        assert_eq!(out.workloads[0].placement.phase, "Running");
        // With -A the namespace leads; a pending pod's NODE is <none>.
        let row = "batch   report-1   0/1   SchedulingGated   0   12m   <none>   <none>   <none>   <none>";
        let h = pod_header_for_row(row, true).unwrap();
        let mut out = Parsed::default();
        read_pods(&h, &lines(row), 2, &mut out);
        assert_eq!(out.workloads[0].namespace, "batch");
        assert_eq!(out.workloads[0].pod.node_name, "");
        assert_eq!(out.workloads[0].placement.phase, "Pending");
        // Before 1.10: seven columns.
        assert!(
            pod_header_for_row("web-0   1/1   Running   0   5d   10.2.0.4   node-a", false)
                .is_some()
        );
        // Not pod rows: a READY cell that is not n/m, too few columns, the wrong -A.
        assert!(
            pod_header_for_row(
                "web-0   ready   Running   0   5d   10.2.0.4   node-a",
                false
            )
            .is_none()
        );
        assert!(pod_header_for_row("web-0   1/1   Running   0   5d", false).is_none());
        assert!(
            pod_header_for_row("web-0   1/1   Running   0   5d   10.2.0.4   node-a", true)
                .is_none()
        );
        assert!(
            pod_header_for_row(
                "  web-0   1/1   Running   0   5d   10.2.0.4   node-a",
                false
            )
            .is_none()
        );
    }

    #[test]
    fn pod_tables() {
        let h = pod_header("NAMESPACE     NAME                      READY   STATUS      RESTARTS      AGE   IP            NODE       NOMINATED NODE   READINESS GATES").unwrap();
        let body = "default       web-7c9d-abcde            1/1     Running     2 (3h ago)    5d    10.244.1.7    worker-1   <none>           <none>\ndefault       web-7c9d-fghij            0/1     Pending     0             2m    <none>        <none>     <none>           <none>\nbatch         report-28391-xk2         0/1     Completed   0             1h    10.244.2.3    worker-2   <none>           <none>\nbatch         flaky-1                   0/1     Error       1             1h    10.244.2.4    worker-2   <none>           <none>\nthis line is prose";
        let mut out = Parsed::default();
        read_pods(&h, &lines(body), 4, &mut out);
        let w = &out.workloads;
        assert_eq!(w.len(), 4);
        assert_eq!(
            (w[0].namespace.as_str(), w[0].pod.node_name.as_str()),
            ("default", "worker-1")
        );
        assert_eq!(w[0].placement.phase, "Running");
        assert_eq!(w[0].location, Location::at(4, 2, 15));
        assert_eq!(w[1].pod.node_name, "");
        assert_eq!(w[1].placement.phase, "Pending");
        assert_eq!(w[2].placement.phase, "Succeeded");
        assert!(w[2].placement.is_terminal());
        // `Error` does not tell the phase.
        assert_eq!(w[3].placement.phase, "");
        assert_eq!(w[3].form, Form::PodTable);
        // One note for the row that is not one, one for what the table hides.
        assert_eq!(out.diagnostics.len(), 2);
        assert!(out.diagnostics.iter().any(|d| d.code == Code::Lossy));
        assert!(
            out.diagnostics
                .iter()
                .all(|d| d.severity == crate::diag::Severity::Warning)
        );
    }

    #[test]
    fn pod_table_layouts() {
        // Without a namespace, and with single spaces (a page collapsed them).
        let h = pod_header("NAME READY STATUS RESTARTS AGE IP NODE NOMINATED NODE READINESS GATES")
            .unwrap();
        let mut out = Parsed::default();
        read_pods(
            &h,
            &lines(
                "api-0 1/1 Running 3 (10m ago) 2d 10.0.0.5 node-a <none> <none>\napi-1 0/1 Pending 0 2d <none> <none> node-a <none>",
            ),
            1,
            &mut out,
        );
        assert_eq!(out.workloads.len(), 2);
        assert_eq!(out.workloads[0].pod.node_name, "node-a");
        assert_eq!(out.workloads[0].namespace, "");
        assert_eq!(out.workloads[1].pod.node_name, "");
        // The 1.9 layout: no NOMINATED NODE.
        assert!(
            pod_header("NAME        READY     STATUS    RESTARTS   AGE       IP           NODE")
                .is_some()
        );
        // Plain `get pods` (no NODE) and node tables are not pod tables.
        assert!(pod_header("NAME      READY   STATUS    RESTARTS   AGE").is_none());
        assert!(pod_header("NAME       STATUS   ROLES   AGE   VERSION").is_none());
        assert!(pod_header("  NAME   READY   STATUS   NODE").is_none());
        for s in ["Init:0/1", "ContainerCreating", "ImagePullBackOff"] {
            assert_eq!(phase_of_status(s), Some("Pending"));
        }
        for s in ["Evicted", "OutOfcpu", "NodeAffinity"] {
            assert_eq!(phase_of_status(s), Some("Failed"));
        }
        assert_eq!(phase_of_status("Terminating"), None);
        assert_eq!(phase_of_status("OOMKilled"), None);
    }

    #[test]
    fn old_pod_table_with_empty_node_cell() {
        // kubectl before 1.10 leaves IP and NODE empty for a pod no node holds.
        let h = pod_header(
            "NAME                                READY     STATUS    RESTARTS   AGE       IP        NODE",
        )
        .unwrap();
        let mut out = Parsed::default();
        read_pods(
            &h,
            &lines(
                "notebook-4224242491-3gc6g           0/1       Pending   0          17m       <none>\nnotebook-2351894151-7gtj8           1/1       Running   0          1d       \n",
            ),
            1,
            &mut out,
        );
        assert_eq!(out.workloads.len(), 1);
        assert_eq!(out.workloads[0].pod.node_name, "");
        assert_eq!(out.workloads[0].placement.phase, "Pending");
        // The Running row without its node is noted, not guessed.
        assert!(out.diagnostics.iter().any(|d| d.code == Code::Unrecognized));
    }

    #[test]
    fn go_template_and_jsonpath_taint_rows() {
        let r = taint_row("gpu-1\t[map[effect:NoSchedule key:dedicated value:gpu] map[effect:NoExecute key:nvidia.com/gpu value:present]]").unwrap();
        assert_eq!(r.name, "gpu-1");
        assert_eq!(r.at, 6);
        assert_eq!(r.taints.unwrap().len(), 2);
        let r = taint_row("worker-1\t<no value>").unwrap();
        assert!(r.distinctive && r.taints.unwrap().is_empty());
        let r = taint_row("worker-1\t").unwrap();
        assert!(!r.distinctive);
        let r = taint_row(r#"cp-1	[{"effect":"NoSchedule","key":"node-role.kubernetes.io/control-plane","timeAdded":"2024-05-01T10:00:00Z"}]"#).unwrap();
        let t = r.taints.unwrap();
        assert_eq!(t[0].key, "node-role.kubernetes.io/control-plane");
        assert_eq!(t[0].time_added.as_deref(), Some("2024-05-01T10:00:00Z"));
        // A broken JSON list is read as a row whose taints are unreadable.
        assert!(taint_row("cp-1 [{\"effect\": }]").unwrap().taints.is_none());
        // The printf template's rows: tab-separated specs, `<no value>` for no value.
        let r =
            taint_row("ops-1.lab\tnode-role.kubernetes.io/control-plane=<no value>:NoSchedule\t")
                .unwrap();
        assert!(r.distinctive);
        let t = r.taints.unwrap();
        assert_eq!(
            (t[0].value.as_str(), t[0].effect.as_str()),
            ("", "NoSchedule")
        );
        let r = taint_row("gpu-7\tgpu=present:NoSchedule\tdedicated=ml:NoExecute\t").unwrap();
        assert_eq!(r.taints.unwrap().len(), 2);
        // Prose, specs, indented lines are not rows.
        for l in [
            "the node has taints",
            "dedicated=gpu:NoSchedule",
            "name\tnot a spec",
            "name\tk=v:Sometimes\t",
            "  cp-1 [map[]]",
            "a",
        ] {
            assert!(taint_row(l).is_none(), "{l}");
        }
        let mut out = Parsed::default();
        read_taint_rows(
            &lines("cp-1 [map[effect:NoSchedule key:k]]\nw-2   <no value>\nw-3 [{\"effect\": 1}]"),
            3,
            &mut out,
        );
        assert_eq!(out.nodes.len(), 3);
        assert_eq!(
            out.nodes[0].taint_locations[0],
            Location::at(3, 2, 6).with_path("TAINTS")
        );
        // `{"effect": 1}`: the effect is not a string, read as an empty (invalid) effect.
        assert_eq!(out.nodes[2].node.taints.len(), 1);
    }
}
