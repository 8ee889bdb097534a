//! Workload objects (the kinds of [`taintlab_core::WorkloadKind`]): the pod template
//! where the kind keeps it, the pod spec fields that matter here, and pod status.

use taintlab_core::resource::ContainerResources as CoreContainer;

use super::*;

impl Reducer<'_> {
    /// `spec.containers` or `spec.initContainers`: names, images and resources (as
    /// written and parsed), init containers' `restartPolicy`, and ports.
    pub(super) fn containers(
        &mut self,
        v: &Value,
        path: &str,
        init: bool,
        ports: &mut Vec<placement::RawPort>,
        obj: &mut Obj,
    ) -> (Vec<ContainerResources>, Vec<CoreContainer>) {
        let mut out = Vec::new();
        let mut core = Vec::new();
        let items = self.list(v, path, "PodSpec", "[]v1.Container", obj);
        for (i, item) in items.iter().enumerate() {
            let ip = index(path, i);
            if !matches!(item.kind, Kind::Map(_)) {
                self.type_error(item, &ip, "PodSpec", Want::Object("v1.Container"), obj);
                continue;
            }
            let mut c = ContainerResources {
                name: self.opt_str(item, "name", &ip, "Container", obj),
                image: self.opt_str(item, "image", &ip, "Container", obj),
                ..Default::default()
            };
            if let Some(r) = item.get("resources") {
                (c.requests, c.limits) = self.requirements(&r.value, &join(&ip, "resources"), obj);
            }
            let restart_policy = if init {
                self.opt_str(item, "restartPolicy", &ip, "Container", obj)
            } else {
                String::new()
            };
            let sidecar = restart_policy == "Always";
            if let Some(p) = item.get("ports")
                && (!init || sidecar)
            {
                self.container_ports(&p.value, &join(&ip, "ports"), sidecar, ports, obj);
            }
            core.push(placement::core_container(&c, restart_policy));
            out.push(c);
        }
        (out, core)
    }

    pub(super) fn workload(&mut self, v: &Value, path: &str, mut obj: Obj) {
        let kind = obj.kind.clone();
        // Read by kind name alone, whatever the group (an old `extensions/v1beta1`
        // Deployment is still read).
        let wk = WorkloadKind::from_name(&kind);
        let (name, namespace, labels) = self.metadata(v, path, &mut obj);
        let api_version = self.opt_str(v, "apiVersion", path, "TypeMeta", &mut obj);
        let mut w = Workload::new(
            &kind,
            &api_version,
            &name,
            &namespace,
            self.loc(v.pos, path),
            self.form,
        );
        if wk == Some(WorkloadKind::Pod) {
            w.lifecycle.labels = labels;
            self.owner_and_mirror(v, &mut w);
        }
        self.workload_counts(v, path, &mut w, &mut obj);
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
                    self.warn(
                        Code::MissingField,
                        cur.pos,
                        &cur_path,
                        format!(
                            "this {kind} has no {} (the pod template), so it has no tolerations to read",
                            join(&cur_path, seg)
                        ),
                    );
                    break;
                }
            }
        }
        if !template_path.is_empty() {
            let (tname, tns, tlabels) = self.metadata(cur, &cur_path, &mut obj);
            w.lifecycle.labels = tlabels;
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
                if !crate::did_you_mean(&mut m, &e.key, &WORKLOAD_SPEC_FIELDS) {
                    m.push('.');
                }
                m.push_str(" The API server ignores it");
                m
            };
            self.warn(Code::UnknownField, e.key_pos, &field, msg);
        }
    }

    pub(super) fn pod_spec(&mut self, spec: &Value, sp: &str, w: &mut Workload, obj: &mut Obj) {
        let mut ports = Vec::new();
        for e in spec.entries().unwrap_or(&[]) {
            let p = join(sp, &e.key);
            match e.key.as_str() {
                "nodeSelector" => {
                    w.placement.node_selector = self.str_map(&e.value, &p, "PodSpec", false, obj);
                }
                "affinity" => w.placement.affinity = self.affinity(&e.value, &p, obj),
                "schedulingGates" => {
                    w.placement.scheduling_gates = self.scheduling_gates(&e.value, &p, obj)
                }
                "schedulerName" => {
                    let s = self.str_or_empty(&e.value, &p, "PodSpec", obj);
                    if !s.is_empty() && s != "default-scheduler" {
                        self.not_modelled(
                            e.value.pos,
                            &p,
                            format!(
                                "schedulerName \"{s}\" is not the default scheduler: default-scheduler does not place this pod, and Taintlab models only the default scheduler's filters, so the real answer may differ"
                            ),
                        );
                    }
                    w.placement.scheduler_name = s;
                }
                "overhead" => {
                    let m = self.str_map(&e.value, &p, "PodSpec", true, obj);
                    w.placement.overhead = placement::to_list(&m);
                }
                "resources" => w.placement.resources = self.pod_resources(&e.value, &p, obj),
                "topologySpreadConstraints" if !placement::value_is_empty(&e.value) => {
                    self.not_modelled(
                        e.key_pos,
                        &p,
                        format!("{p} is not modelled: Taintlab does not check topology spread (PodTopologySpread), so the real scheduler may reject or prefer nodes differently from what is shown here"),
                    );
                }
                "resourceClaims" if !placement::value_is_empty(&e.value) => {
                    self.not_modelled(
                        e.key_pos,
                        &p,
                        format!("{p} is not modelled: Taintlab does not allocate dynamic resources (DynamicResources), so nodes shown here as fitting may have no device for the claims and the real answer may differ"),
                    );
                }
                "volumes" => {
                    w.lifecycle.empty_dir = Self::has_empty_dir(&e.value);
                    self.volumes(&e.value, &p)
                }
                "terminationGracePeriodSeconds" => {
                    w.lifecycle.termination_grace_period_seconds =
                        self.get_int(&e.value, &p, "PodSpec", Want::Int64, obj)
                }
                "tolerations" => {
                    let (t, l) = self.tolerations_of(&e.value, &p, "PodSpec", obj);
                    w.pod.tolerations = t;
                    w.toleration_locations = l;
                }
                "nodeName" => w.pod.node_name = self.str_or_empty(&e.value, &p, "PodSpec", obj),
                "priority" => {
                    w.priority = self
                        .get_int(&e.value, &p, "PodSpec", Want::Int32, obj)
                        .and_then(|x| i32::try_from(x).ok())
                }
                "priorityClassName" => {
                    w.priority_class_name = self.str_or_empty(&e.value, &p, "PodSpec", obj)
                }
                "preemptionPolicy" => {
                    let s = self.str_or_empty(&e.value, &p, "PodSpec", obj);
                    w.pod.preemption_policy = PreemptionPolicy::parse(&s);
                    w.preemption_policy_written = (!s.is_empty()).then(|| s.clone());
                    if !s.is_empty() && s != "Never" && s != "PreemptLowerPriority" {
                        let loc = self.loc(e.value.pos, &p);
                        let mut msg = format!(
                            "preemptionPolicy \"{s}\" is not one of PreemptLowerPriority, Never"
                        );
                        crate::did_you_mean(&mut msg, &s, &["PreemptLowerPriority", "Never"]);
                        msg.push_str(" The API server rejects it: Unsupported value");
                        self.push(Diagnostic::error(Code::InvalidValue, loc, msg));
                    }
                }
                "hostNetwork" => {
                    w.host_network = self.get_bool(&e.value, &p, "PodSpec", obj).unwrap_or(false)
                }
                "runtimeClassName" => {
                    w.runtime_class_name = self.str_or_empty(&e.value, &p, "PodSpec", obj)
                }
                "containers" => {
                    (w.containers, w.placement.containers) =
                        self.containers(&e.value, &p, false, &mut ports, obj)
                }
                "initContainers" => {
                    (w.init_containers, w.placement.init_containers) =
                        self.containers(&e.value, &p, true, &mut ports, obj)
                }
                _ => {}
            }
        }
        w.placement.priority = w.priority.unwrap_or(0);
        w.placement.host_ports = placement::host_ports(&ports, w.host_network);
        self.unknown_fields(spec, sp, &POD_SPEC_FIELDS, "a pod spec", obj);
    }

    pub(super) fn pod_status(&mut self, v: &Value, path: &str, w: &mut Workload, obj: &mut Obj) {
        let Some(status) = v.get("status") else {
            return;
        };
        let st = join(path, "status");
        if let Some(q) = status.value.get("qosClass") {
            let s = self.str_or_empty(&q.value, &join(&st, "qosClass"), "PodStatus", obj);
            if matches!(s.as_str(), "BestEffort" | "Burstable" | "Guaranteed") {
                w.stated_qos_class = Some(QosClass::parse(&s));
            }
        }
        if let Some(q) = status.value.get("phase") {
            w.placement.phase = self.str_or_empty(&q.value, &join(&st, "phase"), "PodStatus", obj);
        }
        if let Some(q) = status.value.get("startTime") {
            w.placement.start_time =
                self.str_or_empty(&q.value, &join(&st, "startTime"), "PodStatus", obj);
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
