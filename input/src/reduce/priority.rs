//! `kind: PriorityClass` objects (`scheduling.k8s.io/v1`): name, `value`,
//! `globalDefault` and `preemptionPolicy`, which the Priority admission plugin resolves
//! a pod's `priorityClassName` to.

use super::*;
use crate::model::PriorityClass;

/// Fields of a PriorityClass, for unknown-field checks.
const PRIORITY_CLASS_FIELDS: [&str; 7] = [
    "apiVersion",
    "kind",
    "metadata",
    "value",
    "globalDefault",
    "description",
    "preemptionPolicy",
];

/// The largest value a class not named `system-...` may have
/// (`HighestUserDefinablePriority`, `pkg/apis/scheduling/types.go`).
const HIGHEST_USER_DEFINABLE_PRIORITY: i64 = 1_000_000_000;

/// The classes the API server creates at bootstrap (`systemPriorityClasses`,
/// `pkg/apis/scheduling/v1/helpers.go`): name and value, neither a global default.
const SYSTEM_CLASSES: [(&str, i32); 2] = [
    ("system-node-critical", 2_000_001_000),
    ("system-cluster-critical", 2_000_000_000),
];

impl Reducer<'_> {
    /// A `system-` name must be one of the bootstrap classes, with its value and
    /// `globalDefault: false` (`ValidatePriorityClass` with `IsKnownSystemPriorityClass`).
    fn system_class_check(&mut self, pc: &PriorityClass, at: Pos) {
        let err = match SYSTEM_CLASSES.iter().find(|(n, _)| *n == pc.name) {
            Some((n, v)) if *v != pc.value => format!("value of {n} PriorityClass must be {v}"),
            Some((n, _)) if pc.global_default => {
                format!("globalDefault of {n} PriorityClass must be false")
            }
            Some(_) => return,
            None => format!("{} is not a known system priority class", pc.name),
        };
        self.error(
            Code::InvalidValue,
            at,
            &join(&pc.location.path, "metadata.name"),
            format!(
                "the API server rejects this class: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: {err}"
            ),
        );
    }

    pub(super) fn priority_class(&mut self, v: &Value, path: &str, mut obj: Obj) {
        let (name, _, _) = self.metadata(v, path, &mut obj);
        let mut pc = PriorityClass {
            name,
            location: self.loc(v.pos, path),
            form: self.form,
            ..PriorityClass::default()
        };
        if let Some(e) = v.get("value") {
            let p = join(path, "value");
            let value = self.get_int(&e.value, &p, "PriorityClass", Want::Int32, &mut obj);
            if let Some(x) = value {
                pc.value = i32::try_from(x).unwrap_or_default();
                if x > HIGHEST_USER_DEFINABLE_PRIORITY && !pc.name.starts_with("system-") {
                    self.error(
                        Code::InvalidValue,
                        e.value.pos,
                        &p,
                        format!(
                            "value {x} is above the largest a user-defined class may have; the API server rejects it: value: Forbidden: maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}"
                        ),
                    );
                }
            }
        }
        if let Some(e) = v.get("globalDefault") {
            let p = join(path, "globalDefault");
            pc.global_default = self
                .get_bool(&e.value, &p, "PriorityClass", &mut obj)
                .unwrap_or(false);
        }
        if pc.name.starts_with("system-") && !obj.failed {
            let at = v
                .get("metadata")
                .and_then(|m| m.value.get("name"))
                .map_or(v.pos, |n| n.value.pos);
            self.system_class_check(&pc, at);
        }
        if pc.global_default
            && !obj.failed
            && let Some(d) = self.out.priority_classes.iter().find(|c| c.global_default)
        {
            let msg = format!(
                "a second globalDefault class: the Priority admission plugin refuses to create it (PriorityClass {} is already marked as default. Only one default can exist); if both exist, pods without a priorityClassName get the one with the lower value",
                d.name
            );
            self.push(Diagnostic::warning(
                Code::InvalidValue,
                pc.location.clone(),
                msg,
            ));
        }
        if let Some(e) = v.get("description") {
            let p = join(path, "description");
            self.get_str(&e.value, &p, "PriorityClass", &mut obj);
        }
        if let Some(e) = v.get("preemptionPolicy") {
            let p = join(path, "preemptionPolicy");
            let s = self.str_or_empty(&e.value, &p, "PriorityClass", &mut obj);
            if !s.is_empty() && s != "Never" && s != "PreemptLowerPriority" {
                let loc = self.loc(e.value.pos, &p);
                let mut msg =
                    format!("preemptionPolicy \"{s}\" is not one of PreemptLowerPriority, Never");
                crate::did_you_mean(&mut msg, &s, &["PreemptLowerPriority", "Never"]);
                msg.push_str(" The API server rejects it: Unsupported value");
                self.push(Diagnostic::error(Code::InvalidValue, loc, msg));
            }
            pc.preemption_policy = (!s.is_empty()).then_some(s);
        }
        self.unknown_fields(v, path, &PRIORITY_CLASS_FIELDS, "a PriorityClass", &obj);
        if obj.failed {
            return;
        }
        self.out.priority_classes.push(pc);
    }
}

