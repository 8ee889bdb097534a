//! `kwctl annotate` without kwctl: the `io.kubewarden.metadata` custom section.
//!
//! Kubewarden's tools (policy-server, `kwctl inspect`, `kwctl scaffold manifest`) read a
//! policy's rules, mutation flag, context-aware resources and execution mode from the
//! JSON in the module's custom section `io.kubewarden.metadata`
//! (`policy_evaluator::constants::KUBEWARDEN_CUSTOM_SECTION_METADATA`, read back by
//! `policy_evaluator::policy_metadata::Metadata::from_contents`). `kwctl annotate`
//! (kubewarden-controller `crates/kwctl/src/annotate.rs`) writes it as follows, and so
//! does [`metadata_json`]:
//!
//! * `metadata.yml` is read into `Metadata`: `rules` (`apiGroups`, `apiVersions`,
//!   `resources`, `operations`), `annotations`, `mutating`, `backgroundAudit` (default
//!   `true`), `executionMode` (default `kubewarden-wapc`), `policyType` (default
//!   `kubernetes`), `contextAwareResources` (a set: sorted by apiVersion then kind,
//!   default empty), `hostCapabilities` and `minimumKubewardenVersion` (left out when
//!   absent), serialised in that field order, the annotations sorted by key.
//! * `protocolVersion` is set to what the module answers to `protocol_version` for a
//!   waPC policy. The policy is built with the Kubewarden SDK, whose
//!   `protocol_version_guest` answers `"v1"` (the only waPC protocol there is); here the
//!   module is checked to be a waPC module (it exports `wapc_init` and `__guest_call`)
//!   and `"v1"` is written. The end-to-end suite asks the annotated module through a real
//!   waPC host and compares.
//! * The usage text (`-u README.md`) becomes the annotation `io.kubewarden.policy.usage`.
//! * kwctl also stamps `io.kubewarden.kwctl` with its own version; this module is not
//!   kwctl, so it does not claim to be. Nothing in Kubewarden reads that annotation.
//!
//! The section is appended by hand rather than with the `wasm-encoder` or `walrus`
//! crates: a custom section is the byte 0, the LEB128 length of the rest, the LEB128
//! length of the name, the name and the data, and a module is a header followed by
//! sections each carrying its own length. Appending one (after dropping an earlier
//! `io.kubewarden.metadata`, so annotating twice gives the same bytes) needs twenty lines,
//! leaves every other byte of the module as wasm-opt wrote it (walrus, which kwctl uses,
//! re-encodes the whole module) and adds no dependency to xtask.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// Name of the custom section Kubewarden reads the metadata from.
pub const SECTION: &str = "io.kubewarden.metadata";
/// Annotation holding the usage text (the policy's README).
pub const USAGE_ANNOTATION: &str = "io.kubewarden.policy.usage";
/// What the Kubewarden SDK's `protocol_version` answers.
pub const PROTOCOL_VERSION: &str = "v1";

const MAGIC: &[u8; 8] = b"\0asm\x01\0\0\0";

/// One admission rule, fields in policy-evaluator's order.
#[derive(Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    api_groups: Vec<String>,
    api_versions: Vec<String>,
    resources: Vec<String>,
    operations: Vec<String>,
}

/// A resource the policy may read from the cluster.
#[derive(Debug, Deserialize, Serialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "camelCase")]
struct ContextAwareResource {
    api_version: String,
    kind: String,
}

fn yes() -> bool {
    true
}

fn wapc() -> String {
    "kubewarden-wapc".into()
}

fn kubernetes() -> String {
    "kubernetes".into()
}

/// policy-evaluator's `Metadata`, field for field and in its serialisation order.
#[derive(Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
struct Metadata {
    #[serde(default)]
    protocol_version: Option<String>,
    rules: Vec<Rule>,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<BTreeMap<String, String>>,
    mutating: bool,
    #[serde(default = "yes")]
    background_audit: bool,
    #[serde(default = "wapc")]
    execution_mode: String,
    #[serde(default = "kubernetes")]
    policy_type: String,
    #[serde(default)]
    context_aware_resources: BTreeSet<ContextAwareResource>,
    #[serde(skip_serializing_if = "Option::is_none")]
    host_capabilities: Option<BTreeSet<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    minimum_kubewarden_version: Option<String>,
}

