//! The paste corpus: `tests/corpus/*.txt`, each reproducing the layout of a form seen in
//! a public issue thread or Q&A page (own names and values), with the facts a reader
//! must extract written by hand from Kubernetes' behaviour.
//!
//! A file starts with header lines beginning `#! `:
//!
//! - `#! source: <address>` the thread whose layout it reproduces;
//! - `#! form: <name>` the form, for the score per form;
//! - `#! lang: <code>` the language of the prose around it (default `en`);
//! - `#! valid` every input in it is valid: no error diagnostic is allowed;
//! - `#! unread: <n>` blocks no recogniser claims (at most one diagnostic each);
//! - `#! expect: <fact> = <value>` one fact (see [`fact`]).
//!
//! The paste is everything after the header. The test prints a score per form and
//! fails on any missed fact and on the noise budget.

use std::collections::BTreeMap;

use taintlab_input::{Code, Parsed, Severity, parse};

struct Entry {
    name: String,
    form: String,
    lang: String,
    valid: bool,
    unread: usize,
    expects: Vec<(String, String)>,
    paste: String,
}

fn load() -> Vec<Entry> {
    let dir = format!("{}/tests/corpus", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable");
            let mut e = Entry {
                name: p.file_name().unwrap().to_string_lossy().into_owned(),
                form: String::new(),
                lang: "en".into(),
                valid: false,
                unread: 0,
                expects: Vec::new(),
                paste: String::new(),
            };
            let mut source = false;
            let mut rest = text.as_str();
            while let Some(line) = rest.strip_prefix("#! ") {
                let (l, r) = line.split_once('\n').unwrap_or((line, ""));
                rest = r;
                let l = l.trim_end_matches('\r');
                if let Some(v) = l.strip_prefix("source: ") {
                    source = v.starts_with("https://") || v.starts_with("http://");
                } else if let Some(v) = l.strip_prefix("form: ") {
                    e.form = v.trim().into();
                } else if let Some(v) = l.strip_prefix("lang: ") {
                    e.lang = v.trim().into();
                } else if l == "valid" {
                    e.valid = true;
                } else if let Some(v) = l.strip_prefix("unread: ") {
                    e.unread = v.trim().parse().expect("unread count");
                } else if let Some(v) = l.strip_prefix("expect: ") {
                    let (k, v) = v.split_once(" = ").expect("expect: fact = value");
                    e.expects.push((k.trim().into(), v.trim().into()));
                } else {
                    panic!("{}: unknown header line {l:?}", e.name);
                }
            }
            assert!(source, "{}: needs a `#! source: https://...` line", e.name);
            assert!(!e.form.is_empty(), "{}: needs a form", e.name);
            assert!(!e.expects.is_empty(), "{}: needs expectations", e.name);
            e.paste = rest.to_string();
            e
        })
        .collect()
}

