//! Anonymous documents: a mapping or list without `kind` holding taints or tolerations
//! (or a fragment cut around `tolerations:` / `taints:`).

use super::*;

impl Reducer<'_> {
    /// A mapping without `kind`: a bare taint or toleration, or a fragment that holds
    /// `tolerations:` / `taints:` somewhere people usually cut it from.
    pub(super) fn bare_map(&mut self, v: &Value, path: &str) {
        let mut found = false;
        let spots: [&[&str]; 6] = [
            &["tolerations"],
            &["taints"],
            &["spec", "tolerations"],
            &["spec", "taints"],
            &["spec", "template", "spec", "tolerations"],
            &["template", "spec", "tolerations"],
        ];
        for spot in spots {
            let mut cur = v;
            let mut p = path.to_string();
            let mut ok = true;
            for seg in spot {
                match cur.get(seg) {
                    Some(e) => {
                        cur = &e.value;
                        p = join(&p, seg);
                    }
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                continue;
            }
            found = true;
            let mut obj = Obj::bare();
            if spot.last() == Some(&"taints") {
                let (taints, locations) = self.taints_of(cur, &p, "NodeSpec", &mut obj);
                if !obj.failed || !taints.is_empty() {
                    let location = self.loc(cur.pos, &p);
                    self.out.taint_lists.push(TaintList {
                        taints,
                        locations,
                        location,
                        form: self.form,
                    });
                }
            } else {
                let (tolerations, locations) = self.tolerations_of(cur, &p, "PodSpec", &mut obj);
                if !obj.failed || !tolerations.is_empty() {
                    let location = self.loc(cur.pos, &p);
                    self.out.toleration_lists.push(TolerationList {
                        tolerations,
                        locations,
                        location,
                        form: self.form,
                    });
                }
            }
        }
        if found {
            return;
        }
        let entries = v.entries().unwrap_or(&[]);
        let looks_like = entries.iter().any(|e| {
            TOLERATION_FIELDS.contains(&e.key.as_str()) || TAINT_FIELDS.contains(&e.key.as_str())
        });
        if looks_like {
            let as_toleration = self.is_toleration(v);
            let mut obj = Obj::bare();
            let location = self.loc(v.pos, path);
            if as_toleration {
                if let Some((t, l)) = self.toleration(v, path, &mut obj) {
                    self.out.toleration_lists.push(TolerationList {
                        tolerations: vec![t],
                        locations: vec![l],
                        location,
                        form: self.form,
                    });
                }
            } else if let Some((t, l)) = self.taint(v, path, &mut obj) {
                self.out.taint_lists.push(TaintList {
                    taints: vec![t],
                    locations: vec![l],
                    location,
                    form: self.form,
                });
            }
            return;
        }
        // A structured log line (`{"msg": ..., "err": "0/3 nodes are available: ..."}`):
        // its FailedScheduling messages, linked to the pod it names.
        let before = self.out.events.len();
        for e in entries {
            if let Kind::Str(s) = &e.value.kind
                && event::looks_like_failed_scheduling(s)
            {
                let p = join(path, &e.key);
                self.event_text(s, e.value.pos, &p);
            }
        }
        if self.out.events.len() > before {
            let pod = entries
                .iter()
                .find_map(|e| match (&e.value.kind, e.key.as_str()) {
                    (Kind::Str(s), "pod" | "pod_name" | "podName") => Some(s.clone()),
                    _ => None,
                });
            for ev in &mut self.out.events[before..] {
                if ev.object.is_none() {
                    ev.object = pod.clone();
                }
            }
            return;
        }
        let mut keys: Vec<&str> = Vec::new();
        for e in entries.iter().take(5) {
            keys.push(&e.key);
        }
        let loc = self.loc(v.pos, path);
        // `My pod does not start, describe says:` is prose, not an object.
        if path.is_empty() && keys.iter().any(|k| k.trim().contains(' ')) {
            self.push(Diagnostic::warning(
                Code::Unrecognized,
                loc,
                "this text not read: looks like prose, not a taint spec or an object",
            ));
            return;
        }
        self.push(Diagnostic::warning(
            Code::Unrecognized,
            loc,
            format!(
                "this object has no kind and no taints or tolerations (keys: {}); expected a Kubernetes object (with kind), a taints: or tolerations: list, or a single taint or toleration",
                keys.join(", ")
            ),
        ));
    }

    /// Whether a bare `{key, ...}` object is a toleration (operator or seconds, or no
    /// effect) rather than a taint (timeAdded, or an effect and nothing else to tell).
    pub(super) fn is_toleration(&self, v: &Value) -> bool {
        let has = |k: &str| v.get(k).is_some();
        if has("operator") || has("tolerationSeconds") {
            return true;
        }
        if has("timeAdded") {
            return false;
        }
        let effect_set =
            matches!(v.get("effect").map(|e| &e.value.kind), Some(Kind::Str(s)) if !s.is_empty());
        if !effect_set {
            return true;
        }
        self.prefer == Prefer::Tolerations
    }

    pub(super) fn bare_seq(&mut self, v: &Value, items: &[Value], path: &str) {
        // Objects with a kind are read one by one; strings are taint specs; the rest
        // is one list of taints or tolerations.
        let mut plain: Vec<(usize, &Value)> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let p = index(path, i);
            match &item.kind {
                Kind::Map(_) if item.get("kind").is_some() => self.object(item, &p),
                Kind::Map(_) => plain.push((i, item)),
                Kind::Str(s) => self.spec_text(s, item.pos, &p),
                Kind::Null(_) => {}
                _ => {
                    self.warn(
                        Code::Unrecognized,
                        item.pos,
                        &p,
                        format!("a list item here should be a taint, a toleration or an object, found {}", describe(item)),
                    );
                }
            }
        }
        if plain.is_empty() {
            return;
        }
        // Items none of which has a field of a taint or a toleration (a markdown list
        // such as `- Fault: a node is tainted`) are not a list of either: one note.
        // A misspelt field (`Effect`, `efect`) counts in an item of two keys or more: a
        // toleration with typos, not one capitalised word of a bullet.
        let known = |it: &Value| {
            it.entries().is_some_and(|es| {
                es.is_empty()
                    || es.iter().any(|e| is_item_field(&e.key, false))
                    || (es.len() >= 2 && es.iter().any(|e| is_item_field(&e.key, true)))
            })
        };
        if !plain.iter().any(|(_, it)| known(it)) {
            let mut keys: Vec<&str> = Vec::new();
            for (_, it) in &plain {
                for e in it.entries().unwrap_or(&[]) {
                    if keys.len() < 5 {
                        keys.push(&e.key);
                    }
                }
            }
            self.warn(
                Code::Unrecognized,
                v.pos,
                path,
                format!(
                    "this list not read: its items have no field of a taint or a toleration (keys: {}); a list in prose, or another object",
                    keys.join(", ")
                ),
            );
            return;
        }
        let tolerations = plain.iter().any(|(_, it)| it.get("operator").is_some() || it.get("tolerationSeconds").is_some())
            || (!plain.iter().any(|(_, it)| it.get("timeAdded").is_some())
                && (self.prefer == Prefer::Tolerations
                    || plain.iter().any(|(_, it)| !matches!(it.get("effect").map(|e| &e.value.kind), Some(Kind::Str(s)) if !s.is_empty()))));
        let mut obj = Obj::bare();
        let location = self.loc(v.pos, path);
        if tolerations {
            let mut list = TolerationList {
                tolerations: vec![],
                locations: vec![],
                location,
                form: self.form,
            };
            for (i, it) in plain {
                if let Some((t, l)) = self.toleration(it, &index(path, i), &mut obj) {
                    list.tolerations.push(t);
                    list.locations.push(l);
                }
            }
            self.out.toleration_lists.push(list);
        } else {
            let mut list = TaintList {
                taints: vec![],
                locations: vec![],
                location,
                form: self.form,
            };
            for (i, it) in plain {
                if let Some((t, l)) = self.taint(it, &index(path, i), &mut obj) {
                    list.taints.push(t);
                    list.locations.push(l);
                }
            }
            self.out.taint_lists.push(list);
        }
    }
}

/// Whether `key` is a field of a toleration or a taint; `near`: also one written in
/// another case or misspelt.
fn is_item_field(key: &str, near: bool) -> bool {
    for fields in [&TOLERATION_FIELDS[..], &TAINT_FIELDS[..]] {
        for f in fields {
            let found = if near {
                f.eq_ignore_ascii_case(key) || taintlab_core::suggest::suggest(key, &[f]).is_some()
            } else {
                *f == key
            };
            if found {
                return true;
            }
        }
    }
    false
}
