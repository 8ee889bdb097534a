//! Native cost of one `validate` call on the typical Deployment of the e2e budget test,
//! for comparison with the WebAssembly figure.
use std::time::Instant;

use serde_json::{Value, json};

fn typical_deployment() -> Value {
    json!({
        "uid": "7b9a5f3e-0d7c-4b39-9d0b-3c3d6f3b1a11",
        "kind": {"group": "apps", "version": "v1", "kind": "Deployment"},
        "resource": {"group": "apps", "version": "v1", "resource": "deployments"},
        "requestKind": {"group": "apps", "version": "v1", "kind": "Deployment"},
        "requestResource": {"group": "apps", "version": "v1", "resource": "deployments"},
        "name": "web", "namespace": "team-a", "operation": "CREATE",
        "userInfo": {"username": "system:serviceaccount:argocd:argocd-application-controller",
            "uid": "0b1c", "groups": ["system:serviceaccounts", "system:serviceaccounts:argocd", "system:authenticated"]},
        "object": {
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "team-a", "labels": {"app": "web", "team": "a"},
                "annotations": {"deployment.kubernetes.io/revision": "3"}},
            "spec": {
                "replicas": 3,
                "selector": {"matchLabels": {"app": "web"}},
                "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                "template": {
                    "metadata": {"labels": {"app": "web", "team": "a"}},
                    "spec": {
                        "containers": [{
                            "name": "web", "image": "registry.example.com/web:1.4.2",
                            "ports": [{"containerPort": 8080, "protocol": "TCP"}],
                            "env": [{"name": "MODE", "value": "production"}, {"name": "LOG", "value": "info"}],
                            "resources": {"requests": {"cpu": "250m", "memory": "256Mi"}, "limits": {"memory": "512Mi"}},
                            "readinessProbe": {"httpGet": {"path": "/healthz", "port": 8080}, "periodSeconds": 10}
                        }, {
                            "name": "sidecar", "image": "registry.example.com/proxy:2.0",
                            "resources": {"requests": {"cpu": "50m", "memory": "64Mi"}}
                        }],
                        "tolerations": [
                            {"key": "dedicated", "operator": "Equal", "value": "web", "effect": "NoSchedule"},
                            {"key": "spot", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 600},
                            {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 120}
                        ]
                    }
                }
            }
        },
        "oldObject": null, "dryRun": false,
        "options": {"apiVersion": "meta.k8s.io/v1", "kind": "CreateOptions", "fieldManager": "argocd"}
    })
}

fn typical_settings() -> Value {
    json!({
        "protectedTaints": [{"keyPattern": "node-role.kubernetes.io/*"}, {"key": "dedicated", "value": "gpu"}],
        "exemptNamespaces": ["kube-system"],
        "exemptGroups": ["system:masters"],
        "maxTolerationSeconds": 3600,
        "allowedTolerations": [{"key": "dedicated"}, {"key": "spot", "maxTolerationSeconds": 3600}]
    })
}

fn main() {
    let payload =
        json!({"request": typical_deployment(), "settings": typical_settings()}).to_string();
    let n = 20_000;
    let best = (0..5)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..n {
                std::hint::black_box(taintlab_policy::payload::validate_bytes(
                    payload.as_bytes(),
                    |_| Err(String::new()),
                ));
            }
            t.elapsed().as_secs_f64() * 1e6 / f64::from(n)
        })
        .fold(f64::INFINITY, f64::min);
    println!(
        "validate ({} bytes): {best:.2} µs per call (best of 5 × {n})",
        payload.len()
    );
}