/// The value of one fact in a parse, as text. Facts:
/// `events`, `event.N.total` (a number or `unknown`), `event.N.reasons`,
/// `event.N.reason.M` (`count kind`), `event.N.taints` (named taints `k=v`, `,`
/// separated), `event.N.taint-reason` (`yes`/`no`), `event.N.object`,
/// `event.N.scheduled`, `event.N.releases`, `event.N.double-period`,
/// `event.N.preemption`, `commands`, `command.N.args`, `command.N.ok`, `command.N.results` (`node:outcome`), `nodes`,
/// `node.N.name`, `node.N.taints`, `workloads`, `pod.N.name` (`namespace/name`),
/// `pod.N.node`, `pod.N.phase`, `pod.N.tolerations`, `pod.N.line` (of the Nth workload), `node.N.unschedulable` (`true`/`false`/`unknown`),
/// `tolerations` (all read), `toleration-lines` (where each is), `errors`, `explained` (tool errors explained), `fix.N`
/// (what the Nth explanation proposes), `typo.N` (the name or value the Nth error about
/// Terraform configuration proposes), `lossy` (facts the layout hides, said so).
fn fact(p: &Parsed, key: &str) -> String {
    let parts: Vec<&str> = key.split('.').collect();
    let idx = |i: usize| parts.get(i).and_then(|s| s.parse::<usize>().ok());
    let none = || "<none>".to_string();
    match parts[0] {
        "events" => p.events.len().to_string(),
        "event" => {
            let Some(e) = idx(1).and_then(|i| p.events.get(i)) else {
                return none();
            };
            match parts.get(2).copied().unwrap_or("") {
                "total" => match &e.fit {
                    Some(f) if f.total_unknown => "unknown".into(),
                    Some(f) => f.total_nodes.to_string(),
                    None => none(),
                },
                "reasons" => e.fit.as_ref().map_or(0, |f| f.reasons.len()).to_string(),
                "reason" => e
                    .fit
                    .as_ref()
                    .and_then(|f| f.reasons.get(idx(3).unwrap_or(usize::MAX)))
                    .map_or_else(none, |r| format!("{} {}", r.count, r.reason)),
                "taints" => e
                    .named_taints()
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(","),
                "taint-reason" => {
                    if e.all_reasons().any(|r| r.kind.is_taint()) {
                        "yes".into()
                    } else {
                        "no".into()
                    }
                }
                "object" => e.object.clone().unwrap_or_else(none),
                "scheduled" => e.scheduled_later.clone().unwrap_or_else(none),
                "releases" => e.versions.to_string(),
                "double-period" => e.double_period.to_string(),
                "preemption" => e.preemption.is_some().to_string(),
                "no-nodes" => e.no_nodes.to_string(),
                _ => panic!("unknown fact {key}"),
            }
        }
        "commands" => p.taint_commands.len().to_string(),
        "command" => {
            let Some(c) = idx(1).and_then(|i| p.taint_commands.get(i)) else {
                return none();
            };
            match parts.get(2).copied().unwrap_or("") {
                "args" => c.args.join(" "),
                "ok" => c.error.is_none().to_string(),
                "results" => c
                    .results
                    .iter()
                    .map(|r| {
                        let o = serde_json::to_value(&r.outcome).unwrap();
                        format!("{}:{}", r.node, o.as_str().unwrap_or(""))
                    })
                    .collect::<Vec<_>>()
                    .join(","),
                _ => panic!("unknown fact {key}"),
            }
        }
        "nodes" => p.nodes.len().to_string(),
        "workloads" => p.workloads.len().to_string(),
        "taint-lists" => p.taint_lists.len().to_string(),
        "pod" => {
            let Some(w) = idx(1).and_then(|i| p.workloads.get(i)) else {
                return none();
            };
            match parts.get(2).copied().unwrap_or("") {
                "name" => format!("{}/{}", w.namespace, w.name),
                "node" => w.pod.node_name.clone(),
                "phase" => w.placement.phase.clone(),
                "tolerations" => w.pod.tolerations.len().to_string(),
                "line" => w.location.line.to_string(),
                _ => panic!("unknown fact {key}"),
            }
        }
        "node" => {
            let Some(n) = idx(1).and_then(|i| p.nodes.get(i)) else {
                return none();
            };
            match parts.get(2).copied().unwrap_or("") {
                "name" => n.node.name.clone(),
                "taints" => n
                    .node
                    .taints
                    .iter()
                    .map(|t| format!("{}={}:{}", t.key, t.value, t.effect.as_str()))
                    .collect::<Vec<_>>()
                    .join(","),
                "unschedulable" => match n.unschedulable_state() {
                    Some(b) => b.to_string(),
                    None => "unknown".into(),
                },
                _ => panic!("unknown fact {key}"),
            }
        }
        "tolerations" => (p
            .workloads
            .iter()
            .map(|w| w.pod.tolerations.len())
            .sum::<usize>()
            + p.toleration_lists
                .iter()
                .map(|l| l.tolerations.len())
                .sum::<usize>())
        .to_string(),
        "toleration-lines" => p
            .workloads
            .iter()
            .flat_map(|w| w.toleration_locations.iter())
            .chain(p.toleration_lists.iter().flat_map(|l| l.locations.iter()))
            .map(|l| l.line.to_string())
            .collect::<Vec<_>>()
            .join(","),
        "errors" => p.errors().count().to_string(),
        "explained" => p
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::ToolError)
            .count()
            .to_string(),
        "fix" => {
            // The field or value an explanation proposes (`write "effect"`, `did you
            // mean "NoSchedule"`), or `<none>`.
            let Some(d) = idx(1).and_then(|i| {
                p.diagnostics
                    .iter()
                    .filter(|d| d.code == Code::ToolError)
                    .nth(i)
            }) else {
                return none();
            };
            [
                "write \"",
                "did you mean \"",
                "set effect: ",
                "belongs in the pod spec (",
            ]
            .iter()
            .find_map(|m| {
                let i = d.message.find(m)? + m.len();
                let r = &d.message[i..];
                let end = r.find(['"', ' ', ';', ',', ':']).unwrap_or(r.len());
                Some(r[..end].to_string())
            })
            .unwrap_or_else(none)
        }
        "typo" => {
            // The name or value the Nth error about Terraform configuration proposes.
            let Some(d) = idx(1).and_then(|i| {
                p.errors()
                    .filter(|d| d.message.contains("Terraform") || d.message.contains("API server"))
                    .nth(i)
            }) else {
                return none();
            };
            let m = "write \"";
            d.message
                .find(m)
                .map(|i| {
                    let r = &d.message[i + m.len()..];
                    r[..r.find('"').unwrap_or(r.len())].to_string()
                })
                .unwrap_or_else(none)
        }
        "lossy" => p
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::Lossy)
            .count()
            .to_string(),
        _ => panic!("unknown fact {key}"),
    }
}

