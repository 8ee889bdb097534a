//! `kubectl taint` and the taint/toleration parts of `kubectl describe`, reproduced
//! from k8s.io/kubectl (`pkg/cmd/taint`, `pkg/describe`).
//!
//! * [`taint`]: the spec utilities (`parseTaint`, `parseTaints`, `reorganizeTaints`, ...).
//! * [`command`]: the whole command: flags anywhere in the arguments, `--overwrite`,
//!   `--all`, `-l`, `--dry-run`, and [`TaintCommand::apply_to_nodes`] with kubectl's
//!   stdout, stderr and exit code, for one or many nodes.
//! * [`label`]: `kubectl label` on nodes, with kubectl's output and the API server's
//!   label-key errors.
//! * [`selector`]: label selectors for `-l` ([`crate::labels`]).
//! * [`drain`]: `kubectl drain`, `cordon` and `uncordon`: the pod filters, the eviction
//!   loop with its retries and waits, and the lines kubectl prints, per release.
//! * [`describe`]: the `Taints:` and `Tolerations:` blocks and their tabwriter layout.
//!
//! ```
//! use taintlab_core::{KubeVersion, Node};
//! use taintlab_core::kubectl::run_kubectl_taint;
//!
//! let nodes = [Node { name: "n1".into(), ..Node::default() }];
//! let run = run_kubectl_taint(&["nodes", "n1", "gpu=true:NoSchedule"], &nodes, KubeVersion::NEWEST);
//! assert_eq!(run.stdout, "node/n1 tainted\n");
//! assert_eq!(run.nodes[0].taints.len(), 1);
//! ```

pub mod command;
pub mod describe;
pub mod drain;
pub mod label;
mod lower;
pub mod selector;
pub mod taint;

pub use command::{
    CommandError, DryRunStrategy, NodeError, NodeResult, NodeTarget, TaintCommand, TaintRun,
    TaintUpdate, parse_taint_command, run_kubectl_taint,
};
pub use describe::{
    DESCRIBE_NODE_VALUE_COLUMN, align_tabbed, describe_taints, describe_toleration_line,
    describe_tolerations,
};
pub use label::{
    LabelCommand, LabelNodeError, LabelOperation, LabelRun, is_node_label_command,
    label_error_stderr, parse_label_command, run_kubectl_label,
};
pub use selector::{LabelSelector, Requirement};
pub use taint::{
    Operation, ParsedTaints, Reorganized, check_if_taints_already_exist, delete_taint,
    delete_taints_by_key, parse_taint, parse_taints, reorganize_taints, validate_flags,
};
