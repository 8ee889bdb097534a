#![no_main]
//! Tables: pods (`-o wide`, `-A`, old layouts), nodes (plain, custom columns with Go-map
//! taints), go-template and jsonpath taint lines, priority classes and events. An input
//! whose first byte is below 0x10 has the header that byte picks put before the rest;
//! any other input is read as it is (so corpus pastes are seeds as they stand).
use libfuzzer_sys::fuzz_target;
mod common;

const HEADS: [&str; 12] = [
    "NAME                     READY   STATUS    RESTARTS   AGE   IP            NODE          NOMINATED NODE   READINESS GATES\n",
    "NAMESPACE     NAME                      READY   STATUS    RESTARTS   AGE   IP           NODE      NOMINATED NODE   READINESS GATES\n",
    "NAME      READY     STATUS    RESTARTS   AGE       IP        NODE\n",
    "NAME     STATUS                     ROLES    AGE   VERSION\n",
    "NAME       TAINTS\n",
    "NAME            VALUE        GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY\n",
    "NAME            VALUE        GLOBAL-DEFAULT   AGE\n",
    "LAST SEEN   TYPE      REASON             OBJECT          MESSAGE\n",
    "Events:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n",
    "$ kubectl get nodes -o go-template='{{range .items}}{{.metadata.name}}{{\"\\t\"}}{{.spec.taints}}{{\"\\n\"}}{{end}}'\n",
    "$ kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{\"\\t\"}{.spec.taints}{\"\\n\"}{end}'\n",
    "NAME    STATUS   ROLES           AGE   VERSION   INTERNAL-IP   EXTERNAL-IP   OS-IMAGE   KERNEL-VERSION   CONTAINER-RUNTIME\n",
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