/// What kwctl's validation (`Metadata::validate`) rejects, checked here too.
fn validate(m: &Metadata) -> Result<(), String> {
    const OPS: [&str; 5] = ["CREATE", "UPDATE", "DELETE", "CONNECT", "*"];
    const MODES: [&str; 4] = ["kubewarden-wapc", "opa", "gatekeeper", "wasi"];
    for (i, r) in m.rules.iter().enumerate() {
        for (field, list) in [
            ("apiGroups", &r.api_groups),
            ("apiVersions", &r.api_versions),
            ("resources", &r.resources),
            ("operations", &r.operations),
        ] {
            if list.is_empty() {
                return Err(format!("rules[{i}].{field} is empty"));
            }
            if list.len() > 1 && list.iter().any(|s| s == "*") {
                return Err(format!(
                    "rules[{i}].{field}: no other elements can be defined when '*' is used"
                ));
            }
        }
        if r.resources.iter().any(String::is_empty) {
            return Err(format!("rules[{i}].resources: empty resource"));
        }
        if let Some(op) = r.operations.iter().find(|o| !OPS.contains(&o.as_str())) {
            return Err(format!("rules[{i}].operations: unknown operation {op:?}"));
        }
    }
    if !MODES.contains(&m.execution_mode.as_str()) {
        return Err(format!("unknown executionMode {:?}", m.execution_mode));
    }
    if !["kubernetes", "raw"].contains(&m.policy_type.as_str()) {
        return Err(format!("unknown policyType {:?}", m.policy_type));
    }
    for c in &m.context_aware_resources {
        if c.api_version.is_empty() || c.kind.is_empty() {
            return Err("contextAwareResources: apiVersion and kind must be set".into());
        }
    }
    if let Some(v) = &m.minimum_kubewarden_version {
        let parts: Vec<&str> = v.split('.').collect();
        if parts.len() != 3
            || parts
                .iter()
                .any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()))
        {
            return Err(format!(
                "minimumKubewardenVersion {v:?} is not a version x.y.z"
            ));
        }
    }
    Ok(())
}

/// The metadata JSON for `metadata.yml` and the usage text, as `kwctl annotate -m
/// metadata.yml -u README.md` writes it for a waPC module (see the module docs).
pub fn metadata_json(metadata_yml: &str, usage: &str) -> Result<Vec<u8>, String> {
    let mut m: Metadata =
        serde_yaml::from_str(metadata_yml).map_err(|e| format!("metadata.yml: {e}"))?;
    if m.execution_mode != "kubewarden-wapc" {
        return Err(format!(
            "executionMode is {:?}; only waPC policies are annotated here",
            m.execution_mode
        ));
    }
    m.protocol_version = Some(PROTOCOL_VERSION.into());
    m.annotations
        .get_or_insert_with(BTreeMap::new)
        .insert(USAGE_ANNOTATION.into(), usage.into());
    validate(&m).map_err(|e| format!("metadata.yml is invalid: {e}"))?;
    serde_json::to_vec(&m).map_err(|e| e.to_string())
}

/// Appends `n` as unsigned LEB128.
fn leb128(mut n: usize, out: &mut Vec<u8>) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Reads an unsigned LEB128 (at most 32 bits, as the wasm format allows) at `*at`.
fn read_leb128(bytes: &[u8], at: &mut usize) -> Result<usize, String> {
    let mut n: u64 = 0;
    for shift in (0..35).step_by(7) {
        let b = *bytes
            .get(*at)
            .ok_or("truncated module (LEB128 runs past the end)")?;
        *at += 1;
        n |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return usize::try_from(n)
                .ok()
                .filter(|_| n <= u64::from(u32::MAX))
                .ok_or_else(|| "LEB128 value over 32 bits".to_string());
        }
    }
    Err("LEB128 longer than 5 bytes".into())
}

/// A section of a module: its id and byte ranges.
#[derive(Debug, PartialEq, Eq)]
struct Section {
    id: u8,
    /// From the id byte to the end of the section.
    whole: std::ops::Range<usize>,
    /// The section's contents (after the length).
    body: std::ops::Range<usize>,
}

/// Splits a module into its sections.
fn sections(module: &[u8]) -> Result<Vec<Section>, String> {
    if module.get(..8) != Some(&MAGIC[..]) {
        return Err("not a WebAssembly module (version 1)".into());
    }
    let mut at = 8;
    let mut out = Vec::new();
    while at < module.len() {
        let start = at;
        let id = module[at];
        at += 1;
        let len = read_leb128(module, &mut at)?;
        let end = at
            .checked_add(len)
            .filter(|e| *e <= module.len())
            .ok_or("truncated module (a section runs past the end)")?;
        out.push(Section {
            id,
            whole: start..end,
            body: at..end,
        });
        at = end;
    }
    Ok(out)
}

