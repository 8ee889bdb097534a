//! Label selectors for `kubectl taint -l ...`: the set-based selectors of
//! [`crate::labels`] (apimachinery `labels.Parse`), which kubectl sends to the API server
//! as the list call's `labelSelector`.

pub use crate::labels::{Requirement, SelectorOperator};

/// The parsed `-l` / `--selector` value (`labels.Selector`).
pub type LabelSelector = crate::labels::Selector;