#[cfg(test)]
mod tests {
    use crate::{Code, Severity, parse};

    #[test]
    fn yaml_priority_class_is_read_and_located() {
        let p = parse(
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: high\nvalue: 1000\nglobalDefault: true\npreemptionPolicy: Never\ndescription: \"for important pods\"\n",
        );
        assert_eq!(p.diagnostics, vec![]);
        assert_eq!(p.priority_classes.len(), 1);
        let pc = &p.priority_classes[0];
        assert_eq!(pc.name, "high");
        assert_eq!(pc.value, 1000);
        assert!(pc.global_default);
        assert_eq!(pc.preemption_policy.as_deref(), Some("Never"));
        assert_eq!(
            pc.effective_preemption_policy(),
            taintlab_core::PreemptionPolicy::Never
        );
        assert_eq!(pc.location.line, 1);
        assert!(!p.is_empty());
    }

    #[test]
    fn json_list_of_priority_classes() {
        let p = parse(
            r#"{"apiVersion":"v1","kind":"List","items":[
{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"low"},"value":-5},
{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"mid"},"value":50,"globalDefault":false}
]}"#,
        );
        assert_eq!(p.diagnostics, vec![]);
        let names: Vec<(&str, i32)> = p
            .priority_classes
            .iter()
            .map(|c| (c.name.as_str(), c.value))
            .collect();
        assert_eq!(names, vec![("low", -5), ("mid", 50)]);
        assert_eq!(p.priority_classes[1].location.path, "items[1]");
        assert_eq!(p.priority_classes[0].preemption_policy, None);
        assert_eq!(
            p.priority_classes[0].effective_preemption_policy(),
            taintlab_core::PreemptionPolicy::PreemptLowerPriority
        );
    }

    #[test]
    fn bad_values_are_diagnosed() {
        let p = parse(
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: \"1000\"\n",
        );
        assert!(p.priority_classes.is_empty(), "the API server rejects it");
        let e = p.errors().next().expect("an error");
        assert_eq!(e.code, Code::WrongType);
        assert_eq!(e.location.line, 4);
        assert!(e.message.contains("remove the quotes"), "{}", e.message);
        assert!(
            e.message
                .contains("Go struct field PriorityClass.value of type int32"),
            "{}",
            e.message
        );

        let p = parse(
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1.5\n",
        );
        assert!(p.priority_classes.is_empty());
        assert_eq!(p.errors().count(), 1);

        let p = parse(
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 10\npreemptionPolicy: Nevr\n",
        );
        let e = p.errors().next().expect("an error");
        assert_eq!(e.code, Code::InvalidValue);
        assert_eq!(e.location.line, 5);
        assert!(
            e.message.contains("did you mean \"Never\""),
            "{}",
            e.message
        );
        assert_eq!(p.priority_classes.len(), 1);

        let p = parse(
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: huge}\nvalue: 2000000000\nglobalDefualt: true\n",
        );
        assert!(p.errors().any(|e| {
            e.message
                .contains("maximum allowed value of a user defined priority is 1000000000")
        }));
        assert!(p.diagnostics.iter().any(|d| d.severity == Severity::Warning
            && d.code == Code::UnknownField
            && d.message.contains("did you mean \"globalDefault\"")));
    }

    #[test]
    fn system_names_and_second_defaults_are_diagnosed() {
        let p = parse(
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-node-critical}\nvalue: 2000001000\n",
        );
        assert_eq!(p.diagnostics, vec![]);
        let p = parse(
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-cluster-critical}\nvalue: 10\n",
        );
        let e = p.errors().next().expect("an error");
        assert_eq!(
            (e.location.line, e.location.path.as_str()),
            (3, "metadata.name")
        );
        assert!(
            e.message.ends_with("reserved for system use only. error: value of system-cluster-critical PriorityClass must be 2000000000"),
            "{}",
            e.message
        );
        let p = parse(
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-mine}\nvalue: 10\n",
        );
        assert!(p.errors().any(|e| {
            e.message
                .ends_with("error: system-mine is not a known system priority class")
        }));
        let p = parse(
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: a}\nvalue: 1\nglobalDefault: true\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: b}\nvalue: 2\nglobalDefault: true\n",
        );
        assert_eq!(p.priority_classes.len(), 2);
        let w: Vec<_> = p.warnings().collect();
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(w[0].location.document, 2);
        assert!(
            w[0].message.contains(
                "PriorityClass a is already marked as default. Only one default can exist"
            )
        );
    }

    #[test]
    fn pod_preemption_policy_is_kept_as_written() {
        let p = parse(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  priorityClassName: high\n  preemptionPolicy: Never\n  containers: [{name: c, image: i}]\n",
        );
        assert_eq!(
            p.workloads[0].preemption_policy_written.as_deref(),
            Some("Never")
        );
        let p = parse(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers: [{name: c, image: i}]\n",
        );
        assert_eq!(p.workloads[0].preemption_policy_written, None);
    }
}

