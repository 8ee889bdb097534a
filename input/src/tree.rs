//! The located value tree both the YAML and the JSON readers build, and the schema that
//! decides which parts of an object are kept.
//!
//! Only what the taint semantics read is kept (taints, tolerations, names, labels,
//! conditions, resources, priorities, ...). Everything else is *pruned* while reading:
//! its key and position stay (so unknown-field checks still see it) but its content is
//! skipped without being stored. This keeps memory small for `kubectl get nodes -o json`
//! style inputs, where images, annotations and managed fields are most of the bytes.

/// A 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Pos {
    pub line: u32,
    pub col: u32,
}

/// A number as written and as kubectl would send it as JSON.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Number {
    /// The JSON text kubectl would produce (`0x1F` becomes `31`, `1.0` becomes `1`);
    /// empty for values JSON cannot carry (`.inf`, `.nan`).
    pub json: String,
    /// The text as written.
    pub source: String,
    /// Whether the YAML resolved it as a float (YAML `1.0`), for messages.
    pub float: bool,
}

/// The shape of a pruned value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Map,
    Seq,
    Scalar,
}

/// A value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Kind {
    /// A string (quoted, or plain text that YAML 1.1 resolves to a string).
    Str(String),
    /// Null (`~`, `null`, empty), with its source text.
    Null(Box<str>),
    /// A boolean, with its source text (`yes`, `on`, `True`...).
    Bool(bool, Box<str>),
    /// A number.
    Num(Box<Number>),
    /// A sequence.
    Seq(Vec<Value>),
    /// A mapping, in source order (duplicates already resolved: the last wins).
    Map(Vec<Entry>),
    /// Content skipped by the schema.
    Pruned(Shape),
}

/// A value and where it starts.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Value {
    pub pos: Pos,
    pub kind: Kind,
}

/// One key of a mapping.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Entry {
    pub key: String,
    pub key_pos: Pos,
    pub value: Value,
}

impl Value {
    pub fn new(pos: Pos, kind: Kind) -> Self {
        Self { pos, kind }
    }

    /// The entries when this is a mapping.
    pub fn entries(&self) -> Option<&[Entry]> {
        match &self.kind {
            Kind::Map(e) => Some(e),
            _ => None,
        }
    }

    /// The entry of a key, when this is a mapping that has it.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries()?.iter().find(|e| e.key == key)
    }

    /// Nodes in the tree, for alias expansion budgets.
    pub fn node_count(&self) -> usize {
        let mut n = 1;
        match &self.kind {
            Kind::Seq(v) => {
                for item in v {
                    n += item.node_count();
                }
            }
            Kind::Map(e) => {
                for e in e {
                    n += 1 + e.value.node_count();
                }
            }
            _ => {}
        }
        n
    }

    /// A short description of the type, in JSON words (as Go's decoder names them).
    pub fn json_type(&self) -> &'static str {
        match &self.kind {
            Kind::Str(_) => "string",
            Kind::Null(_) => "null",
            Kind::Bool(..) => "bool",
            Kind::Num(_) => "number",
            Kind::Seq(_) | Kind::Pruned(Shape::Seq) => "array",
            Kind::Map(_) | Kind::Pruned(Shape::Map) => "object",
            Kind::Pruned(Shape::Scalar) => "value",
        }
    }
}

/// Inserts an entry; a repeated key replaces the earlier value (Go's decoders keep the
/// last one) and is reported by returning the position of the earlier key.
pub(crate) fn insert(entries: &mut Vec<Entry>, entry: Entry) -> Option<Pos> {
    if let Some(old) = entries.iter_mut().find(|e| e.key == entry.key) {
        let pos = old.key_pos;
        *old = entry;
        return Some(pos);
    }
    entries.push(entry);
    None
}

/// What part of a Kubernetes object a value is, for pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ctx {
    /// A document root, a list item, or an element of a bare list.
    Object,
    /// `metadata` (also `involvedObject`).
    Meta,
    /// A map of strings kept in full (labels, requests, limits, nodeSelector).
    StrMap,
    /// `metadata.annotations`: only the scheduler's toleration annotations are kept.
    Annotations,
    /// Any `spec` (node, pod, workload, job).
    Spec,
    /// A pod template or job template: `metadata` and `spec`.
    Template,
    /// A container.
    Container,
    /// `resources`.
    Resources,
    /// `status`.
    Status,
    /// A node or pod condition.
    Condition,
    /// A pod volume: its name and whether it uses a PersistentVolumeClaim.
    Volume,
    /// `status.nodeInfo`.
    NodeInfo,
    /// A taint or a toleration: every key is kept (unknown ones are reported).
    TaintOrToleration,
    /// A scalar field; collections here are pruned.
    Scalar,
    /// A list whose elements have the given context.
    ListOf(ListElem),
    /// Everything is kept (anchored nodes, which aliases may use anywhere).
    Any,
}

