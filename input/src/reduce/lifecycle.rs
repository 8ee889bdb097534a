//! What the workload controllers, the Eviction API and `kubectl drain` read: a pod's
//! controlling owner and mirror annotation, a workload's replica count, the pod's grace
//! period and `emptyDir` volumes, and `kind: PodDisruptionBudget` objects. Only what-if
//! simulations use these; wrong types are reported like every other field.

use taintlab_core::labels::{LabelSelector, LabelSelectorRequirement};

use super::*;
use crate::model::{DisruptionBudget, IntOrString, MIRROR_ANNOTATION, OwnerRef};

/// Fields of a PodDisruptionBudget spec, for unknown-field checks.
const PDB_SPEC_FIELDS: [&str; 4] = [
    "selector",
    "minAvailable",
    "maxUnavailable",
    "unhealthyPodEvictionPolicy",
];

impl Reducer<'_> {
    /// `metadata.ownerReferences[]` with `controller: true` (`metav1.GetControllerOf`)
    /// and the mirror annotation of the object at `v`.
    pub(super) fn owner_and_mirror(&mut self, v: &Value, w: &mut Workload) {
        let Some(m) = v.get("metadata") else { return };
        if let Some(refs) = m.value.get("ownerReferences")
            && let Kind::Seq(items) = &refs.value.kind
        {
            for item in items {
                let controller = matches!(
                    item.get("controller").map(|c| &c.value.kind),
                    Some(Kind::Bool(true, _))
                );
                let text = |k: &str| match item.get(k).map(|e| &e.value.kind) {
                    Some(Kind::Str(s)) => s.clone(),
                    _ => String::new(),
                };
                if controller {
                    w.lifecycle.owner = Some(OwnerRef {
                        kind: text("kind"),
                        name: text("name"),
                    });
                    break;
                }
            }
        }
        if let Some(a) = m.value.get("annotations")
            && a.value.get(MIRROR_ANNOTATION).is_some()
        {
            w.lifecycle.mirror = true;
        }
    }

    /// `spec.replicas` of a ReplicaSet, Deployment, StatefulSet or ReplicationController,
    /// `spec.parallelism` and `spec.podReplacementPolicy` of a Job.
    pub(super) fn workload_counts(
        &mut self,
        v: &Value,
        path: &str,
        w: &mut Workload,
        obj: &mut Obj,
    ) {
        let Some(spec) = v.get("spec") else { return };
        let sp = join(path, "spec");
        let field = match w.kind.as_str() {
            "ReplicaSet" | "Deployment" | "StatefulSet" | "ReplicationController" => "replicas",
            "Job" => "parallelism",
            _ => return,
        };
        if let Some(e) = spec.value.get(field) {
            w.lifecycle.replicas = self
                .get_int(&e.value, &join(&sp, field), "spec", Want::Int32, obj)
                .and_then(|x| i32::try_from(x).ok());
        }
        if w.kind == "Job"
            && let Some(e) = spec.value.get("podReplacementPolicy")
        {
            w.lifecycle.pod_replacement_policy =
                self.get_str(&e.value, &join(&sp, "podReplacementPolicy"), "JobSpec", obj);
        }
    }

    /// Does any `volumes[]` entry use `emptyDir`?
    pub(super) fn has_empty_dir(v: &Value) -> bool {
        match &v.kind {
            Kind::Seq(items) => items.iter().any(|i| {
                i.get("emptyDir")
                    .is_some_and(|e| !matches!(e.value.kind, Kind::Str(_)))
            }),
            _ => false,
        }
    }

    /// `kind: PodDisruptionBudget`.
    pub(super) fn disruption_budget(&mut self, v: &Value, path: &str, mut obj: Obj) {
        let (name, namespace, _) = self.metadata(v, path, &mut obj);
        let mut pdb = DisruptionBudget {
            name,
            namespace,
            location: self.loc(v.pos, path),
            form: self.form,
            ..DisruptionBudget::default()
        };
        if let Some(spec) = v.get("spec") {
            let sp = join(path, "spec");
            for e in spec.value.entries().unwrap_or(&[]) {
                let p = join(&sp, &e.key);
                match e.key.as_str() {
                    "selector" => pdb.selector = self.label_selector(&e.value, &p, &mut obj),
                    "minAvailable" => {
                        pdb.min_available = self.int_or_string(&e.value, &p, &mut obj)
                    }
                    "maxUnavailable" => {
                        pdb.max_unavailable = self.int_or_string(&e.value, &p, &mut obj)
                    }
                    _ => {}
                }
            }
            self.unknown_fields(
                &spec.value,
                &sp,
                &PDB_SPEC_FIELDS,
                "a PodDisruptionBudget spec",
                &obj,
            );
        }
        if obj.failed {
            return;
        }
        self.out.disruption_budgets.push(pdb);
    }

    fn int_or_string(&mut self, v: &Value, path: &str, obj: &mut Obj) -> Option<IntOrString> {
        match &v.kind {
            Kind::Null(_) => None,
            Kind::Str(s) => Some(IntOrString::String(s.clone())),
            _ => self
                .get_int(v, path, "PodDisruptionBudgetSpec", Want::Int32, obj)
                .map(IntOrString::Int),
        }
    }

    /// A `metav1.LabelSelector`; `None` for a null or absent selector.
    fn label_selector(&mut self, v: &Value, path: &str, obj: &mut Obj) -> Option<LabelSelector> {
        match &v.kind {
            Kind::Null(_) => return None,
            Kind::Map(_) => {}
            _ => {
                self.type_error(
                    v,
                    path,
                    "PodDisruptionBudgetSpec",
                    Want::Object("v1.LabelSelector"),
                    obj,
                );
                return None;
            }
        }
        let mut sel = LabelSelector::default();
        if let Some(l) = v.get("matchLabels") {
            sel.match_labels = self.str_map(
                &l.value,
                &join(path, "matchLabels"),
                "LabelSelector",
                false,
                obj,
            );
        }
        if let Some(x) = v.get("matchExpressions") {
            let xp = join(path, "matchExpressions");
            let items = self.list(
                &x.value,
                &xp,
                "LabelSelector",
                "[]v1.LabelSelectorRequirement",
                obj,
            );
            for (i, item) in items.iter().enumerate() {
                let ip = index(&xp, i);
                let key = self.opt_str(item, "key", &ip, "LabelSelectorRequirement", obj);
                let operator = self.opt_str(item, "operator", &ip, "LabelSelectorRequirement", obj);
                let values = self.requirement_values(item, &ip, "LabelSelectorRequirement", obj);
                sel.match_expressions.push(LabelSelectorRequirement {
                    key,
                    operator,
                    values,
                });
            }
        }
        Some(sel)
    }
}

