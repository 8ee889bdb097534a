//! # taintlab-core
//!
//! Kubernetes taints and tolerations, reproduced exactly as upstream behaves: toleration
//! matching (including the `Lt`/`Gt` operators), the scheduler's TaintToleration and
//! NodeUnschedulable plugins and the FailedScheduling message, the NoExecute
//! taint-eviction controller, node-lifecycle taints, the admission plugins, the DaemonSet
//! tolerations, API validation with upstream's messages, and `kubectl taint` /
//! `kubectl describe`.
//!
//! The crate is `no_std` + `alloc`, has no I/O and no global state. Modules are named after
//! the Kubernetes concepts they implement; every function that depends on the Kubernetes
//! release takes a [`Semantics`] or [`KubeVersion`].
//!
//! ```
//! use taintlab_core::{matching, Taint, TaintEffect, Toleration, Operator};
//!
//! let taint = Taint::new("dedicated", "gpu", TaintEffect::NoSchedule);
//! let toleration = Toleration::new("dedicated", Operator::Equal, "gpu", TaintEffect::Empty);
//! assert!(matching::tolerates(&toleration, &taint, false));
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod admission;
pub mod daemonset;
pub mod disruption;
pub mod eviction;
pub mod float;
pub mod helpers;
pub mod key_index;
pub mod kubectl;
pub mod labels;
pub mod matching;
pub mod model;
pub mod name_map;
pub mod node_lifecycle;
pub mod quantity;
pub mod resource;
pub mod scheduling;
pub mod simulation;
pub mod sort;
pub mod suggest;
pub mod validation;
pub mod version;
pub mod workload;

pub use model::{
    ConditionStatus, Node, NodeCondition, Operator, Pod, PreemptionPolicy, QosClass, Taint,
    TaintEffect, Toleration,
};
pub use quantity::Quantity;
pub use version::{KubeVersion, Semantics};
pub use workload::WorkloadKind;

/// The README's example, compiled and run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
