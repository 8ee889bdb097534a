//! The "What if" tab: the cluster-wide simulation ([`WhatIf`]: actions per node, swim
//! lanes, a scrubber, events and summary), then the per-pod eviction timeline: one SVG per pod with the taint changes of its node, the window
//! in which a NoExecute taint is tolerated, the eviction or "stays bound", and
//! cancellations, computed by the core's taint-eviction controller simulator. Scenario
//! editing adds or removes a taint at a chosen second; the node-failure preset shows the
//! node-monitor grace period and the default 300 s tolerations.
//!
//! `model` computes each pod's story and `pods_html` draws it, both in the worker
//! (builds with the `reader` feature); `view` is the tab's component, a shell around
//! the worker's HTML.

#[cfg(feature = "reader")]
pub mod model;
#[cfg(feature = "reader")]
pub mod pods_html;
mod view;
#[cfg(feature = "reader")]
pub mod whatif_html;
mod whatif_view;

#[cfg(feature = "reader")]
pub use model::{Mark, Model, PodLine, node_failure, placements, taint_scenario};
pub use view::{Timeline, TimelineProps};
pub use whatif_view::{WhatIf, WhatIfProps, action_line};