/// Reads a wasm `name` (LEB128 length, UTF-8 bytes) at `*at`.
fn read_name<'a>(bytes: &'a [u8], at: &mut usize) -> Result<&'a str, String> {
    let len = read_leb128(bytes, at)?;
    let end = at
        .checked_add(len)
        .filter(|e| *e <= bytes.len())
        .ok_or("truncated name")?;
    let s = std::str::from_utf8(&bytes[*at..end]).map_err(|_| "name is not UTF-8")?;
    *at = end;
    Ok(s)
}

/// The custom sections of a module: (name, data), in order.
pub fn custom_sections(module: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut out = Vec::new();
    for s in sections(module)?.into_iter().filter(|s| s.id == 0) {
        let body = &module[s.body];
        let mut at = 0;
        let name = read_name(body, &mut at)?;
        out.push((name.to_string(), body[at..].to_vec()));
    }
    Ok(out)
}

/// The names the module exports.
pub fn exports(module: &[u8]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for s in sections(module)?.into_iter().filter(|s| s.id == 7) {
        let body = &module[s.body];
        let mut at = 0;
        let count = read_leb128(body, &mut at)?;
        for _ in 0..count {
            out.push(read_name(body, &mut at)?.to_string());
            // Export kind, then the index.
            at += 1;
            read_leb128(body, &mut at)?;
        }
    }
    Ok(out)
}

