//! What each block of a pasted text was read as, and what was read from it: one view
//! for every edge (the playground's pane, npm `parse` and `analyze`, `<taint-check>`,
//! the command-line tool), so they all say the same thing, such as
//! `kubectl get pods -o wide: 3 pods (2 bound, 1 pending)`.
//!
//! A block is one document of the input layer ([`taintlab_input::DocumentInfo`]): a
//! YAML or JSON document, a run of `kubectl` lines, a `kubectl describe` block, a table,
//! an event message. Everything read carries the document it came from, so the view
//! only counts.

use taintlab_input::{Form, Parsed, Severity};

use crate::pane::ParsedPane;

/// One kind of thing read from a block. A *detail* ([`Fact::is_detail`]) breaks down
/// the fact before it (`3 pods (2 bound, 1 pending)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// Nodes (objects, describe output, table rows).
    Nodes,
    /// Detail of [`Fact::Nodes`]: cordoned (`spec.unschedulable`, `SchedulingDisabled`).
    Cordoned,
    /// Pods (kind `Pod`, describe output, table rows).
    Pods,
    /// Detail of [`Fact::Pods`]: bound to a node (`spec.nodeName`, a `NODE` column).
    Bound,
    /// Detail of [`Fact::Pods`]: not bound to a node.
    Pending,
    /// Workloads with a pod template (Deployment, DaemonSet, Job, ...).
    Workloads,
    /// Taints of bare taint lists (one anonymous node per list).
    Taints,
    /// Tolerations of bare toleration lists (one anonymous pod per list).
    Tolerations,
    /// `kubectl taint` commands.
    TaintCommands,
    /// `kubectl label` commands on nodes.
    LabelCommands,
    /// FailedScheduling events.
    Events,
    /// PriorityClasses.
    PriorityClasses,
    /// PodDisruptionBudgets.
    DisruptionBudgets,
}

impl Fact {
    /// True for a breakdown of the fact before it.
    pub fn is_detail(self) -> bool {
        matches!(self, Self::Cordoned | Self::Bound | Self::Pending)
    }

    /// The English words for `n` of this fact (`1 pod`, `3 pods`, `2 bound`).
    pub fn english(self, n: usize) -> String {
        let (one, many) = match self {
            Self::Nodes => ("node", "nodes"),
            Self::Cordoned => ("cordoned", "cordoned"),
            Self::Pods => ("pod", "pods"),
            Self::Bound => ("bound", "bound"),
            Self::Pending => ("pending", "pending"),
            Self::Workloads => ("workload", "workloads"),
            Self::Taints => ("taint", "taints"),
            Self::Tolerations => ("toleration", "tolerations"),
            Self::TaintCommands => ("kubectl taint command", "kubectl taint commands"),
            Self::LabelCommands => ("kubectl label command", "kubectl label commands"),
            Self::Events => ("FailedScheduling event", "FailedScheduling events"),
            Self::PriorityClasses => ("PriorityClass", "PriorityClasses"),
            Self::DisruptionBudgets => ("PodDisruptionBudget", "PodDisruptionBudgets"),
        };
        format!("{n} {}", if n == 1 { one } else { many })
    }

    /// Stable identifier (camelCase), for JSON.
    pub fn id(self) -> &'static str {
        match self {
            Self::Nodes => "nodes",
            Self::Cordoned => "cordoned",
            Self::Pods => "pods",
            Self::Bound => "bound",
            Self::Pending => "pending",
            Self::Workloads => "workloads",
            Self::Taints => "taints",
            Self::Tolerations => "tolerations",
            Self::TaintCommands => "taintCommands",
            Self::LabelCommands => "labelCommands",
            Self::Events => "events",
            Self::PriorityClasses => "priorityClasses",
            Self::DisruptionBudgets => "disruptionBudgets",
        }
    }
}

/// What a block was read as, in words that are the same in every language: the kubectl
/// command whose output it is, or the syntax.
pub fn form_label(form: Form) -> &'static str {
    match form {
        Form::Yaml => "YAML",
        Form::Json => "JSON",
        Form::KubectlTaint => "kubectl taint/label",
        Form::DescribeNode => "kubectl describe node",
        Form::DescribePod => "kubectl describe",
        Form::EventMessage => "FailedScheduling",
        Form::TaintSpec => "key=value:Effect",
        Form::NodeTable => "kubectl get nodes",
        Form::PodTable => "kubectl get pods -o wide",
        Form::PriorityClassTable => "kubectl get priorityclass",
        Form::Terraform => "Terraform",
    }
}