#[test]
fn corpus() {
    let entries = load();
    let mut per_form: BTreeMap<String, (usize, usize, usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut langs = std::collections::BTreeSet::new();
    for e in &entries {
        let p = parse(&e.paste);
        let mut ok = 0;
        for (k, want) in &e.expects {
            let got = fact(&p, k);
            if &got == want {
                ok += 1;
            } else {
                failures.push(format!("{}: {k}: expected {want:?}, read {got:?}", e.name));
            }
        }
        // The noise budget.
        if e.valid {
            for d in p.errors() {
                failures.push(format!("{}: error on a valid paste: {d}", e.name));
            }
        }
        let unread = p
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::Unrecognized && d.severity == Severity::Warning)
            .count();
        if unread > e.unread {
            failures.push(format!(
                "{}: {unread} notes for unread text, at most {} allowed",
                e.name, e.unread
            ));
        }
        let s = per_form.entry(e.form.clone()).or_default();
        s.0 += 1;
        s.1 += usize::from(ok == e.expects.len());
        s.2 += ok;
        s.3 += e.expects.len();
        if e.lang != "en" {
            langs.insert(e.lang.clone());
        }
    }
    println!("{:<28} {:>6} {:>10}", "form", "pastes", "facts");
    for (form, (n, full, ok, all)) in &per_form {
        println!("{form:<28} {full:>3}/{n:<3} {ok:>4}/{all:<4}");
    }
    println!(
        "{} pastes, {} forms, non-English contexts: {}",
        entries.len(),
        per_form.len(),
        entries.iter().filter(|e| e.lang != "en").count()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A 10 MB terminal transcript (prompts, taint commands and their output, node and pod
/// tables, describe events, klog lines, prose, PriorityClass tables, Terraform errors and
/// configuration) is read whole: every block's command, events and
/// nodes, and no error. Its reading time is measured by `cargo bench -p taintlab-input
/// --bench transcript` (linear in the input; figures in the README), not asserted here.
#[test]
fn ten_megabyte_transcript_is_read_whole() {
    let (text, blocks) = taintlab_input::sample::transcript(10 * 1024 * 1024);
    let p = parse(&text);
    assert_eq!(p.taint_commands.len(), blocks);
    assert_eq!(p.events.len(), 2 * blocks);
    assert_eq!(p.nodes.len(), 2 * blocks);
    assert_eq!(p.workloads.len(), 2 * blocks);
    assert_eq!(p.priority_classes.len(), blocks);
    assert_eq!(
        p.diagnostics
            .iter()
            .filter(|d| d.code == Code::ToolError)
            .count(),
        blocks
    );
    assert_eq!(p.errors().count(), 0);
}

/// Pastes cut anywhere (a selection that stops mid-line) and pastes with their line
/// order reversed never panic, and a valid paste cut short never gains an error on the
/// part that is still whole.
#[test]
fn cut_and_shuffled_pastes_never_panic() {
    for e in load() {
        let text = e.paste.as_str();
        let mut cut = 0;
        while cut < text.len() {
            if text.is_char_boundary(cut) {
                let _ = parse(&text[..cut]);
                let _ = parse(&text[cut..]);
            }
            cut += 5;
        }
        let reversed: Vec<&str> = text.lines().rev().collect();
        let _ = parse(&reversed.join("\n"));
        let crlf = text.replace('\n', "\r\n");
        let p = parse(&crlf);
        if e.valid {
            assert_eq!(p.errors().count(), 0, "{} with CRLF line ends", e.name);
        }
        // Windows line ends change nothing that is read.
        for (k, want) in &e.expects {
            assert_eq!(&fact(&p, k), want, "{} with CRLF line ends: {k}", e.name);
        }
    }
}
