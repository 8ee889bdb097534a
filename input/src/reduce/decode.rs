//! Decoding as the API server's JSON decoder does: unknown fields, wrong types, and the
//! typed readers (strings, integers, booleans, string maps, lists, `metadata`) that report
//! them in kubectl's words and in plain ones.

use super::*;

impl Reducer<'_> {
    pub(super) fn unknown_fields(
        &mut self,
        v: &Value,
        path: &str,
        known: &[&str],
        what: &str,
        obj: &Obj,
    ) {
        let Some(entries) = v.entries() else { return };
        for e in entries {
            if known.contains(&e.key.as_str()) {
                continue;
            }
            // `then i create a pod :` written above the object: prose, not a field.
            if e.key.trim().contains(' ') && matches!(e.value.kind, Kind::Null(_)) {
                self.warn(
                    Code::Unrecognized,
                    e.key_pos,
                    "",
                    "this line not read: looks like prose written around the object, not a field",
                );
                continue;
            }
            let field = join(path, &e.key);
            let mut msg = format!("unknown field \"{}\" in {what}", e.key);
            if !crate::did_you_mean(&mut msg, &e.key, known) {
                msg.push('.');
            }
            msg.push_str(" The API server ignores it");
            if let Some(c) = consequence(what, suggest(&e.key, known)) {
                let _ = write!(msg, ": {c}");
            }
            msg.push('.');
            if !obj.kind.is_empty() {
                let rel = field
                    .strip_prefix(&obj.base)
                    .map(|r| r.trim_start_matches('.'))
                    .unwrap_or(&field);
                let _ = write!(
                    msg,
                    " kubectl apply (--validate=strict, the default) rejects it: strict decoding error: unknown field \"{rel}\""
                );
            }
            self.warn(Code::UnknownField, e.key_pos, &field, msg);
        }
    }

    pub(super) fn type_error(
        &mut self,
        v: &Value,
        path: &str,
        go_type: &str,
        want: Want,
        obj: &mut Obj,
    ) {
        obj.failed = true;
        let key = last_segment(path);
        let mut msg = format!("{path} must be {}, but {}", want.words(), describe(v));
        let json = self.form == Form::Json;
        match (&v.kind, want) {
            (Kind::Bool(..) | Kind::Num(_), Want::Str) => {
                let src = source_text(v);
                if json {
                    let _ = write!(msg, "; write \"{key}\": \"{src}\"");
                } else {
                    let _ = write!(msg, "; quote it: {key}: \"{src}\"");
                }
            }
            (Kind::Str(s), Want::Int64 | Want::Int32) if s.trim().parse::<i64>().is_ok() => {
                if json {
                    let _ = write!(msg, "; remove the quotes: \"{key}\": {}", s.trim());
                } else {
                    let _ = write!(msg, "; remove the quotes: {key}: {}", s.trim());
                }
            }
            (Kind::Str(s), Want::Bool) if s == "true" || s == "false" => {
                let _ = write!(msg, "; remove the quotes: {key}: {s}");
            }
            _ => {}
        }
        if !obj.kind.is_empty() {
            let jt = match (&v.kind, want) {
                (Kind::Num(n), Want::Int64 | Want::Int32) => format!("number {}", n.json),
                _ => v.json_type().to_string(),
            };
            let field = go_path(path, &obj.base);
            let _ = write!(
                msg,
                ". kubectl rejects the object: {k} in version \"{ver}\" cannot be handled as a {k}: json: cannot unmarshal {jt} into Go struct field {go_type}.{field} of type {gt}",
                k = obj.kind,
                ver = obj.version,
                gt = want.go()
            );
        }
        self.error(Code::WrongType, v.pos, path, msg);
    }

    pub(super) fn get_str(
        &mut self,
        v: &Value,
        path: &str,
        go_type: &str,
        obj: &mut Obj,
    ) -> Option<String> {
        match &v.kind {
            Kind::Str(s) => Some(s.clone()),
            Kind::Null(_) => Some(String::new()),
            Kind::Num(n) if n.json.is_empty() => {
                self.non_finite(v, path, obj);
                None
            }
            _ => {
                self.type_error(v, path, go_type, Want::Str, obj);
                None
            }
        }
    }

    pub(super) fn non_finite(&mut self, v: &Value, path: &str, obj: &mut Obj) {
        obj.failed = true;
        self.error(
            Code::WrongType,
            v.pos,
            path,
            format!(
                "`{}` is read as an infinite or not-a-number float, which JSON cannot carry; kubectl fails with: json: unsupported value",
                source_text(v)
            ),
        );
    }

    /// The string `get_str` reads, empty when it is null or not a string (one call
    /// for the many fields read that way).
    pub(super) fn str_or_empty(
        &mut self,
        v: &Value,
        path: &str,
        go_type: &str,
        obj: &mut Obj,
    ) -> String {
        self.get_str(v, path, go_type, obj).unwrap_or_default()
    }

    /// The string field `key` of `v`, empty when it is absent, null or not a string.
    pub(super) fn opt_str(
        &mut self,
        v: &Value,
        key: &str,
        base: &str,
        go_type: &str,
        obj: &mut Obj,
    ) -> String {
        let Some(e) = v.get(key) else {
            return String::new();
        };
        let path = join(base, key);
        self.str_or_empty(&e.value, &path, go_type, obj)
    }

    pub(super) fn get_int(
        &mut self,
        v: &Value,
        path: &str,
        go_type: &str,
        want: Want,
        obj: &mut Obj,
    ) -> Option<i64> {
        match &v.kind {
            Kind::Null(_) => None,
            Kind::Num(n) => {
                let parsed = n.json.parse::<i64>().ok().filter(|x| match want {
                    Want::Int32 => i32::try_from(*x).is_ok(),
                    _ => true,
                });
                if parsed.is_none() {
                    self.type_error(v, path, go_type, want, obj);
                }
                parsed
            }
            _ => {
                self.type_error(v, path, go_type, want, obj);
                None
            }
        }
    }

    pub(super) fn get_bool(
        &mut self,
        v: &Value,
        path: &str,
        go_type: &str,
        obj: &mut Obj,
    ) -> Option<bool> {
        match &v.kind {
            Kind::Bool(b, _) => Some(*b),
            Kind::Null(_) => None,
            _ => {
                self.type_error(v, path, go_type, Want::Bool, obj);
                None
            }
        }
    }

    /// A map of strings (labels); `quantity` accepts numbers (requests, limits).
    pub(super) fn str_map(
        &mut self,
        v: &Value,
        path: &str,
        go_type: &str,
        quantity: bool,
        obj: &mut Obj,
    ) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        match &v.kind {
            Kind::Map(entries) => {
                for e in entries {
                    let p = join(path, &e.key);
                    if quantity {
                        let text = match &e.value.kind {
                            Kind::Str(s) => Some(s.clone()),
                            Kind::Num(n) if !n.json.is_empty() => Some(n.json.clone()),
                            Kind::Null(_) => None,
                            _ => {
                                self.type_error(&e.value, &p, go_type, Want::Quantity, obj);
                                None
                            }
                        };
                        if let Some(t) = text {
                            if Quantity::parse(&t).is_none() {
                                obj.failed = true;
                                self.error(
                                    Code::InvalidValue,
                                    e.value.pos,
                                    &p,
                                    format!("\"{t}\" is not a resource quantity (such as 500m, 2, 1.5Gi): {QUANTITY_FORMAT}"),
                                );
                            } else {
                                out.insert(e.key.clone(), t);
                            }
                        }
                    } else {
                        match &e.value.kind {
                            Kind::Str(s) => {
                                out.insert(e.key.clone(), s.clone());
                            }
                            Kind::Null(_) => {
                                out.insert(e.key.clone(), String::new());
                            }
                            _ => {
                                // Go names the map field itself for a bad value.
                                let mut tmp = Obj {
                                    failed: false,
                                    ..Obj::bare()
                                };
                                std::mem::swap(&mut tmp.kind, &mut obj.kind);
                                std::mem::swap(&mut tmp.version, &mut obj.version);
                                std::mem::swap(&mut tmp.base, &mut obj.base);
                                self.type_error(&e.value, &p, go_type, Want::Str, &mut tmp);
                                if let Some(d) = self.out.diagnostics.last_mut() {
                                    // Point Go's message at the map, as Go does.
                                    let field = go_path(path, &tmp.base);
                                    let with_key = go_path(&p, &tmp.base);
                                    d.message = d.message.replace(
                                        &format!("{go_type}.{with_key} "),
                                        &format!("{go_type}.{field} "),
                                    );
                                }
                                std::mem::swap(&mut tmp.kind, &mut obj.kind);
                                std::mem::swap(&mut tmp.version, &mut obj.version);
                                std::mem::swap(&mut tmp.base, &mut obj.base);
                                obj.failed = true;
                            }
                        }
                    }
                }
            }
            Kind::Null(_) => {}
            _ => self.type_error(
                v,
                path,
                go_type,
                if quantity {
                    Want::Object("v1.ResourceList")
                } else {
                    Want::StrMap
                },
                obj,
            ),
        }
        out
    }

    pub(super) fn list<'v>(
        &mut self,
        v: &'v Value,
        path: &str,
        go_type: &str,
        elem: &'static str,
        obj: &mut Obj,
    ) -> &'v [Value] {
        match &v.kind {
            Kind::Seq(items) => items,
            Kind::Null(_) => &[],
            _ => {
                self.type_error(v, path, go_type, Want::Array(elem), obj);
                &[]
            }
        }
    }

    /// The `values` strings of a selector requirement at `v` (a node selector's or a
    /// label selector's, `go_type`); items of another type are reported and left out.
    pub(super) fn requirement_values(
        &mut self,
        v: &Value,
        path: &str,
        go_type: &str,
        obj: &mut Obj,
    ) -> Vec<String> {
        let mut values = Vec::new();
        let Some(e) = v.get("values") else {
            return values;
        };
        let vp = join(path, "values");
        let items = self.list(&e.value, &vp, go_type, "[]string", obj);
        for (i, item) in items.iter().enumerate() {
            if let Some(s) = self.get_str(item, &index(&vp, i), go_type, obj) {
                values.push(s);
            }
        }
        values
    }

    pub(super) fn metadata(
        &mut self,
        v: &Value,
        path: &str,
        obj: &mut Obj,
    ) -> (String, String, BTreeMap<String, String>) {
        let Some(m) = v.get("metadata") else {
            return Default::default();
        };
        let mpath = join(path, "metadata");
        if !matches!(m.value.kind, Kind::Map(_)) {
            if !matches!(m.value.kind, Kind::Null(_)) {
                self.type_error(
                    &m.value,
                    &mpath,
                    "ObjectMeta",
                    Want::Object("v1.ObjectMeta"),
                    obj,
                );
            }
            return Default::default();
        }
        let name = self.opt_str(&m.value, "name", &mpath, "ObjectMeta", obj);
        let name = if name.is_empty() {
            self.opt_str(&m.value, "generateName", &mpath, "ObjectMeta", obj)
        } else {
            name
        };
        let ns = self.opt_str(&m.value, "namespace", &mpath, "ObjectMeta", obj);
        let labels = match m.value.get("labels") {
            Some(l) => self.str_map(&l.value, &join(&mpath, "labels"), "ObjectMeta", false, obj),
            None => BTreeMap::new(),
        };
        self.unknown_fields(&m.value, &mpath, &META_FIELDS, "metadata", obj);
        (name, ns, labels)
    }
}
