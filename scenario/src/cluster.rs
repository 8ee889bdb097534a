//! The cluster: the pasted nodes, one node per bare taint list, then every `kubectl
//! taint` and `kubectl label` (on nodes) command in paste order, each run on its own as
//! kubectl runs it.

use taintlab_core::kubectl::command::{NodeTarget, parse_taint_command, run_kubectl_taint};
use taintlab_core::kubectl::label::{parse_label_command, run_kubectl_label};
use taintlab_core::resource::ResourceList;
use taintlab_core::{KubeVersion, Node, Taint};
use taintlab_input::Location;
use taintlab_input::kubectl::CommandVerb;

use crate::pane::ParsedPane;
use crate::{Source, by_position};

/// How a node came to be in the cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeOrigin {
    /// A Node object, a NodeList item or `kubectl describe node` output.
    Object,
    /// A bare taint list: an anonymous node named `node-<n>`.
    TaintList,
    /// A `kubectl taint` or `kubectl label` command named it and no such node was
    /// pasted.
    Command,
}

/// A node of the cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeEntry {
    /// The node after every `kubectl taint` command.
    pub node: Node,
    /// Where it was pasted (for [`NodeOrigin::Command`], the command).
    pub source: Source,
    /// How it came to be.
    pub origin: NodeOrigin,
    /// The taints as pasted, before any command, each with its location.
    pub written_taints: Vec<(Taint, Location)>,
    /// `status.nodeInfo.kubeletVersion`, when pasted.
    pub kubelet_version: Option<String>,
    /// `status.allocatable`; `None` when the paste does not show it (resources are
    /// then unknown and not checked on this node).
    pub allocatable: Option<ResourceList>,
    /// `status.capacity`, when pasted.
    pub capacity: Option<ResourceList>,
}

impl NodeEntry {
    /// True when a `kubectl taint` command created it.
    pub fn created(&self) -> bool {
        self.origin == NodeOrigin::Command
    }
}

/// A `kubectl taint` or `kubectl label` command and what kubectl prints for it (the
/// subcommand is the first word of [`CommandEntry::text`] after `kubectl` and its global
/// flags).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandEntry {
    /// Where it is.
    pub source: Source,
    /// The command as written.
    pub text: String,
    /// The arguments after `kubectl taint` (or `kubectl label`).
    pub args: Vec<String>,
    /// kubectl's stdout.
    pub stdout: String,
    /// kubectl's stderr.
    pub stderr: String,
    /// kubectl's exit code (1 when any node failed or the command was rejected).
    pub exit_code: i32,
    /// kubectl's logged warnings.
    pub warnings: Vec<String>,
    /// kubectl rejected the command itself (bad flags, bad taint spec): it changed
    /// nothing. The other commands keep their effects, as each command runs alone.
    pub rejected: bool,
    /// Nodes created because the command named them and no such node was pasted.
    pub created: Vec<String>,
}

/// Each taint with its location (the object's when the input layer has none for it).
fn located(
    taints: &[Taint],
    locations: &[Location],
    fallback: &Location,
) -> Vec<(Taint, Location)> {
    // A loop rather than `map(..).collect()`, which cost the npm engine module code of
    // its own.
    let mut out = Vec::with_capacity(taints.len());
    for (i, t) in taints.iter().enumerate() {
        out.push((t.clone(), locations.get(i).unwrap_or(fallback).clone()));
    }
    out
}