#[cfg(test)]
mod table_tests {
    use crate::{Code, Form, parse};

    #[test]
    fn kubectl_get_priorityclass_tables_are_read() {
        let text = "$ kubectl get priorityclass\nNAME                      VALUE        GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY\nhigh                      1000         false            5d    Never\nlow                       -10          true             5d    PreemptLowerPriority\nsystem-cluster-critical   2000000000   false            90d   PreemptLowerPriority\n";
        let p = parse(text);
        let got: Vec<(&str, i32, bool, Option<&str>)> = p
            .priority_classes
            .iter()
            .map(|c| {
                (
                    c.name.as_str(),
                    c.value,
                    c.global_default,
                    c.preemption_policy.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("high", 1000, false, Some("Never")),
                ("low", -10, true, Some("PreemptLowerPriority")),
                (
                    "system-cluster-critical",
                    2_000_000_000,
                    false,
                    Some("PreemptLowerPriority")
                ),
            ],
            "{:?}",
            p.diagnostics
        );
        assert_eq!(p.priority_classes[0].location.line, 3);
        assert_eq!(p.priority_classes[0].form, Form::PriorityClassTable);
        assert!(p.errors().next().is_none(), "{:?}", p.diagnostics);
        // The older layout without PREEMPTIONPOLICY, and a bad value.
        let p = parse(
            "NAME   VALUE   GLOBAL-DEFAULT   AGE\nmid    50      false            1h\nbad    5x      false            1h\n",
        );
        assert_eq!(p.priority_classes.len(), 1);
        assert_eq!(p.priority_classes[0].preemption_policy, None);
        let e = p.errors().next().expect("an error");
        assert_eq!(
            (e.code, e.location.line, e.location.column),
            (Code::WrongType, 3, 8)
        );
    }
}
