//! Workload objects (the kinds of [`taintlab_core::WorkloadKind`]): the pod template
//! where the kind keeps it, the pod spec fields that matter here, and pod status.

use super::*;

impl Reducer<'_> {
    pub(super) fn containers(
        &mut self,
        v: &Value,
        path: &str,
        obj: &mut Obj,
    ) -> Vec<ContainerResources> {
        let mut out = Vec::new();
        let items = self.list(v, path, "PodSpec", "[]v1.Container", obj);
        for (i, item) in items.iter().enumerate() {
            let ip = index(path, i);
            if !matches!(item.kind, Kind::Map(_)) {
                self.type_error(item, &ip, "PodSpec", Want::Object("v1.Container"), obj);
                continue;
            }
            let mut c = ContainerResources {
                name: self
                    .opt_str(item, "name", &ip, "Container", obj)
                    .unwrap_or_default(),
                image: self
                    .opt_str(item, "image", &ip, "Container", obj)
                    .unwrap_or_default(),
                ..Default::default()
            };
            if let Some(r) = item.get("resources") {
                let rp = join(&ip, "resources");
                if let Some(q) = r.value.get("requests") {
                    c.requests = self.str_map(
                        &q.value,
                        &join(&rp, "requests"),
                        "ResourceRequirements",
                        true,
                        obj,
                    );
                }
                if let Some(q) = r.value.get("limits") {
                    c.limits = self.str_map(
                        &q.value,
                        &join(&rp, "limits"),
                        "ResourceRequirements",
                        true,
                        obj,
                    );
                }
            }
            out.push(c);
        }
        out
    }

    pub(super) fn workload(&mut self, v: &Value, path: &str, mut obj: Obj) {
        let kind = obj.kind.clone();
        // Read by kind name alone, whatever the group (an old `extensions/v1beta1`
        // Deployment is still read).
        let wk = WorkloadKind::from_name(&kind);
        let (name, namespace, _) = self.metadata(v, path, &mut obj);
        let mut w = Workload {
            kind: kind.clone(),
            api_version: self
                .opt_str(v, "apiVersion", path, "TypeMeta", &mut obj)
                .unwrap_or_default(),
            name: name.clone(),
            namespace: namespace.clone(),
            form: self.form,
            location: self.loc(v.pos, path),
            ..Workload::default()
        };
        w.pod.name = name;
        w.pod.namespace = namespace;
        // Where the pod template is.
        let template_path: &[&str] = wk
            .and_then(WorkloadKind::pod_template_fields)
            .unwrap_or(&[]);
        let mut cur = v;
        let mut cur_path = path.to_string();
        for (depth, seg) in template_path.iter().enumerate() {
            // Unknown-field checks on the workload and job specs around the template.
            if *seg == "template" && depth > 0 {
                self.workload_spec_fields(cur, &cur_path, &obj);
            }
            match cur.get(seg) {
                Some(e) if matches!(e.value.kind, Kind::Map(_)) => {
                    cur = &e.value;
                    cur_path = join(&cur_path, seg);
                }
                Some(e) if !matches!(e.value.kind, Kind::Null(_)) => {
                    let p = join(&cur_path, seg);
                    self.type_error(
                        &e.value,
                        &p,
                        "PodTemplateSpec",
                        Want::Object("v1.PodTemplateSpec"),
                        &mut obj,
                    );
                    return;
                }
                _ => {
                    let loc = self.loc(cur.pos, &cur_path);
                    self.push(Diagnostic::warning(
                        Code::MissingField,
                        loc,
                        format!(
                            "this {kind} has no {} (the pod template), so it has no tolerations to read",
                            join(&cur_path, seg)
                        ),
                    ));
                    break;
                }
            }
        }
        if !template_path.is_empty() {
            let (tname, tns, _) = self.metadata(cur, &cur_path, &mut obj);
            if !tname.is_empty() {
                w.pod.name = tname;
            }
            if !tns.is_empty() {
                w.pod.namespace = tns;
            }
        }
        if let Some(spec) = cur.get("spec") {
            let sp = join(&cur_path, "spec");
            match &spec.value.kind {
                Kind::Map(_) => self.pod_spec(&spec.value, &sp, &mut w, &mut obj),
                Kind::Null(_) => {}
                _ => self.type_error(
                    &spec.value,
                    &sp,
                    "PodTemplateSpec",
                    Want::Object("v1.PodSpec"),
                    &mut obj,
                ),
            }
        }
        if wk == Some(WorkloadKind::Pod) {
            self.pod_status(v, path, &mut w, &mut obj);
        }
        self.unknown_fields(
            v,
            path,
            if wk == Some(WorkloadKind::PodTemplate) {
                &["apiVersion", "kind", "metadata", "template"]
            } else {
                &OBJECT_FIELDS
            },
            &format!("a {kind}"),
            &obj,
        );
        if obj.failed {
            return;
        }
        self.out.workloads.push(w);
    }

    pub(super) fn workload_spec_fields(&mut self, spec: &Value, path: &str, obj: &Obj) {
        let Some(entries) = spec.entries() else {
            return;
        };
        for e in entries {
            if WORKLOAD_SPEC_FIELDS.contains(&e.key.as_str()) {
                continue;
            }
            let field = join(path, &e.key);
            let msg = if POD_SPEC_FIELDS.contains(&e.key.as_str()) {
                format!(
                    "{} belongs in the pod template ({}.template.spec.{}), not in {path}; here the API server ignores it, so the pods do not get it (kubectl --validate=strict rejects it as an unknown field)",
                    e.key, path, e.key
                )
            } else {
                let mut m = format!("unknown field \"{}\" in {} spec", e.key, obj.kind);
                match suggest(&e.key, &WORKLOAD_SPEC_FIELDS) {
                    Some(s) => m.push_str(&format!("; did you mean \"{s}\"?")),
                    None => m.push('.'),
                }
                m.push_str(" The API server ignores it");
                m
            };
            let loc = self.loc(e.key_pos, &field);
            self.push(Diagnostic::warning(Code::UnknownField, loc, msg));
        }
    }

    pub(super) fn pod_spec(&mut self, spec: &Value, sp: &str, w: &mut Workload, obj: &mut Obj) {
        for e in spec.entries().unwrap_or(&[]) {
            let p = join(sp, &e.key);
            match e.key.as_str() {
                "tolerations" => {
                    let (t, l) = self.tolerations_of(&e.value, &p, "PodSpec", obj);
                    w.pod.tolerations = t;
                    w.toleration_locations = l;
                }
                "nodeName" => {
                    w.pod.node_name = self
                        .get_str(&e.value, &p, "PodSpec", obj)
                        .unwrap_or_default()
                }
                "priority" => {
                    w.priority = self
                        .get_int(&e.value, &p, "PodSpec", Want::Int32, obj)
                        .and_then(|x| i32::try_from(x).ok())
                }
                "priorityClassName" => {
                    w.priority_class_name = self
                        .get_str(&e.value, &p, "PodSpec", obj)
                        .unwrap_or_default()
                }
                "preemptionPolicy" => {
                    let s = self
                        .get_str(&e.value, &p, "PodSpec", obj)
                        .unwrap_or_default();
                    w.pod.preemption_policy = PreemptionPolicy::parse(&s);
                    if !s.is_empty() && s != "Never" && s != "PreemptLowerPriority" {
                        let loc = self.loc(e.value.pos, &p);
                        let mut msg = format!(
                            "preemptionPolicy \"{s}\" is not one of PreemptLowerPriority, Never"
                        );
                        if let Some(k) = suggest(&s, &["PreemptLowerPriority", "Never"]) {
                            msg.push_str(&format!("; did you mean \"{k}\"?"));
                        }
                        msg.push_str(" The API server rejects it: Unsupported value");
                        self.push(Diagnostic::error(Code::InvalidValue, loc, msg));
                    }
                }
                "hostNetwork" => {
                    w.host_network = self.get_bool(&e.value, &p, "PodSpec", obj).unwrap_or(false)
                }
                "runtimeClassName" => {
                    w.runtime_class_name = self
                        .get_str(&e.value, &p, "PodSpec", obj)
                        .unwrap_or_default()
                }
                "containers" => w.containers = self.containers(&e.value, &p, obj),
                "initContainers" => w.init_containers = self.containers(&e.value, &p, obj),
                _ => {}
            }
        }
        self.unknown_fields(spec, sp, &POD_SPEC_FIELDS, "a pod spec", obj);
    }

    pub(super) fn pod_status(&mut self, v: &Value, path: &str, w: &mut Workload, obj: &mut Obj) {
        let Some(status) = v.get("status") else {
            return;
        };
        let st = join(path, "status");
        if let Some(q) = status.value.get("qosClass") {
            let s = self
                .get_str(&q.value, &join(&st, "qosClass"), "PodStatus", obj)
                .unwrap_or_default();
            if matches!(s.as_str(), "BestEffort" | "Burstable" | "Guaranteed") {
                w.stated_qos_class = Some(QosClass::parse(&s));
            }
        }
        if let Some(c) = status.value.get("conditions")
            && let Kind::Seq(items) = &c.value.kind
        {
            for (i, item) in items.iter().enumerate() {
                let is_sched = matches!(item.get("type").map(|e| &e.value.kind), Some(Kind::Str(t)) if t == "PodScheduled");
                if let (true, Some(m)) = (is_sched, item.get("message"))
                    && let Kind::Str(msg) = &m.value.kind
                {
                    let p = join(&index(&join(&st, "conditions"), i), "message");
                    self.event_text(msg, m.value.pos, &p);
                }
            }
        }
    }
}
