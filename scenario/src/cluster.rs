//! The cluster: the pasted nodes, one node per bare taint list, then every `kubectl
//! taint` command in order, each run on its own as kubectl runs it.

use taintlab_core::kubectl::command::{NodeTarget, parse_taint_command, run_kubectl_taint};
use taintlab_core::resource::ResourceList;
use taintlab_core::{KubeVersion, Node, Taint};
use taintlab_input::Location;

use crate::pane::ParsedPane;
use crate::{Source, by_position};

/// How a node came to be in the cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeOrigin {
    /// A Node object, a NodeList item or `kubectl describe node` output.
    Object,
    /// A bare taint list: an anonymous node named `node-<n>`.
    TaintList,
    /// A `kubectl taint` command named it and no such node was pasted.
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

/// A `kubectl taint` command and what kubectl prints for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandEntry {
    /// Where it is.
    pub source: Source,
    /// The command as written.
    pub text: String,
    /// The arguments after `kubectl taint`.
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
    taints
        .iter()
        .enumerate()
        .map(|(i, t)| (t.clone(), locations.get(i).unwrap_or(fallback).clone()))
        .collect()
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
            if let Ok(cmd) = parse_taint_command(&c.args, version)
                && let NodeTarget::Names(names) = &cmd.target
            {
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
            let current: Vec<Node> = nodes.iter().map(|n| n.node.clone()).collect();
            let run = run_kubectl_taint(&c.args, &current, version);
            for (entry, node) in nodes.iter_mut().zip(run.nodes) {
                entry.node = node;
            }
            commands.push(CommandEntry {
                source: Source::new(pane.kind, c.location.clone()),
                text: c.text.clone(),
                args: c.args.clone(),
                stdout: run.stdout,
                stderr: run.stderr,
                exit_code: run.exit_code,
                warnings: run.warnings,
                rejected: run.command_error.is_some(),
                created,
            });
        }
    }
    (nodes, commands)
}
