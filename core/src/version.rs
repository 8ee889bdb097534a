//! Kubernetes releases and feature gates.
//!
//! Several messages and defaults changed between releases; every function whose output
//! depends on the release takes a [`Semantics`] (or a [`KubeVersion`]) so the caller
//! chooses. The default is the newest release modelled here.

use core::fmt;

/// A Kubernetes release `1.<minor>.<patch>`.
///
/// The patch number matters in one place only: the scheduler's generic
/// "untolerated taint(s)" message was cherry-picked into a 1.34 patch release.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KubeVersion {
    /// Minor version (`37` for 1.37).
    pub minor: u16,
    /// Patch version (`0` when unknown).
    pub patch: u16,
}

impl KubeVersion {
    /// The oldest release whose behaviour is modelled in full.
    pub const OLDEST: KubeVersion = KubeVersion::new(25, 0);
    /// The newest release modelled; later releases behave like it.
    ///
    /// 1.37 was read at the newest 1.37 tags available, `kubernetes-1.37.0-beta.0` of
    /// k8s.io/apimachinery and k8s.io/kubectl: `field.Error`'s rendering, the label and
    /// qualified-name checks, `kubectl taint` and `kubectl describe`'s taint and
    /// toleration blocks are unchanged from 1.36, and the release is built with Go 1.26
    /// (Unicode 15.0.0, as 1.29-1.36).
    pub const NEWEST: KubeVersion = KubeVersion::new(37, 0);
    /// The first 1.34 patch release assumed to carry cherry-pick #135023 (merged
    /// November 2025, after the 1.34.2 cut): 1.34.3.
    pub const GENERIC_TAINT_MESSAGE_1_34: KubeVersion = KubeVersion::new(34, 3);

    /// `1.<minor>.<patch>`
    pub const fn new(minor: u16, patch: u16) -> Self {
        Self { minor, patch }
    }

    /// Parses `1.30`, `v1.30`, `1.30.4`, `v1.34.3` (leading `v` optional).
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim();
        let s = s.strip_prefix('v').unwrap_or(s);
        // Drop pre-release and build suffixes (`1.35.0-rc.1`, `1.30.2+k3s1`).
        let s = s.split(['-', '+']).next()?;
        let mut parts = s.split('.');
        if parts.next()? != "1" {
            return None;
        }
        let minor = parts.next()?.parse().ok()?;
        let patch = match parts.next() {
            Some(p) => p.parse().ok()?,
            None => 0,
        };
        if parts.next().is_some() {
            return None;
        }
        Some(Self::new(minor, patch))
    }

    /// True when this release is `1.<minor>` or later.
    pub fn at_least(self, minor: u16) -> bool {
        self.minor >= minor
    }
}

impl Default for KubeVersion {
    fn default() -> Self {
        Self::NEWEST
    }
}

impl fmt::Display for KubeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "1.{}.{}", self.minor, self.patch)
    }
}

/// The cluster being modelled: its release and the feature gates that matter here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Semantics {
    /// The Kubernetes release.
    pub version: KubeVersion,
    /// The `TaintTolerationComparisonOperators` gate as configured. It exists from 1.35
    /// on (alpha, off by default); on older releases it has no effect.
    pub comparison_operators: bool,
}

impl Semantics {
    /// The newest release with default gates.
    pub const fn newest() -> Self {
        Self {
            version: KubeVersion::NEWEST,
            comparison_operators: false,
        }
    }

    /// A release with default gates.
    pub const fn at(version: KubeVersion) -> Self {
        Self {
            version,
            comparison_operators: false,
        }
    }

    /// Builder-style gate setting.
    pub const fn with_comparison_operators(mut self, on: bool) -> Self {
        self.comparison_operators = on;
        self
    }

    /// Whether `Lt`/`Gt` are in force: the gate is on and the release has it (1.35+).
    pub fn comparison_operators_enabled(&self) -> bool {
        self.comparison_operators && self.version.at_least(35)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_versions() {
        assert_eq!(KubeVersion::parse("v1.34.3"), Some(KubeVersion::new(34, 3)));
        assert_eq!(KubeVersion::parse("1.30"), Some(KubeVersion::new(30, 0)));
        assert_eq!(
            KubeVersion::parse("1.35.0-rc.1"),
            Some(KubeVersion::new(35, 0))
        );
        assert_eq!(KubeVersion::parse("2.0"), None);
        assert_eq!(KubeVersion::parse("1"), None);
        assert_eq!(KubeVersion::parse("1.x"), None);
        assert_eq!(KubeVersion::parse("1.2.3.4"), None);
    }

    #[test]
    fn gate_needs_release() {
        let old = Semantics::at(KubeVersion::new(34, 0)).with_comparison_operators(true);
        assert!(!old.comparison_operators_enabled());
        let new = Semantics::at(KubeVersion::new(35, 0)).with_comparison_operators(true);
        assert!(new.comparison_operators_enabled());
        assert!(!Semantics::newest().comparison_operators_enabled());
    }
}
