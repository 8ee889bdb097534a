//! The settings in force in one namespace: the top level merged with the namespace rule
//! that matches.

use super::{AllowedToleration, DedicatedNodes, DefaultTolerationSeconds, NamespaceRule};
use super::{Settings, TolerationSpec};

/// The effective settings for one namespace: top level merged with the matching rule.
#[derive(Clone, Copy, Debug)]
pub struct RuleView<'a> {
    /// The rule, if one matched.
    pub rule: Option<&'a NamespaceRule>,
    /// Effective allow-list.
    pub allowed: Option<&'a [AllowedToleration]>,
    /// Effective default tolerations.
    pub defaults: &'a [TolerationSpec],
    /// Default tolerations defined at this level (for settings validation).
    pub(super) own_defaults: Option<&'a [TolerationSpec]>,
    /// Effective maximum seconds.
    pub max_seconds: Option<i64>,
    /// Effective DefaultTolerationSeconds-style seconds.
    pub default_seconds: Option<&'a DefaultTolerationSeconds>,
    /// Dedicated nodes of the rule.
    pub dedicated: Option<&'a DedicatedNodes>,
}

impl<'a> RuleView<'a> {
    /// The top-level settings alone.
    pub fn global(settings: &'a Settings) -> Self {
        Self::for_rule(settings, None)
    }

    /// Top level overridden by `rule`.
    pub fn for_rule(settings: &'a Settings, rule: Option<&'a NamespaceRule>) -> Self {
        let own_defaults = match rule {
            Some(r) => r.default_tolerations.as_deref(),
            None => Some(settings.default_tolerations.as_slice()),
        };
        Self {
            rule,
            allowed: rule
                .and_then(|r| r.allowed_tolerations.as_deref())
                .or(settings.allowed_tolerations.as_deref()),
            defaults: rule
                .and_then(|r| r.default_tolerations.as_deref())
                .unwrap_or(&settings.default_tolerations),
            own_defaults,
            max_seconds: rule
                .and_then(|r| r.max_toleration_seconds)
                .or(settings.max_toleration_seconds),
            default_seconds: rule
                .and_then(|r| r.default_toleration_seconds.as_ref())
                .or(settings.default_toleration_seconds.as_ref()),
            dedicated: rule.and_then(|r| r.dedicated_nodes.as_ref()),
        }
    }
}