#[cfg(test)]
mod tests {
    use crate::{IntOrString, parse};

    #[test]
    fn owner_grace_period_empty_dir_and_replicas_are_read() {
        let p = parse(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-1\n  labels: {app: web}\n  ownerReferences:\n  - {apiVersion: apps/v1, kind: ReplicaSet, name: web-5d, controller: true}\n  annotations: {kubernetes.io/config.mirror: abc}\nspec:\n  terminationGracePeriodSeconds: 60\n  volumes: [{name: scratch, emptyDir: {}}]\n  containers: [{name: c}]\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 3\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c}]}\n",
        );
        let pod = &p.workloads[0].lifecycle;
        assert_eq!(
            pod.owner
                .as_ref()
                .map(|o| (o.kind.as_str(), o.name.as_str())),
            Some(("ReplicaSet", "web-5d"))
        );
        assert!(pod.mirror);
        assert!(pod.empty_dir);
        assert_eq!(pod.termination_grace_period_seconds, Some(60));
        assert_eq!(pod.labels.get("app").map(String::as_str), Some("web"));
        let dep = &p.workloads[1].lifecycle;
        assert_eq!(dep.replicas, Some(3));
        assert_eq!(dep.labels.get("app").map(String::as_str), Some("web"));
        assert!(dep.owner.is_none());
    }

    #[test]
    fn pod_disruption_budgets_are_read_with_int_or_percent() {
        let p = parse(
            "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web, namespace: shop}\nspec:\n  minAvailable: 2\n  selector:\n    matchLabels: {app: web}\n    matchExpressions: [{key: tier, operator: In, values: [front]}]\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: db}\nspec:\n  maxUnavailable: \"50%\"\n  selector: {matchLabels: {app: db}}\n",
        );
        assert_eq!(p.disruption_budgets.len(), 2, "{:?}", p.diagnostics);
        let web = &p.disruption_budgets[0];
        assert_eq!((web.name.as_str(), web.namespace.as_str()), ("web", "shop"));
        assert_eq!(web.min_available, Some(IntOrString::Int(2)));
        let sel = web.selector.as_ref().unwrap();
        assert_eq!(sel.match_labels.get("app").map(String::as_str), Some("web"));
        assert_eq!(sel.match_expressions[0].values, vec!["front".to_string()]);
        assert_eq!(
            p.disruption_budgets[1].max_unavailable,
            Some(IntOrString::String("50%".into()))
        );
    }

    #[test]
    fn a_bad_replica_count_is_reported_where_it_is() {
        let p = parse(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: many\n  template:\n    spec: {containers: [{name: c}]}\n",
        );
        assert!(
            p.diagnostics
                .iter()
                .any(|d| d.location.path == "spec.replicas"),
            "{:?}",
            p.diagnostics
        );
    }
}
