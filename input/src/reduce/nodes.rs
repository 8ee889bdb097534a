//! `kind: Node` objects: taints, `spec.unschedulable`, labels and conditions.

use super::*;

impl Reducer<'_> {
    pub(super) fn node(&mut self, v: &Value, path: &str, mut obj: Obj) {
        let (name, _, labels) = self.metadata(v, path, &mut obj);
        let mut node = Node {
            name,
            labels,
            ..Node::default()
        };
        let mut taint_locations = Vec::new();
        let mut unschedulable_location = None;
        if let Some(spec) = v.get("spec") {
            let sp = join(path, "spec");
            match &spec.value.kind {
                Kind::Map(_) => {
                    if let Some(t) = spec.value.get("taints") {
                        let (taints, locs) =
                            self.taints_of(&t.value, &join(&sp, "taints"), "NodeSpec", &mut obj);
                        node.taints = taints;
                        taint_locations = locs;
                    }
                    if let Some(u) = spec.value.get("unschedulable") {
                        let up = join(&sp, "unschedulable");
                        node.unschedulable = self
                            .get_bool(&u.value, &up, "NodeSpec", &mut obj)
                            .unwrap_or(false);
                        unschedulable_location = Some(self.loc(u.value.pos, &up));
                    }
                    self.unknown_fields(&spec.value, &sp, &NODE_SPEC_FIELDS, "a node spec", &obj);
                }
                Kind::Null(_) => {}
                _ => self.type_error(
                    &spec.value,
                    &sp,
                    "Node",
                    Want::Object("v1.NodeSpec"),
                    &mut obj,
                ),
            }
        }
        let mut kubelet_version = None;
        let mut allocatable = None;
        let mut capacity = None;
        if let Some(status) = v.get("status") {
            let st = join(path, "status");
            if let Some(a) = status.value.get("allocatable") {
                allocatable = self.node_resources(&a.value, &join(&st, "allocatable"));
            }
            if let Some(c) = status.value.get("capacity") {
                capacity = self.node_resources(&c.value, &join(&st, "capacity"));
            }
            if let Some(c) = status.value.get("conditions") {
                let cp = join(&st, "conditions");
                let items = self.list(&c.value, &cp, "NodeStatus", "[]v1.NodeCondition", &mut obj);
                for (i, item) in items.iter().enumerate() {
                    let ip = index(&cp, i);
                    if !matches!(item.kind, Kind::Map(_)) {
                        self.type_error(
                            item,
                            &ip,
                            "NodeStatus",
                            Want::Object("v1.NodeCondition"),
                            &mut obj,
                        );
                        continue;
                    }
                    let type_ = self.opt_str(item, "type", &ip, "NodeCondition", &mut obj);
                    let status = self.opt_str(item, "status", &ip, "NodeCondition", &mut obj);
                    node.conditions.push(NodeCondition {
                        type_,
                        status: if status.is_empty() {
                            ConditionStatus::Unknown
                        } else {
                            ConditionStatus::parse(&status)
                        },
                    });
                }
            }
            if let Some(info) = status.value.get("nodeInfo") {
                let version = self.opt_str(
                    &info.value,
                    "kubeletVersion",
                    &join(&st, "nodeInfo"),
                    "NodeSystemInfo",
                    &mut obj,
                );
                kubelet_version = (!version.is_empty()).then_some(version);
            }
        }
        self.unknown_fields(v, path, &OBJECT_FIELDS, "a Node", &obj);
        if obj.failed {
            return;
        }
        self.out.nodes.push(InputNode {
            node,
            location: self.loc(v.pos, path),
            taint_locations,
            unschedulable_location,
            kubelet_version,
            allocatable,
            capacity,
            form: self.form,
        });
    }
}
