//! The `ExtendedResourceToleration` admission plugin
//! (`plugin/pkg/admission/extendedresourcetoleration`). Not enabled by default.
//!
//! On pod CREATE and UPDATE, every extended resource named in `resources.requests` of a
//! container or init container (limits are ignored) gets a toleration
//! `{key: <resource>, operator: Exists, effect: NoSchedule}`, applied with
//! [`add_or_update_toleration`] in sorted resource-name order. Nodes that offer such
//! devices are usually tainted with the resource name, so only pods asking for the device
//! land there.

use alloc::string::String;
use alloc::vec::Vec;

use super::{AddOrUpdate, Operation, add_or_update_toleration};
use crate::model::{Operator, TaintEffect, Toleration};
use crate::validation::is_qualified_name;

/// Quota's prefix for request names; a resource name may not start with it.
const REQUESTS_PREFIX: &str = "requests.";
/// Any name containing this is a native (not extended) resource.
const NATIVE_RESOURCE_NAMESPACE: &str = "kubernetes.io/";

/// `IsExtendedResourceName`: the name contains `/`, does not contain `kubernetes.io/`,
/// does not start with `requests.`, and `"requests." + name` is a valid qualified name
/// (so quota can track it as `requests.<name>`).
pub fn is_extended_resource_name(name: &str) -> bool {
    // Names without a `/` are implicitly in `kubernetes.io/` (cpu, memory,
    // hugepages-2Mi, ...), hence native.
    if !name.contains('/') || name.contains(NATIVE_RESOURCE_NAMESPACE) {
        return false;
    }
    if name.starts_with(REQUESTS_PREFIX) {
        return false;
    }
    let mut quota_name = String::with_capacity(REQUESTS_PREFIX.len() + name.len());
    quota_name.push_str(REQUESTS_PREFIX);
    quota_name.push_str(name);
    is_qualified_name(&quota_name)
}

/// The extended resources among the requested resource names, sorted (byte order, like
/// Go's sorted string set) and without duplicates.
pub fn extended_resource_names<I, S>(requested: I) -> Vec<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    crate::sort::names_from(
        requested
            .into_iter()
            .filter(|n| is_extended_resource_name(n.as_ref()))
            .map(|n| String::from(n.as_ref())),
    )
}

/// The toleration added for one extended resource.
pub fn toleration_for(resource: &str) -> Toleration {
    Toleration::new(resource, Operator::Exists, "", TaintEffect::NoSchedule)
}

/// Runs the plugin. `requested` holds the resource names found in `resources.requests`
/// of all containers and init containers (any order, duplicates allowed). On CREATE and
/// UPDATE, applies [`add_or_update_toleration`] for each extended resource in sorted
/// order and returns what happened per resource; other operations are ignored.
pub fn admit<I, S>(
    operation: Operation,
    tolerations: &mut Vec<Toleration>,
    requested: I,
) -> Vec<(String, AddOrUpdate)>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    if !operation.is_create_or_update() {
        return Vec::new();
    }
    extended_resource_names(requested)
        .into_iter()
        .map(|name| {
            let outcome = add_or_update_toleration(tolerations, &toleration_for(&name));
            (name, outcome)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use proptest::prelude::*;

    #[test]
    fn extended_resource_name_rule() {
        for yes in [
            "example.com/device-ek",
            "nvidia.com/gpu",
            "a.example/dev",
            "foo.com/My_Dev.1",
            "com/x",
        ] {
            assert!(is_extended_resource_name(yes), "{yes}");
        }
        for no in [
            "cpu",
            "memory",
            "hugepages-2Mi",
            "ephemeral-storage",
            "example.kubernetes.io/thing",
            "kubernetes.io/foo",
            "requests.example.com/dev",
            "example.com/a/b",
            "/dev",
            "example.com/",
            "Example.com/dev",
            "example.com/-dev",
            "example.com/dev-",
            "exa_mple.com/dev",
            "example..com/dev",
        ] {
            assert!(!is_extended_resource_name(no), "{no}");
        }
        // 63 characters of name are fine, 64 are not.
        let name63 = alloc::format!("example.com/{}", "a".repeat(63));
        let name64 = alloc::format!("example.com/{}", "a".repeat(64));
        assert!(is_extended_resource_name(&name63));
        assert!(!is_extended_resource_name(&name64));
        // The prefix is checked with `requests.` prepended: 244 + 9 = 253 is the limit.
        let label = "a".repeat(59);
        let domain244 = alloc::format!("{label}.{label}.{label}.{label}.aaaa");
        assert_eq!(domain244.len(), 244);
        assert!(is_extended_resource_name(&alloc::format!("{domain244}/x")));
        assert!(!is_extended_resource_name(&alloc::format!(
            "{domain244}a/x"
        )));
    }

    #[test]
    fn names_are_sorted_and_unique() {
        let names =
            extended_resource_names(["z.example/dev", "cpu", "a.example/dev", "z.example/dev"]);
        assert_eq!(names, vec!["a.example/dev", "z.example/dev"]);
    }

    #[test]
    fn replaces_in_place_and_drops_seconds() {
        let mut tols = vec![
            Toleration::new("a", Operator::Exists, "", TaintEffect::NoSchedule),
            toleration_for("nvidia.com/gpu").with_seconds(Some(30)),
        ];
        let out = admit(Operation::Create, &mut tols, ["nvidia.com/gpu"]);
        assert_eq!(
            out,
            vec![(String::from("nvidia.com/gpu"), AddOrUpdate::Replaced)]
        );
        assert_eq!(tols[1], toleration_for("nvidia.com/gpu"));
        assert_eq!(tols.len(), 2);
    }

    #[test]
    fn different_operator_or_effect_appends() {
        let mine = Toleration::new(
            "example.com/dev",
            Operator::Equal,
            "foo",
            TaintEffect::NoExecute,
        );
        let mut tols = vec![mine.clone()];
        admit(Operation::Update, &mut tols, ["example.com/dev"]);
        assert_eq!(tols, vec![mine, toleration_for("example.com/dev")]);
    }

    #[test]
    fn delete_is_ignored() {
        let mut tols = Vec::new();
        assert!(admit(Operation::Delete, &mut tols, ["example.com/dev"]).is_empty());
        assert!(tols.is_empty());
    }

    proptest! {
        #[test]
        fn idempotent(names in prop::collection::vec(prop::sample::select(vec![
            "cpu", "a.example/x", "b.example/y", "example.kubernetes.io/z", "requests.c/x",
        ]), 0..5), seconds in prop::option::of(0i64..100)) {
            let mut once = vec![toleration_for("a.example/x").with_seconds(seconds)];
            admit(Operation::Create, &mut once, &names);
            let mut twice = once.clone();
            admit(Operation::Create, &mut twice, &names);
            prop_assert_eq!(&once, &twice);
            for n in extended_resource_names(&names) {
                prop_assert!(once.contains(&toleration_for(&n)));
            }
        }
    }
}
