//! Kubernetes resource quantities: re-exported from `taintlab_core::quantity`, where
//! `resource.Quantity` parsing and rounding live.

pub use taintlab_core::quantity::*;
