//! The Kubewarden wire format around [`crate::evaluate`]: `ValidationRequest` JSON in,
//! `ValidationResponse` JSON out, plus `validate_settings`. The waPC glue is these two
//! functions and a host call; the playground can call them unchanged.
//!
//! Nothing here returns an error: every input, however broken, gets a well-formed
//! response with a message saying what is wrong.

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::{Map, Value};

use crate::jsonscan::{Reader, check_utf8, is_null, type_of};
use crate::nodelist::read_cluster_with;
use crate::nodes::{NodeListRequest, node_list_plan};
use crate::request::{Kind, ObjectParts, REQUEST_KEYS, parse_fields, parse_raw, scan_object_parts};
use crate::settings::{Action, Settings};
use crate::{CODE_BAD_REQUEST, CODE_UNAVAILABLE, Decision, decide};

/// `ValidationResponse` as Kubewarden expects it (snake_case; absent fields omitted).
pub fn response_json(d: &Decision) -> Value {
    let mut m = Map::new();
    m.insert("accepted".into(), Value::Bool(d.accepted));
    if let Some(msg) = &d.message {
        m.insert("message".into(), Value::String(msg.clone()));
    }
    if let Some(code) = d.code {
        m.insert("code".into(), Value::from(code));
    }
    if let Some(obj) = &d.mutated_object {
        m.insert("mutated_object".into(), obj.clone());
    }
    if !d.audit_annotations.is_empty() {
        // Inserted one by one: collecting into the map instantiates a stable sort, several
        // KB of WebAssembly, for keys that already come sorted.
        let mut a = Map::new();
        for (k, v) in &d.audit_annotations {
            a.insert(k.clone(), Value::String(v.clone()));
        }
        m.insert("audit_annotations".into(), Value::Object(a));
    }
    if !d.warnings.is_empty() {
        m.insert(
            "warnings".into(),
            Value::Array(d.warnings.iter().cloned().map(Value::String).collect()),
        );
    }
    Value::Object(m)
}

thread_local! {
    /// The settings of the previous call, raw and parsed. Kubewarden sends the same
    /// settings with every request of a policy, so they are parsed once per instance.
    static SETTINGS: RefCell<Option<(Vec<u8>, Rc<Settings>)>> = const { RefCell::new(None) };
}

fn cached_settings(raw: &[u8]) -> Result<Rc<Settings>, String> {
    let hit = SETTINGS.with(|c| {
        c.borrow()
            .as_ref()
            .filter(|(bytes, _)| bytes.as_slice() == raw)
            .map(|(_, s)| Rc::clone(s))
    });
    if let Some(s) = hit {
        return Ok(s);
    }
    let settings = Rc::new(Settings::from_json(raw)?);
    SETTINGS.with(|c| *c.borrow_mut() = Some((raw.to_vec(), Rc::clone(&settings))));
    Ok(settings)
}

/// The pod-bearing kind named by a raw `kind` value (`{"group": .., "kind": ..}`).
fn pod_kind_of(raw: &[u8]) -> Option<Kind> {
    let v: Value = serde_json::from_slice(raw).ok()?;
    let group = v.get("group").and_then(Value::as_str).unwrap_or("");
    let kind = Kind::from_group_kind(group, v.get("kind")?.as_str()?)?;
    (kind != Kind::Node).then_some(kind)
}

fn reject(message: String, code: u16) -> Decision {
    Decision {
        accepted: false,
        message: Some(message),
        code: Some(code),
        ..Decision::default()
    }
}