/// The module with `metadata` as its only `io.kubewarden.metadata` section, appended at
/// the end; every other section is kept byte for byte.
pub fn annotate(module: &[u8], metadata: &[u8]) -> Result<Vec<u8>, String> {
    let exported = exports(module)?;
    for required in ["wapc_init", "__guest_call"] {
        if !exported.iter().any(|e| e == required) {
            return Err(format!(
                "the module does not export {required}: not a waPC policy"
            ));
        }
    }
    let mut out = Vec::with_capacity(module.len() + metadata.len() + 32);
    out.extend_from_slice(MAGIC);
    for s in sections(module)? {
        if s.id == 0 {
            let body = &module[s.body.clone()];
            let mut at = 0;
            if read_name(body, &mut at)? == SECTION {
                continue;
            }
        }
        out.extend_from_slice(&module[s.whole]);
    }
    let mut name = Vec::new();
    leb128(SECTION.len(), &mut name);
    name.extend_from_slice(SECTION.as_bytes());
    out.push(0);
    leb128(name.len() + metadata.len(), &mut out);
    out.extend_from_slice(&name);
    out.extend_from_slice(metadata);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// A minimal module exporting two functions, as a waPC guest does.
    fn wapc_module() -> Vec<u8> {
        let mut m = MAGIC.to_vec();
        // type section: one type () -> ()
        m.extend_from_slice(&[1, 4, 1, 0x60, 0, 0]);
        // function section: two functions of type 0
        m.extend_from_slice(&[3, 3, 2, 0, 0]);
        // export section
        let mut exp = vec![2];
        for (i, name) in ["wapc_init", "__guest_call"].iter().enumerate() {
            exp.push(name.len() as u8);
            exp.extend_from_slice(name.as_bytes());
            exp.extend_from_slice(&[0, i as u8]);
        }
        m.push(7);
        m.push(exp.len() as u8);
        m.extend_from_slice(&exp);
        // code section: two empty bodies
        m.extend_from_slice(&[10, 7, 2, 2, 0, 0x0b, 2, 0, 0x0b]);
        m
    }

    #[test]
    fn leb128_round_trips() {
        for n in [
            0,
            1,
            127,
            128,
            300,
            16_383,
            16_384,
            624_485,
            u32::MAX as usize,
        ] {
            let mut buf = Vec::new();
            leb128(n, &mut buf);
            let mut at = 0;
            assert_eq!(read_leb128(&buf, &mut at), Ok(n));
            assert_eq!(at, buf.len());
        }
        let mut buf = Vec::new();
        leb128(624_485, &mut buf);
        assert_eq!(buf, [0xe5, 0x8e, 0x26]);
        assert!(read_leb128(&[0x80, 0x80], &mut 0).is_err());
        assert!(read_leb128(&[0xff, 0xff, 0xff, 0xff, 0xff, 0x01], &mut 0).is_err());
    }

    #[test]
    fn annotating_appends_one_section_and_keeps_the_rest() {
        let module = wapc_module();
        assert_eq!(exports(&module).unwrap(), ["wapc_init", "__guest_call"]);
        let data = br#"{"protocolVersion":"v1"}"#;
        let once = annotate(&module, data).unwrap();
        assert_eq!(&once[..module.len()], &module[..]);
        assert_eq!(
            custom_sections(&once).unwrap(),
            vec![(SECTION.to_string(), data.to_vec())]
        );
        // Annotating again replaces the section instead of adding a second one.
        let twice = annotate(&once, b"{}").unwrap();
        assert_eq!(
            custom_sections(&twice).unwrap(),
            vec![(SECTION.to_string(), b"{}".to_vec())]
        );
        assert_eq!(annotate(&twice, data).unwrap(), once);
        // A section longer than 127 bytes needs a multi-byte length.
        let big = vec![b'x'; 70_000];
        let annotated = annotate(&module, &big).unwrap();
        assert_eq!(custom_sections(&annotated).unwrap()[0].1, big);
    }

    #[test]
    fn bad_modules_are_errors_not_panics() {
        let module = wapc_module();
        assert!(annotate(b"not wasm", b"{}").is_err());
        for cut in 9..module.len() {
            let _ = annotate(&module[..cut], b"{}");
            let _ = custom_sections(&module[..cut]);
        }
        // Without the waPC exports it is not a policy kwctl would call waPC.
        let mut no_exports = MAGIC.to_vec();
        no_exports.extend_from_slice(&[1, 4, 1, 0x60, 0, 0]);
        assert!(
            annotate(&no_exports, b"{}")
                .unwrap_err()
                .contains("wapc_init")
        );
    }

    #[test]
    fn metadata_json_has_kwctls_shape() {
        let yml = "\
rules:
  - apiGroups: [\"\"]
    apiVersions: [v1]
    resources: [pods]
    operations: [CREATE]
mutating: false
contextAwareResources:
  - {apiVersion: v1, kind: Node}
  - {apiVersion: apps/v1, kind: Deployment}
annotations:
  io.kubewarden.policy.title: t
  a.first: x
minimumKubewardenVersion: 1.33.0
";
        let json = metadata_json(yml, "# Usage\n").unwrap();
        let text = String::from_utf8(json.clone()).unwrap();
        // Field order of policy-evaluator's Metadata; sets and maps sorted.
        let keys = [
            "protocolVersion",
            "rules",
            "annotations",
            "mutating",
            "backgroundAudit",
            "executionMode",
            "policyType",
            "contextAwareResources",
            "minimumKubewardenVersion",
        ];
        let positions: Vec<usize> = keys
            .iter()
            .map(|k| text.find(&format!("\"{k}\"")).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
        let v: Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(
            v,
            json!({
                "protocolVersion": "v1",
                "rules": [{"apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"], "operations": ["CREATE"]}],
                "annotations": {"a.first": "x", "io.kubewarden.policy.title": "t", "io.kubewarden.policy.usage": "# Usage\n"},
                "mutating": false,
                "backgroundAudit": true,
                "executionMode": "kubewarden-wapc",
                "policyType": "kubernetes",
                "contextAwareResources": [{"apiVersion": "apps/v1", "kind": "Deployment"}, {"apiVersion": "v1", "kind": "Node"}],
                "minimumKubewardenVersion": "1.33.0"
            })
        );
        assert!(!text.contains("hostCapabilities"));
    }

    #[test]
    fn invalid_metadata_is_rejected() {
        let rule = "rules:\n  - {apiGroups: [\"\"], apiVersions: [v1], resources: [pods], operations: [OPS]}\nmutating: false\n";
        assert!(metadata_json(&rule.replace("OPS", "CREATE"), "").is_ok());
        assert!(metadata_json(&rule.replace("OPS", "PATCH"), "").is_err());
        assert!(metadata_json(&rule.replace("OPS", "\"*\", CREATE"), "").is_err());
        assert!(metadata_json(&rule.replace("[OPS]", "[]"), "").is_err());
        assert!(metadata_json("mutating: false\n", "").is_err());
        assert!(metadata_json(&format!("{rule}executionMode: opa\n"), "").is_err());
        assert!(
            metadata_json(
                &format!(
                    "{}minimumKubewardenVersion: 1.x\n",
                    rule.replace("OPS", "CREATE")
                ),
                ""
            )
            .is_err()
        );
    }
}