/// One block of a pasted text and what was read from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// 1-based index of the block's first document (as in every location of the
    /// parse).
    pub document: usize,
    /// Index of its last document: consecutive lines of one line-based form (kubectl
    /// commands, taint specs, event messages) are one block.
    pub last_document: usize,
    /// How it was read.
    pub form: Form,
    /// First line.
    pub line: usize,
    /// Last line.
    pub end_line: usize,
    /// What was read, in display order, counts above zero only; details follow the
    /// fact they break down.
    pub facts: Vec<(Fact, usize)>,
    /// Errors located in the block.
    pub errors: usize,
    /// Warnings located in the block.
    pub warnings: usize,
}

impl Block {
    /// What was read, in English: `3 pods (2 bound, 1 pending)`, or `nothing read`.
    pub fn read_english(&self) -> String {
        join_facts(&self.facts, Fact::english, "nothing read")
    }

    /// The whole line, in English:
    /// `lines 3–9, kubectl get pods -o wide: 3 pods (2 bound, 1 pending)`.
    pub fn summary(&self) -> String {
        let lines = if self.end_line > self.line {
            format!("lines {}–{}", self.line, self.end_line)
        } else {
            format!("line {}", self.line)
        };
        format!(
            "{lines}, {}: {}",
            form_label(self.form),
            self.read_english()
        )
    }
}

/// Joins facts as the blocks view shows them: main facts with `, `, details in
/// parentheses after their fact; `none` when there are no facts. Every edge renders
/// through this, with its own words for a fact.
pub fn join_facts(
    facts: &[(Fact, usize)],
    words: impl Fn(Fact, usize) -> String,
    none: &str,
) -> String {
    let mut out = String::new();
    let mut open = false;
    for &(fact, n) in facts {
        if fact.is_detail() {
            out.push_str(if open { ", " } else { " (" });
            open = true;
        } else {
            if open {
                out.push(')');
                open = false;
            }
            if !out.is_empty() {
                out.push_str(", ");
            }
        }
        out.push_str(&words(fact, n));
    }
    if open {
        out.push(')');
    }
    if out.is_empty() {
        out.push_str(none);
    }
    out
}

/// The blocks of a parse, in paste order.
pub fn blocks(p: &Parsed) -> Vec<Block> {
    // Loops rather than `map(..).collect()`, which cost the npm engine module code of
    // its own.
    let mut out: Vec<Block> = Vec::with_capacity(p.documents.len());
    // Documents are numbered in increasing order: a binary search keeps the view linear
    // in what was read (a 5,000-node list is 5,000 documents' worth of objects).
    let mut indexes: Vec<usize> = Vec::with_capacity(p.documents.len());
    for d in &p.documents {
        out.push(Block {
            document: d.index,
            last_document: d.index,
            form: d.form,
            line: d.line,
            end_line: d.end_line,
            facts: Vec::new(),
            errors: 0,
            warnings: 0,
        });
        indexes.push(d.index);
    }
    let slot = |doc: usize| indexes.binary_search(&doc).ok();
    let mut counts = vec![[0usize; 13]; out.len()];
    let mut add = |doc: usize, fact: Fact, n: usize| {
        if let Some(i) = slot(doc) {
            counts[i][fact as usize] += n;
        }
    };
    for n in &p.nodes {
        add(n.location.document, Fact::Nodes, 1);
        add(
            n.location.document,
            Fact::Cordoned,
            usize::from(n.node.unschedulable),
        );
    }
    for w in &p.workloads {
        let doc = w.location.document;
        if w.kind == "Pod" || w.kind.is_empty() {
            add(doc, Fact::Pods, 1);
            let bound = !w.pod.node_name.is_empty();
            add(doc, Fact::Bound, usize::from(bound));
            add(doc, Fact::Pending, usize::from(!bound));
        } else {
            add(doc, Fact::Workloads, 1);
        }
    }
    for l in &p.taint_lists {
        add(l.location.document, Fact::Taints, l.taints.len());
    }
    for l in &p.toleration_lists {
        add(l.location.document, Fact::Tolerations, l.tolerations.len());
    }
    for c in &p.taint_commands {
        let fact = if c.verb.is_taint() {
            Fact::TaintCommands
        } else {
            Fact::LabelCommands
        };
        add(c.location.document, fact, 1);
    }
    for e in &p.events {
        add(e.location.document, Fact::Events, 1);
    }
    for c in &p.priority_classes {
        add(c.location.document, Fact::PriorityClasses, 1);
    }
    for b in &p.disruption_budgets {
        add(b.location.document, Fact::DisruptionBudgets, 1);
    }
    const ORDER: [Fact; 13] = [
        Fact::Nodes,
        Fact::Cordoned,
        Fact::Pods,
        Fact::Bound,
        Fact::Pending,
        Fact::Workloads,
        Fact::Taints,
        Fact::Tolerations,
        Fact::TaintCommands,
        Fact::LabelCommands,
        Fact::Events,
        Fact::PriorityClasses,
        Fact::DisruptionBudgets,
    ];
    for (b, c) in out.iter_mut().zip(&counts) {
        for f in ORDER {
            if c[f as usize] > 0 {
                b.facts.push((f, c[f as usize]));
            }
        }
    }
    for d in &p.diagnostics {
        if let Some(b) = slot(d.location.document).and_then(|i| out.get_mut(i)) {
            match d.severity {
                Severity::Error => b.errors += 1,
                Severity::Warning => b.warnings += 1,
            }
        }
    }
    // An empty document (a lone `---`) says nothing.
    out.retain(|b| !b.facts.is_empty() || b.errors + b.warnings > 0);
    merge_lines(out)
}