/// Element contexts of [`Ctx::ListOf`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ListElem {
    Object,
    TaintOrToleration,
    Container,
    Condition,
    /// Everything is kept (container ports, scheduling gates).
    Any,
    /// A pod volume: only whether it claims a PVC.
    Volume,
}

impl Ctx {
    /// Whether a mapping is kept in this context.
    pub fn keeps_map(self) -> bool {
        !matches!(self, Ctx::Scalar | Ctx::ListOf(_))
    }

    /// Whether a sequence is kept in this context.
    pub fn keeps_seq(self) -> bool {
        matches!(self, Ctx::Object | Ctx::ListOf(_) | Ctx::Any)
    }

    /// Whether pruned entries are kept (as key and position only) for unknown-field
    /// checks; elsewhere they are dropped to save memory.
    pub fn keeps_pruned_keys(self) -> bool {
        matches!(
            self,
            Ctx::Object | Ctx::Meta | Ctx::Spec | Ctx::Template | Ctx::TaintOrToleration | Ctx::Any
        )
    }

    /// Context of the elements of a kept sequence.
    pub fn element(self) -> Ctx {
        match self {
            Ctx::ListOf(ListElem::Object) | Ctx::Object => Ctx::Object,
            Ctx::ListOf(ListElem::TaintOrToleration) => Ctx::TaintOrToleration,
            Ctx::ListOf(ListElem::Container) => Ctx::Container,
            Ctx::ListOf(ListElem::Condition) => Ctx::Condition,
            Ctx::ListOf(ListElem::Volume) => Ctx::Volume,
            _ => Ctx::Any,
        }
    }

    /// Context of the value of `key` in a kept mapping; `None` prunes it.
    pub fn field(self, key: &str) -> Option<Ctx> {
        use Ctx::*;
        match self {
            Any => Some(Any),
            Object => match key {
                "apiVersion" | "kind" | "key" | "operator" | "value" | "effect"
                | "tolerationSeconds" | "timeAdded" | "reason" | "message" | "type" | "count" => {
                    Some(Scalar)
                }
                // PriorityClass fields (`value` is above).
                "globalDefault" | "preemptionPolicy" | "description" => Some(Scalar),
                // Event `note`, and structured log lines (`{"msg": ..., "pod": ..., "err":
                // "0/3 nodes are available: ..."}`), whose messages are read.
                "note" | "err" | "error" | "msg" | "pod" => Some(Scalar),
                "metadata" | "involvedObject" | "regarding" => Some(Meta),
                "spec" => Some(Spec),
                "status" => Some(Status),
                "template" => Some(Template),
                "items" => Some(ListOf(ListElem::Object)),
                "tolerations" | "taints" => Some(ListOf(ListElem::TaintOrToleration)),
                _ => None,
            },
            Meta => match key {
                "name" | "namespace" | "generateName" | "kind" | "uid" => Some(Scalar),
                "labels" => Some(StrMap),
                "annotations" => Some(Annotations),
                // The controlling owner, read by what-if simulations.
                "ownerReferences" => Some(ListOf(ListElem::Any)),
                _ => None,
            },
            StrMap | TaintOrToleration | Condition | NodeInfo => match self {
                Condition if !matches!(key, "type" | "status" | "reason" | "message") => None,
                NodeInfo if key != "kubeletVersion" => None,
                _ => Some(Scalar),
            },
            Annotations => (key.starts_with("scheduler.alpha.kubernetes.io/")
                || key == "kubernetes.io/config.mirror")
                .then_some(Scalar),
            Spec => match key {
                "taints" | "tolerations" => Some(ListOf(ListElem::TaintOrToleration)),
                "unschedulable" | "nodeName" | "priority" | "priorityClassName"
                | "preemptionPolicy" | "hostNetwork" | "runtimeClassName" | "schedulerName" => {
                    Some(Scalar)
                }
                "containers" | "initContainers" => Some(ListOf(ListElem::Container)),
                "template" | "jobTemplate" => Some(Template),
                "nodeSelector" | "overhead" => Some(StrMap),
                "resources" => Some(Resources),
                // Node affinity is read; pod (anti-)affinity, topology spread and
                // resource claims are only reported, but small enough to keep whole.
                "affinity" | "schedulingGates" | "topologySpreadConstraints" | "resourceClaims" => {
                    Some(Any)
                }
                "volumes" => Some(ListOf(ListElem::Volume)),
                // Workload controllers, `kubectl drain` and PodDisruptionBudgets, read by
                // what-if simulations.
                "replicas"
                | "parallelism"
                | "podReplacementPolicy"
                | "terminationGracePeriodSeconds"
                | "minAvailable"
                | "maxUnavailable" => Some(Scalar),
                "selector" => Some(Any),
                _ => None,
            },
            Volume => match key {
                "name" | "emptyDir" => Some(Scalar),
                "persistentVolumeClaim" | "ephemeral" => Some(Any),
                _ => None,
            },
            Template => match key {
                "metadata" => Some(Meta),
                "spec" => Some(Spec),
                _ => None,
            },
            Container => match key {
                "name" | "image" | "restartPolicy" => Some(Scalar),
                "resources" => Some(Resources),
                "ports" => Some(ListOf(ListElem::Any)),
                _ => None,
            },
            Resources => match key {
                "requests" | "limits" => Some(StrMap),
                _ => None,
            },
            Status => match key {
                "conditions" => Some(ListOf(ListElem::Condition)),
                "qosClass" | "phase" | "startTime" => Some(Scalar),
                "allocatable" | "capacity" => Some(StrMap),
                "nodeInfo" => Some(NodeInfo),
                _ => None,
            },
            Scalar | ListOf(_) => None,
        }
    }
}