/// Builds the nodes and runs the commands of every pane, in pane order.
pub(crate) fn build(
    panes: &[&ParsedPane],
    version: KubeVersion,
    next_anonymous: &mut usize,
) -> (Vec<NodeEntry>, Vec<CommandEntry>) {
    let mut nodes: Vec<NodeEntry> = Vec::new();
    for pane in panes {
        let p = &pane.parsed;
        let mut here: Vec<(Location, NodeEntry)> = Vec::new();
        for n in &p.nodes {
            here.push((
                n.location.clone(),
                NodeEntry {
                    node: n.node.clone(),
                    source: Source::new(pane.kind, n.location.clone()),
                    origin: NodeOrigin::Object,
                    written_taints: located(&n.node.taints, &n.taint_locations, &n.location),
                    kubelet_version: n.kubelet_version.clone(),
                    allocatable: n.allocatable.clone(),
                    capacity: n.capacity.clone(),
                },
            ));
        }
        for l in &p.taint_lists {
            here.push((
                l.location.clone(),
                NodeEntry {
                    node: Node {
                        taints: l.taints.clone(),
                        ..Node::default()
                    },
                    source: Source::new(pane.kind, l.location.clone()),
                    origin: NodeOrigin::TaintList,
                    written_taints: located(&l.taints, &l.locations, &l.location),
                    kubelet_version: None,
                    allocatable: None,
                    capacity: None,
                },
            ));
        }
        by_position(&mut here);
        for (_, mut e) in here {
            if e.origin == NodeOrigin::TaintList {
                *next_anonymous += 1;
                e.node.name = format!("node-{next_anonymous}");
            }
            nodes.push(e);
        }
    }
    let mut commands = Vec::new();
    for pane in panes {
        for c in &pane.parsed.taint_commands {
            let mut created = Vec::new();
            // A command naming nodes that were not pasted creates them, so a paste of
            // `kubectl taint` lines alone is a cluster.
            let target = match c.verb {
                CommandVerb::Taint => parse_taint_command(&c.args, version).map(|cmd| cmd.target),
                CommandVerb::Label => parse_label_command(&c.args, version).map(|cmd| cmd.target),
            };
            if let Ok(NodeTarget::Names(names)) = &target {
                for name in names {
                    if !nodes.iter().any(|n| &n.node.name == name) && !created.contains(name) {
                        created.push(name.clone());
                        nodes.push(NodeEntry {
                            node: Node {
                                name: name.clone(),
                                ..Node::default()
                            },
                            source: Source::new(pane.kind, c.location.clone()),
                            origin: NodeOrigin::Command,
                            written_taints: Vec::new(),
                            kubelet_version: None,
                            allocatable: None,
                            capacity: None,
                        });
                    }
                }
            }
            let mut current: Vec<Node> = Vec::with_capacity(nodes.len());
            for n in &nodes {
                current.push(n.node.clone());
            }
            // Taint and label commands run in paste order, each seeing the nodes as the
            // commands before it left them.
            let (after, stdout, stderr, exit_code, warnings, rejected) = match c.verb {
                CommandVerb::Taint => {
                    let run = run_kubectl_taint(&c.args, &current, version);
                    let rejected = run.command_error.is_some();
                    (
                        run.nodes,
                        run.stdout,
                        run.stderr,
                        run.exit_code,
                        run.warnings,
                        rejected,
                    )
                }
                CommandVerb::Label => {
                    let run = run_kubectl_label(&c.args, &current, version);
                    let rejected = run.command_error.is_some();
                    (
                        run.nodes,
                        run.stdout,
                        run.stderr,
                        run.exit_code,
                        run.warnings,
                        rejected,
                    )
                }
            };
            for (entry, node) in nodes.iter_mut().zip(after) {
                entry.node = node;
            }
            commands.push(CommandEntry {
                source: Source::new(pane.kind, c.location.clone()),
                text: c.text.clone(),
                args: c.args.clone(),
                stdout,
                stderr,
                exit_code,
                warnings,
                rejected,
                created,
            });
        }
    }
    (nodes, commands)
}

#[cfg(test)]
mod tests {
    use crate::pane::{PaneKind, ParsedPane};
    use crate::view::CellKind;
    use crate::{AdmissionOptions, Options, Scenario, Semantics};
    use taintlab_core::KubeVersion;