/// Joins a block to the one before it when both are of one line-based form and the
/// lines follow each other.
fn merge_lines(blocks: Vec<Block>) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::with_capacity(blocks.len());
    for b in blocks {
        let line_based = matches!(
            b.form,
            Form::KubectlTaint | Form::TaintSpec | Form::EventMessage
        );
        match out.last_mut() {
            Some(prev) if line_based && prev.form == b.form && prev.end_line + 1 >= b.line => {
                prev.last_document = b.last_document;
                prev.end_line = b.end_line;
                prev.errors += b.errors;
                prev.warnings += b.warnings;
                for (f, n) in b.facts {
                    match prev.facts.iter_mut().find(|(g, _)| *g == f) {
                        Some((_, m)) => *m += n,
                        None => prev.facts.push((f, n)),
                    }
                }
                taintlab_core::sort::sort_by_key(&mut prev.facts, |(f, _)| *f as usize);
            }
            _ => out.push(b),
        }
    }
    out
}

impl ParsedPane {
    /// What each block of the text was read as and what was read from it.
    pub fn blocks(&self) -> Vec<Block> {
        blocks(&self.parsed)
    }
}

#[cfg(all(test, feature = "read-text"))]
mod tests {
    use super::*;
    use taintlab_core::KubeVersion;

    use crate::pane::PaneKind;

    fn read(text: &str) -> Vec<Block> {
        ParsedPane::parse(text, PaneKind::Combined, KubeVersion::NEWEST).blocks()
    }

    #[test]
    fn every_form_says_what_it_read() {
        let text = "\
apiVersion: v1
kind: Node
metadata:
  name: a
spec:
  unschedulable: true
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: c
        image: nginx
---
kubectl taint nodes a k=v:NoSchedule
kubectl label nodes a disk=ssd
";
        let b = read(text);
        assert_eq!(b.len(), 3, "{b:#?}");
        assert_eq!((b[2].document, b[2].last_document), (4, 5));
        assert_eq!((b[2].line, b[2].end_line), (19, 20));
        assert_eq!(b[0].form, Form::Yaml);
        assert_eq!(b[0].read_english(), "1 node (1 cordoned)");
        assert_eq!(b[0].summary(), "lines 1–6, YAML: 1 node (1 cordoned)");
        assert_eq!(b[1].read_english(), "1 workload");
        assert_eq!(b[2].form, Form::KubectlTaint);
        assert_eq!(
            b[2].read_english(),
            "1 kubectl taint command, 1 kubectl label command"
        );
    }

