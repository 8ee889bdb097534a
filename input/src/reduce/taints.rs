//! Taints and tolerations: each entry decoded with its location, and the lists of them
//! in node specs and pod specs.

use super::*;

impl Reducer<'_> {
    pub(super) fn toleration(
        &mut self,
        v: &Value,
        path: &str,
        obj: &mut Obj,
    ) -> Option<(Toleration, Location)> {
        let Kind::Map(entries) = &v.kind else {
            self.type_error(v, path, "PodSpec", Want::Object("v1.Toleration"), obj);
            return None;
        };
        let mut t = Toleration::default();
        let failed_before = obj.failed;
        obj.failed = false;
        for e in entries {
            let p = join(path, &e.key);
            match e.key.as_str() {
                "key" => t.key = self.str_or_empty(&e.value, &p, "Toleration", obj),
                "operator" => {
                    let s = self.str_or_empty(&e.value, &p, "Toleration", obj);
                    t.operator = Operator::parse(&s);
                    if matches!(t.operator, Operator::Other(_)) {
                        let mut msg = format!(
                            "operator \"{s}\" is not one of Equal, Exists (or Lt, Gt with the TaintTolerationComparisonOperators gate)"
                        );
                        crate::did_you_mean(&mut msg, &s, &OPERATORS);
                        msg.push_str(" The API server rejects it: Unsupported value");
                        self.error(Code::InvalidValue, e.value.pos, &p, msg);
                    }
                }
                "value" => t.value = self.str_or_empty(&e.value, &p, "Toleration", obj),
                "effect" => {
                    let s = self.str_or_empty(&e.value, &p, "Toleration", obj);
                    t.effect = TaintEffect::parse(&s);
                    if matches!(t.effect, TaintEffect::Other(_)) {
                        self.bad_effect(&s, e.value.pos, &p, true);
                    }
                }
                "tolerationSeconds" => {
                    t.toleration_seconds =
                        self.get_int(&e.value, &p, "Toleration", Want::Int64, obj)
                }
                _ => {}
            }
        }
        let this_failed = obj.failed;
        obj.failed |= failed_before;
        self.unknown_fields(v, path, &TOLERATION_FIELDS, "a toleration", obj);
        if this_failed {
            return None;
        }
        Some((t, self.loc(v.pos, path)))
    }

    pub(super) fn bad_effect(&mut self, s: &str, pos: Pos, path: &str, toleration: bool) {
        let mut msg =
            format!("effect \"{s}\" is not one of NoSchedule, PreferNoSchedule, NoExecute");
        if toleration {
            msg.push_str(" (or empty, for every effect)");
        }
        crate::did_you_mean(&mut msg, s, &EFFECTS);
        msg.push_str(" The API server rejects it: Unsupported value");
        self.error(Code::InvalidValue, pos, path, msg);
    }

    pub(super) fn taint(
        &mut self,
        v: &Value,
        path: &str,
        obj: &mut Obj,
    ) -> Option<(Taint, Location)> {
        let Kind::Map(entries) = &v.kind else {
            self.type_error(v, path, "NodeSpec", Want::Object("v1.Taint"), obj);
            return None;
        };
        let mut t = Taint::default();
        let failed_before = obj.failed;
        obj.failed = false;
        let mut has_effect = false;
        for e in entries {
            let p = join(path, &e.key);
            match e.key.as_str() {
                "key" => t.key = self.str_or_empty(&e.value, &p, "Taint", obj),
                "value" => t.value = self.str_or_empty(&e.value, &p, "Taint", obj),
                "effect" => {
                    let s = self.str_or_empty(&e.value, &p, "Taint", obj);
                    has_effect = !s.is_empty();
                    t.effect = TaintEffect::parse(&s);
                    if matches!(t.effect, TaintEffect::Other(_)) {
                        self.bad_effect(&s, e.value.pos, &p, false);
                    }
                }
                "timeAdded" => {
                    t.time_added = self
                        .get_str(&e.value, &p, "Taint", obj)
                        .filter(|s| !s.is_empty())
                }
                _ => {}
            }
        }
        let this_failed = obj.failed;
        obj.failed |= failed_before;
        self.unknown_fields(v, path, &TAINT_FIELDS, "a taint", obj);
        if this_failed {
            return None;
        }
        let loc = self.loc(v.pos, path);
        if t.key.is_empty() {
            self.push(Diagnostic::error(
                Code::MissingField,
                loc.clone(),
                "a taint needs a key; the API server rejects it: Required value",
            ));
        }
        if !has_effect {
            self.push(Diagnostic::error(
                Code::MissingField,
                loc.clone(),
                "a taint needs an effect: one of NoSchedule, PreferNoSchedule, NoExecute; the API server rejects it: Required value",
            ));
        }
        Some((t, loc))
    }

    pub(super) fn tolerations_of(
        &mut self,
        v: &Value,
        path: &str,
        go_type: &str,
        obj: &mut Obj,
    ) -> (Vec<Toleration>, Vec<Location>) {
        let mut tols = Vec::new();
        let mut locs = Vec::new();
        let items = self.list(v, path, go_type, "[]v1.Toleration", obj);
        for (i, item) in items.iter().enumerate() {
            if let Some((t, l)) = self.toleration(item, &index(path, i), obj) {
                tols.push(t);
                locs.push(l);
            }
        }
        (tols, locs)
    }

    pub(super) fn taints_of(
        &mut self,
        v: &Value,
        path: &str,
        go_type: &str,
        obj: &mut Obj,
    ) -> (Vec<Taint>, Vec<Location>) {
        let mut taints = Vec::new();
        let mut locs = Vec::new();
        let items = self.list(v, path, go_type, "[]v1.Taint", obj);
        for (i, item) in items.iter().enumerate() {
            if let Some((t, l)) = self.taint(item, &index(path, i), obj) {
                taints.push(t);
                locs.push(l);
            }
        }
        (taints, locs)
    }
}