/// Handles a waPC `validate` call: `payload` is the `ValidationRequest`
/// (`{"request": ..., "settings": ...}`); `list_nodes` performs the host call for the
/// given request and returns the raw `NodeList` JSON or an error text.
pub fn validate<F>(payload: &[u8], list_nodes: F) -> Decision
where
    F: FnOnce(&NodeListRequest) -> Result<Vec<u8>, String>,
{
    if crate::jsonscan::type_of(payload) != "an object" || payload.trim_ascii().is_empty() {
        return reject(
            String::from("the ValidationRequest must be a JSON object with request and settings"),
            CODE_BAD_REQUEST,
        );
    }
    // One scan finds the settings, the request and the request's own fields.
    let mut settings_raw = None;
    let mut request_raw = None;
    let mut request_fields: [Option<&[u8]>; 9] = [None; 9];
    let mut object_parts: Option<ObjectParts<'_>> = None;
    let scanned = check_utf8(payload, "the ValidationRequest").and_then(|()| {
        let mut r = Reader {
            b: payload,
            i: 0,
            what: "the ValidationRequest",
        };
        r.object(|r, k| {
            r.ws();
            let start = r.i;
            match k {
                "request" if r.peek() == Some(b'{') => {
                    request_fields = [None; 9];
                    object_parts = None;
                    // Kubernetes sends `kind` before `object`: the object's parts are then
                    // read in this same pass (otherwise the decision reads them later).
                    let mut kind = None;
                    r.object(|r, k| {
                        r.ws();
                        let s = r.i;
                        match (k, kind) {
                            ("object", Some(kind)) if r.peek() == Some(b'{') => {
                                let mut parts = ObjectParts::default();
                                scan_object_parts(r, kind, &mut parts)?;
                                object_parts = Some(parts);
                            }
                            ("object", _) => {
                                object_parts = None;
                                r.skip(1)?;
                            }
                            _ => r.skip(1)?,
                        }
                        let raw = r.b.get(s..r.i);
                        if k == "kind" {
                            kind = raw.and_then(pod_kind_of);
                        }
                        if let Some(slot) = REQUEST_KEYS
                            .iter()
                            .position(|w| *w == k)
                            .and_then(|p| request_fields.get_mut(p))
                        {
                            *slot = raw;
                        }
                        Ok(())
                    })?;
                    request_raw = r.b.get(start..r.i);
                }
                "request" => {
                    r.skip(1)?;
                    request_raw = r.b.get(start..r.i);
                    request_fields = [None; 9];
                }
                "settings" => {
                    r.skip(1)?;
                    settings_raw = r.b.get(start..r.i);
                }
                _ => r.skip(1)?,
            }
            Ok(())
        })?;
        r.ws();
        if r.i != payload.len() {
            return r.err("trailing characters");
        }
        Ok(())
    });
    if let Err(e) = scanned {
        return reject(e, CODE_BAD_REQUEST);
    }
    let settings = match settings_raw {
        None => Rc::new(Settings::default()),
        Some(raw) => match cached_settings(raw) {
            Ok(s) => s,
            Err(e) => return reject(e, CODE_BAD_REQUEST),
        },
    };
    let Some(request) = request_raw.filter(|r| !is_null(r)) else {
        return reject(
            String::from("the ValidationRequest has no request"),
            CODE_BAD_REQUEST,
        );
    };
    // A request that is not an object (or a wrapped AdmissionReview) takes the general path.
    let parsed = if type_of(request) == "an object" {
        parse_fields(request_fields)
    } else {
        parse_raw(request)
    };
    let mut parsed = match parsed {
        Ok(p) => p,
        Err(m) => return Decision::malformed(m),
    };
    parsed.object_parts = object_parts.filter(|p| p.kind() == parsed.kind);
    let Some((list_request, placement)) = node_list_plan(&parsed, &settings) else {
        return decide(&parsed, &settings, None);
    };
    // Labels are read to find the nodes whose taints are protected, and kept with the
    // nodes when the pod selects nodes by label.
    let protect = settings
        .node_checks
        .protect_taints_of_nodes
        .as_deref()
        .and_then(|s| taintlab_core::labels::Selector::parse(s).ok());
    let cluster = list_nodes(&list_request)
        .and_then(|bytes| read_cluster_with(&bytes, protect.as_ref(), placement));
    match cluster {
        Ok(cluster) => decide(&parsed, &settings, Some(&cluster)),
        Err(e) => match settings.node_checks.on_list_error {
            Action::Deny => reject(
                format!("node checks: cannot list nodes: {e}"),
                CODE_UNAVAILABLE,
            ),
            _ => {
                let mut d = decide(&parsed, &settings, None);
                d.warn(format!("node checks skipped: cannot list nodes: {e}"));
                d
            }
        },
    }
}

/// [`validate`] serialised as the waPC response bytes.
pub fn validate_bytes<F>(payload: &[u8], list_nodes: F) -> Vec<u8>
where
    F: FnOnce(&NodeListRequest) -> Result<Vec<u8>, String>,
{
    crate::jsonwrite::to_vec(&response_json(&validate(payload, list_nodes)))
}

/// Handles a waPC `validate_settings` call: `{"valid": bool, "message": string}`.
pub fn validate_settings(payload: &[u8]) -> Value {
    let result = Settings::from_json(payload).and_then(|s| s.validate());
    match result {
        Ok(()) => serde_json::json!({"valid": true}),
        Err(message) => serde_json::json!({"valid": false, "message": message}),
    }
}

/// [`validate_settings`] serialised as the waPC response bytes.
pub fn validate_settings_bytes(payload: &[u8]) -> Vec<u8> {
    crate::jsonwrite::to_vec(&validate_settings(payload))
}
