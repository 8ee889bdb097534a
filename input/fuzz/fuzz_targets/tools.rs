#![no_main]
//! Errors printed by tools about tolerations and taints (kubectl validation, strict
//! decoding, API server rejections, Terraform schema errors and its error box, Helm) and
//! Terraform/HCL source with toleration and taint blocks. An input whose first byte is
//! below 0x10 has the prefix that byte picks put before the rest; any other input is
//! read as it is.
use libfuzzer_sys::fuzz_target;
mod common;

const HEADS: [&str; 11] = [
    "│ Error: expected spec.0.template.0.spec.0.toleration.0.",
    "Error: expected node_config.0.taint.0.effect to be one of [NO_SCHEDULE PREFER_NO_SCHEDULE NO_EXECUTE], got ",
    "│ Error: Unsupported argument\n│ \n│   on main.tf line 12, in resource \"kubernetes_pod\" \"p\":\n│   12:       ",
    "│ Error: Unsupported block type\n│ \n│   on main.tf line 9, in resource \"kubernetes_node_taint\" \"t\":\n│    9:   ",
    "error: error validating \"pod.yaml\": error validating data: ValidationError(Pod.spec.tolerations[0]): unknown field ",
    "Error from server (BadRequest): error when creating \"p.yaml\": Pod in version \"v1\" cannot be handled as a Pod: ",
    "The Pod \"web\" is invalid: spec.tolerations[0].",
    "resource \"kubernetes_pod\" \"p\" {\n  spec {\n    toleration {\n",
    "resource \"kubernetes_node_taint\" \"t\" {\n  metadata {\n    name = \"n\"\n  }\n  taint {\n",
    "resource \"google_container_node_pool\" \"np\" {\n  node_config {\n    taint {\n",
    "Error: UPGRADE FAILED: error validating \"\": error validating data: ",
];

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let text = match s.as_bytes().first() {
            Some(&b) if (b as usize) < HEADS.len() => format!("{}{}", HEADS[b as usize], &s[1..]),
            _ => s.to_string(),
        };
        let p = taintlab_input::parse_with(&text, &common::opts());
        common::check(&p);
    }
});