/// One document of a YAML or JSON stream.
pub(crate) struct Doc {
    /// 1-based document index in the paste.
    pub index: usize,
    /// First line of the document.
    pub line: u32,
    /// The root value; `None` when the document could not be read.
    pub root: Option<Value>,
}

/// Limits that keep hostile input in bounded time and memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest input accepted, in bytes (default 128 MiB: a 5,000-node `kubectl get nodes -o json` is about 78 MB).
    pub max_input_bytes: usize,
    /// Deepest nesting of mappings and sequences (default 128; Kubernetes objects need
    /// about 20).
    pub max_depth: usize,
    /// Most nodes that YAML aliases may add by expansion, per document (default 100,000).
    pub max_alias_nodes: usize,
    /// Most documents in one paste (default 100,000).
    pub max_documents: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_input_bytes: 128 * 1024 * 1024,
            max_depth: 128,
            max_alias_nodes: 100_000,
            max_documents: 100_000,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_keeps_what_matters() {
        assert_eq!(Ctx::Object.field("spec"), Some(Ctx::Spec));
        assert_eq!(
            Ctx::Spec.field("tolerations"),
            Some(Ctx::ListOf(ListElem::TaintOrToleration))
        );
        assert_eq!(Ctx::Status.field("images"), None);
        assert_eq!(Ctx::Meta.field("managedFields"), None);
        assert_eq!(
            Ctx::Annotations.field("scheduler.alpha.kubernetes.io/defaultTolerations"),
            Some(Ctx::Scalar)
        );
        assert_eq!(
            Ctx::Annotations.field("kubectl.kubernetes.io/last-applied-configuration"),
            None
        );
        assert_eq!(Ctx::Condition.field("lastHeartbeatTime"), None);
        assert_eq!(Ctx::TaintOrToleration.field("efect"), Some(Ctx::Scalar));
        assert!(!Ctx::Scalar.keeps_map());
        assert!(Ctx::ListOf(ListElem::Container).keeps_seq());
        assert!(!Ctx::Spec.keeps_seq());
    }

    #[test]
    fn insert_replaces_duplicates() {
        let mut e = Vec::new();
        let v = |s: &str| Value::new(Pos::default(), Kind::Str(s.into()));
        let k = |l| Pos { line: l, col: 1 };
        assert_eq!(
            insert(
                &mut e,
                Entry {
                    key: "a".into(),
                    key_pos: k(1),
                    value: v("1")
                }
            ),
            None
        );
        assert_eq!(
            insert(
                &mut e,
                Entry {
                    key: "a".into(),
                    key_pos: k(2),
                    value: v("2")
                }
            ),
            Some(k(1))
        );
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].value.kind, Kind::Str("2".into()));
    }
}