    #[test]
    fn tables_count_their_rows() {
        let pods = "\
NAME    READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES
web-1   1/1     Running   0          5m    10.0.0.4     node-a   <none>           <none>
web-2   1/1     Running   0          5m    10.0.0.5     node-b   <none>           <none>
web-3   0/1     Pending   0          5m    <none>       <none>   <none>           <none>
";
        let b = read(pods);
        assert_eq!(b.len(), 1, "{b:#?}");
        assert_eq!(b[0].form, Form::PodTable);
        assert_eq!(
            b[0].summary(),
            "lines 1–4, kubectl get pods -o wide: 3 pods (2 bound, 1 pending)"
        );
        let classes = "\
NAME                      VALUE        GLOBAL-DEFAULT   AGE
high                      1000000      false            3d
low                       10           true             3d
";
        let b = read(classes);
        assert_eq!(b[0].form, Form::PriorityClassTable);
        assert_eq!(b[0].read_english(), "2 PriorityClasses");
        let nodes = "\
NAME     STATUS                     ROLES    AGE   VERSION
node-a   Ready                      <none>   9d    v1.33.1
node-b   Ready,SchedulingDisabled   <none>   9d    v1.33.1
";
        let b = read(nodes);
        assert_eq!(b[0].form, Form::NodeTable);
        assert_eq!(b[0].read_english(), "2 nodes (1 cordoned)");
    }

    #[test]
    fn events_specs_and_nothing() {
        let b = read(
            "0/2 nodes are available: 2 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.\n",
        );
        assert_eq!(b[0].form, Form::EventMessage);
        assert_eq!(b[0].read_english(), "1 FailedScheduling event");
        let b = read("dedicated=gpu:NoSchedule other:NoExecute\n");
        assert_eq!(b[0].form, Form::TaintSpec);
        assert_eq!(b[0].read_english(), "2 taints");
        assert_eq!(
            join_facts(&[], Fact::english, "nothing read"),
            "nothing read"
        );
        assert_eq!(
            join_facts(
                &[(Fact::Pods, 2), (Fact::Pending, 2), (Fact::Events, 1)],
                Fact::english,
                "-"
            ),
            "2 pods (2 pending), 1 FailedScheduling event"
        );
    }

    /// Every object read from every pasted form of the input corpus is counted in one
    /// block, and every form of the corpus appears as a block.
    #[test]
    fn the_corpus_is_counted_block_by_block() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../input/tests/corpus");
        let mut forms = std::collections::BTreeSet::new();
        let mut files = 0;
        for entry in std::fs::read_dir(dir).expect("the input corpus") {
            let path = entry.expect("a corpus file").path();
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            files += 1;
            let pane = ParsedPane::parse(&text, PaneKind::Combined, KubeVersion::NEWEST);
            let p = &pane.parsed;
            let blocks = pane.blocks();
            let total = |fact: Fact| -> usize {
                blocks
                    .iter()
                    .flat_map(|b| &b.facts)
                    .filter(|(f, _)| *f == fact)
                    .map(|(_, n)| n)
                    .sum()
            };
            let name = path.display();
            assert_eq!(total(Fact::Nodes), p.nodes.len(), "{name}");
            assert_eq!(
                total(Fact::Pods) + total(Fact::Workloads),
                p.workloads.len(),
                "{name}"
            );
            assert_eq!(
                total(Fact::Bound) + total(Fact::Pending),
                total(Fact::Pods),
                "{name}"
            );
            assert_eq!(
                total(Fact::TaintCommands) + total(Fact::LabelCommands),
                p.taint_commands.len(),
                "{name}"
            );
            assert_eq!(total(Fact::Events), p.events.len(), "{name}");
            assert_eq!(
                total(Fact::PriorityClasses),
                p.priority_classes.len(),
                "{name}"
            );
            assert_eq!(
                total(Fact::Taints),
                p.taint_lists.iter().map(|l| l.taints.len()).sum::<usize>(),
                "{name}"
            );
            for b in &blocks {
                assert!(b.line <= b.end_line, "{name}: {b:?}");
                assert!(!b.summary().is_empty());
                forms.insert(form_label(b.form));
            }
        }
        assert!(files >= 100, "{files} corpus files");
        for form in [
            Form::Yaml,
            Form::KubectlTaint,
            Form::DescribeNode,
            Form::DescribePod,
            Form::EventMessage,
            Form::NodeTable,
            Form::PodTable,
        ] {
            assert!(
                forms.contains(form_label(form)),
                "{form:?} not seen: {forms:?}"
            );
        }
    }
}