    const NODES: &str = "apiVersion: v1\nkind: Node\nmetadata:\n  name: general-1\n  labels: {kubernetes.io/hostname: general-1}\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: general-2\n  labels: {kubernetes.io/hostname: general-2}\n";
    const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: api}\nspec:\n  nodeSelector: {dedicated: payments}\n  containers: [{name: c, image: nginx}]\n";

    fn build(commands: &str) -> Scenario {
        let o = Options {
            semantics: Semantics::newest(),
            admission: Some(AdmissionOptions::default()),
            daemon_set: None,
        };
        let nodes = ParsedPane::parse(
            &format!("{commands}---\n{NODES}"),
            PaneKind::Nodes,
            KubeVersion::NEWEST,
        );
        let pods = ParsedPane::parse(POD, PaneKind::Pods, KubeVersion::NEWEST);
        Scenario::build(&[&nodes, &pods], &o)
    }

    fn kinds(s: &Scenario) -> Vec<Option<CellKind>> {
        (0..s.nodes.len())
            .map(|n| s.cell(0, n).map(|c| c.kind))
            .collect()
    }

    #[test]
    fn a_label_command_makes_a_node_selector_pod_land_there() {
        let without = build("");
        assert_eq!(
            kinds(&without),
            [Some(CellKind::Blocked), Some(CellKind::Blocked)]
        );
        let message = without.message(0).expect("fits nowhere");
        assert!(
            message.contains("2 node(s) didn't match Pod's node affinity/selector"),
            "{message}"
        );

        let s = build("$ kubectl label nodes general-1 dedicated=payments\n");
        assert_eq!(s.commands.len(), 1);
        assert_eq!(s.commands[0].stdout, "node/general-1 labeled\n");
        assert_eq!(s.commands[0].exit_code, 0);
        assert!(!s.commands[0].rejected);
        assert!(s.commands[0].created.is_empty());
        assert_eq!(s.nodes.len(), 2);
        assert_eq!(s.nodes[0].node.labels["dedicated"], "payments");
        assert_eq!(
            kinds(&s),
            [Some(CellKind::Schedulable), Some(CellKind::Blocked)]
        );
        assert_eq!(s.message(0), None);
    }

    #[test]
    fn label_and_taint_commands_apply_in_paste_order() {
        let s = build(
            "kubectl label nodes general-1 dedicated=payments\n\
             kubectl taint nodes general-1 dedicated=payments:NoSchedule\n\
             kubectl label nodes general-2 dedicated=payments\n\
             kubectl label nodes general-2 dedicated=other\n\
             kubectl label nodes general-2 dedicated=payments --overwrite\n\
             kubectl label nodes general-2 gpu-\n\
             kubectl label nodes --all -l x=y team=a\n",
        );
        let outs: Vec<(&str, &str, i32)> = s
            .commands
            .iter()
            .map(|c| (c.stdout.as_str(), c.stderr.as_str(), c.exit_code))
            .collect();
        assert_eq!(
            outs,
            [
                ("node/general-1 labeled\n", "", 0),
                ("node/general-1 tainted\n", "", 0),
                ("node/general-2 labeled\n", "", 0),
                (
                    "",
                    "error: 'dedicated' already has a value (payments), and --overwrite is false\n",
                    1
                ),
                ("node/general-2 not labeled\n", "", 0),
                (
                    "label \"gpu\" not found.\nnode/general-2 not labeled\n",
                    "",
                    0
                ),
                (
                    "",
                    "error: cannot set --all and --selector at the same time\n",
                    1
                ),
            ]
        );
        assert!(s.commands[6].rejected);
        // general-1 is tainted and the pod does not tolerate it; general-2 is labeled.
        assert_eq!(
            kinds(&s),
            [Some(CellKind::Blocked), Some(CellKind::Schedulable)]
        );
    }

    #[test]
    fn label_commands_alone_make_a_cluster() {
        let o = Options {
            semantics: Semantics::newest(),
            admission: Some(AdmissionOptions::default()),
            daemon_set: None,
        };
        let nodes = ParsedPane::parse(
            "kubectl label nodes pay-1 dedicated=payments\nkubectl label nodes pay-2 other=x\n",
            PaneKind::Nodes,
            KubeVersion::NEWEST,
        );
        let pods = ParsedPane::parse(POD, PaneKind::Pods, KubeVersion::NEWEST);
        let s = Scenario::build(&[&nodes, &pods], &o);
        assert_eq!(s.nodes.len(), 2);
        assert!(s.nodes.iter().all(super::NodeEntry::created));
        assert_eq!(s.commands[0].created, ["pay-1"]);
        assert_eq!(
            kinds(&s),
            [Some(CellKind::Schedulable), Some(CellKind::Blocked)]
        );
    }
}
