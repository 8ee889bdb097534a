//! A deterministic generator of realistic `kubectl get nodes -o json|yaml` (and
//! `kubectl get pods -A -o json`) output, for
//! benchmarks, memory measurements and tests: full node objects with annotations,
//! labels, taints, addresses, capacity, conditions, daemon endpoints, images and
//! node info, formatted the way kubectl prints them (sorted keys; 4-space JSON).

use serde_json::{Map, Value, json};
use std::fmt::Write as _;

/// A small deterministic pseudo-random generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn hex(&mut self, len: usize) -> String {
        let mut s = String::with_capacity(len);
        while s.len() < len {
            let _ = write!(s, "{:016x}", self.next());
        }
        s.truncate(len);
        s
    }
}

const TEAMS: [&str; 8] = [
    "payments", "search", "checkout", "identity", "ml", "platform", "data", "edge",
];

/// One node object, as `kubectl get node NAME -o json` prints it (about 15 KB as
/// 4-space JSON).
pub fn node(i: usize) -> Value {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15 ^ (i as u64).wrapping_mul(0x1000_0000_01B3));
    let name = format!(
        "ip-10-{}-{}-{}.eu-west-1.compute.internal",
        i / 65536 % 256,
        i / 256 % 256,
        i % 256
    );
    let zone = ["eu-west-1a", "eu-west-1b", "eu-west-1c"][i % 3];
    let pool = ["general", "gpu", "memory", "spot"][i % 4];
    let mut taints = Vec::new();
    if pool == "gpu" {
        taints.push(json!({"effect": "NoSchedule", "key": "nvidia.com/gpu", "value": "present"}));
    }
    if pool == "spot" {
        taints.push(json!({"effect": "PreferNoSchedule", "key": "lifecycle", "value": "spot"}));
    }
    if i.is_multiple_of(97) {
        taints.push(json!({"effect": "NoSchedule", "key": "node.kubernetes.io/unschedulable", "timeAdded": "2025-06-01T08:00:00Z"}));
    }
    if i.is_multiple_of(211) {
        taints.push(json!({"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "timeAdded": "2025-06-01T08:05:00Z"}));
    }
    let ready = if i.is_multiple_of(211) {
        "Unknown"
    } else {
        "True"
    };
    let ts = |r: &mut Rng| {
        format!(
            "2025-05-{:02}T{:02}:{:02}:{:02}Z",
            1 + r.below(28),
            r.below(24),
            r.below(60),
            r.below(60)
        )
    };
    let condition = |r: &mut Rng, t: &str, status: &str, reason: &str, message: &str| {
        json!({
            "lastHeartbeatTime": ts(r),
            "lastTransitionTime": ts(r),
            "message": message,
            "reason": reason,
            "status": status,
            "type": t,
        })
    };
    let conditions = vec![
        condition(
            &mut r,
            "MemoryPressure",
            "False",
            "KubeletHasSufficientMemory",
            "kubelet has sufficient memory available",
        ),
        condition(
            &mut r,
            "DiskPressure",
            "False",
            "KubeletHasNoDiskPressure",
            "kubelet has no disk pressure",
        ),
        condition(
            &mut r,
            "PIDPressure",
            "False",
            "KubeletHasSufficientPID",
            "kubelet has sufficient PID available",
        ),
        condition(
            &mut r,
            "Ready",
            ready,
            "KubeletReady",
            "kubelet is posting ready status",
        ),
        condition(
            &mut r,
            "NetworkUnavailable",
            "False",
            "RouteCreated",
            "RouteController created a route",
        ),
    ];
    let mut images = Vec::new();
    for k in 0..22 {
        let team = TEAMS[(k + i) % TEAMS.len()];
        let svc = format!("{team}-service-{}", k % 7);
        let digest = r.hex(64);
        images.push(json!({
            "names": [
                format!("123456789012.dkr.ecr.eu-west-1.amazonaws.com/{team}/{svc}@sha256:{digest}"),
                format!("123456789012.dkr.ecr.eu-west-1.amazonaws.com/{team}/{svc}:v1.{}.{}", k % 13, r.below(40)),
            ],
            "sizeBytes": 20_000_000 + r.below(900_000_000),
        }));
    }
    let mut labels = Map::new();
    for (k, v) in [
        ("beta.kubernetes.io/arch", "amd64".to_string()),
        (
            "beta.kubernetes.io/instance-type",
            if pool == "gpu" {
                "g5.2xlarge".into()
            } else {
                "m6i.2xlarge".to_string()
            },
        ),
        ("beta.kubernetes.io/os", "linux".into()),
        (
            "eks.amazonaws.com/capacityType",
            if pool == "spot" {
                "SPOT".into()
            } else {
                "ON_DEMAND".to_string()
            },
        ),
        ("eks.amazonaws.com/nodegroup", format!("{pool}-pool")),
        (
            "failure-domain.beta.kubernetes.io/region",
            "eu-west-1".into(),
        ),
        ("failure-domain.beta.kubernetes.io/zone", zone.into()),
        ("kubernetes.io/arch", "amd64".into()),
        ("kubernetes.io/hostname", name.clone()),
        ("kubernetes.io/os", "linux".into()),
        ("node.kubernetes.io/instance-type", "m6i.2xlarge".into()),
        ("pool", pool.into()),
        ("topology.kubernetes.io/region", "eu-west-1".into()),
        ("topology.kubernetes.io/zone", zone.into()),
    ] {
        labels.insert(k.into(), json!(v));
    }
    let mut spec = Map::new();
    spec.insert(
        "podCIDR".into(),
        json!(format!("10.{}.{}.0/24", 100 + i / 256 % 100, i % 256)),
    );
    spec.insert(
        "podCIDRs".into(),
        json!([format!("10.{}.{}.0/24", 100 + i / 256 % 100, i % 256)]),
    );
    spec.insert(
        "providerID".into(),
        json!(format!("aws:///{zone}/i-0{}", r.hex(16))),
    );
    if !taints.is_empty() {
        spec.insert("taints".into(), Value::Array(taints));
    }
    if i.is_multiple_of(97) {
        spec.insert("unschedulable".into(), json!(true));
    }
    json!({
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "annotations": {
                "alpha.kubernetes.io/provided-node-ip": format!("10.0.{}.{}", i / 256 % 256, i % 256),
                "csi.volume.kubernetes.io/nodeid": format!("{{\"ebs.csi.aws.com\":\"i-0{}\"}}", r.hex(16)),
                "node.alpha.kubernetes.io/ttl": "0",
                "volumes.kubernetes.io/controller-managed-attach-detach": "true"
            },
            "creationTimestamp": ts(&mut r),
            "labels": Value::Object(labels),
            "name": name,
            "resourceVersion": format!("{}", 1_000_000 + r.below(9_000_000)),
            "uid": format!("{}-{}-{}-{}-{}", r.hex(8), r.hex(4), r.hex(4), r.hex(4), r.hex(12)),
        },
        "spec": Value::Object(spec),
        "status": {
            "addresses": [
                {"address": format!("10.0.{}.{}", i / 256 % 256, i % 256), "type": "InternalIP"},
                {"address": name, "type": "InternalDNS"},
                {"address": name, "type": "Hostname"}
            ],
            "allocatable": {"cpu": "7910m", "ephemeral-storage": "95551679124", "hugepages-1Gi": "0", "hugepages-2Mi": "0", "memory": "31482472Ki", "pods": "58"},
            "capacity": {"cpu": "8", "ephemeral-storage": "104845292Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0", "memory": "32332440Ki", "pods": "58"},
            "conditions": conditions,
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "images": images,
            "nodeInfo": {
                "architecture": "amd64",
                "bootID": format!("{}-{}-{}-{}-{}", r.hex(8), r.hex(4), r.hex(4), r.hex(4), r.hex(12)),
                "containerRuntimeVersion": "containerd://1.7.22",
                "kernelVersion": "6.1.112-122.189.amzn2023.x86_64",
                "kubeProxyVersion": "v1.31.2-eks-94953ac",
                "kubeletVersion": "v1.31.2-eks-94953ac",
                "machineID": r.hex(32),
                "operatingSystem": "linux",
                "osImage": "Amazon Linux 2023.6.20241031",
                "systemUUID": format!("ec2{}", r.hex(29))
            }
        }
    })
}

/// `kubectl get nodes -o json` for `count` nodes.
pub fn nodes_list(count: usize) -> Value {
    json!({
        "apiVersion": "v1",
        "items": (0..count).map(node).collect::<Vec<_>>(),
        "kind": "List",
        "metadata": {"resourceVersion": ""}
    })
}

/// One running pod, as `kubectl get pods -A -o json` prints it (about 12.9 KB as 4-space
/// JSON): labels, annotations and an owner reference; one or two containers with
/// environment, ports, probes, resources and mounts; the default not-ready/unreachable
/// tolerations plus a pool toleration on some; `nodeName`; and a status with
/// conditions, container statuses, IPs, phase, QoS class and start time.
pub fn pod(i: usize) -> Value {
    let mut r = Rng(0xD1B5_4A32_D192_ED03 ^ (i as u64).wrapping_mul(0x1000_0000_01B3));
    let team = TEAMS[i % TEAMS.len()];
    let app = format!("{team}-svc-{}", i / 40 % 50);
    let rs = format!("{app}-{}", r.hex(10));
    let name = format!("{rs}-{}", r.hex(5));
    let ns = format!("{team}-prod");
    let node = format!(
        "ip-10-{}-{}-{}.eu-west-1.compute.internal",
        (i / 7) / 65536 % 256,
        (i / 7) / 256 % 256,
        (i / 7) % 256
    );
    let uid = format!(
        "{}-{}-{}-{}-{}",
        r.hex(8),
        r.hex(4),
        r.hex(4),
        r.hex(4),
        r.hex(12)
    );
    let created = format!(
        "2025-06-{:02}T{:02}:{:02}:{:02}Z",
        1 + i % 28,
        i % 24,
        i % 60,
        (i * 7) % 60
    );
    let cpu = ["100m", "250m", "500m", "1", "2"][i % 5];
    let mem = ["128Mi", "256Mi", "512Mi", "1Gi", "2Gi"][i % 5];
    let mut tolerations = vec![
        json!({"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists", "tolerationSeconds": 300}),
        json!({"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists", "tolerationSeconds": 300}),
    ];
    if i.is_multiple_of(4) {
        tolerations.insert(
            0,
            json!({"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Equal", "value": "present"}),
        );
    }
    let container = |cname: &str, image: String, port: u64, r: &mut Rng| {
        json!({
            "env": [
                {"name": "APP_NAME", "value": app},
                {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
                {"name": "POD_NAMESPACE", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}},
                {"name": "LOG_LEVEL", "value": "info"},
                {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://otel-collector.observability.svc:4317"}
            ],
            "image": image,
            "imagePullPolicy": "IfNotPresent",
            "livenessProbe": {
                "failureThreshold": 3,
                "httpGet": {"path": "/healthz", "port": port, "scheme": "HTTP"},
                "initialDelaySeconds": 10,
                "periodSeconds": 10,
                "successThreshold": 1,
                "timeoutSeconds": 1
            },
            "name": cname,
            "ports": [{"containerPort": port, "name": "http", "protocol": "TCP"}],
            "readinessProbe": {
                "failureThreshold": 3,
                "httpGet": {"path": "/ready", "port": port, "scheme": "HTTP"},
                "periodSeconds": 5,
                "successThreshold": 1,
                "timeoutSeconds": 1
            },
            "resources": {
                "limits": {"memory": mem},
                "requests": {"cpu": cpu, "memory": mem}
            },
            "securityContext": {"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true, "runAsNonRoot": true},
            "terminationMessagePath": "/dev/termination-log",
            "terminationMessagePolicy": "File",
            "volumeMounts": [
                {"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "name": format!("kube-api-access-{}", r.hex(5)), "readOnly": true}
            ]
        })
    };
    let mut containers = vec![container(
        "app",
        format!(
            "123456789012.dkr.ecr.eu-west-1.amazonaws.com/{team}/{app}:v1.{}.{}",
            i % 30,
            i % 7
        ),
        8080,
        &mut r,
    )];
    if i.is_multiple_of(3) {
        containers.push(container(
            "envoy",
            "envoyproxy/envoy:v1.31.2".to_string(),
            15000,
            &mut r,
        ));
    }
    let statuses: Vec<Value> = containers
        .iter()
        .map(|c| {
            json!({
                "containerID": format!("containerd://{}", r.hex(64)),
                "image": c["image"],
                "imageID": format!("docker.io/library/image@sha256:{}", r.hex(64)),
                "lastState": {},
                "name": c["name"],
                "ready": true,
                "restartCount": r.below(3),
                "started": true,
                "state": {"running": {"startedAt": created}}
            })
        })
        .collect();
    let cond = |t: &str| json!({"lastProbeTime": null, "lastTransitionTime": created, "status": "True", "type": t});
    let ip = format!("10.{}.{}.{}", 100 + i % 50, i / 256 % 256, i % 256);
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "annotations": {
                "kubectl.kubernetes.io/restartedAt": created,
                "prometheus.io/port": "8080",
                "prometheus.io/scrape": "true"
            },
            "creationTimestamp": created,
            "generateName": format!("{rs}-"),
            "labels": {
                "app.kubernetes.io/name": app,
                "app.kubernetes.io/part-of": team,
                "pod-template-hash": r.hex(10),
                "team": team
            },
            "name": name,
            "namespace": ns,
            "ownerReferences": [{
                "apiVersion": "apps/v1",
                "blockOwnerDeletion": true,
                "controller": true,
                "kind": "ReplicaSet",
                "name": rs,
                "uid": format!("{}-{}-{}-{}-{}", r.hex(8), r.hex(4), r.hex(4), r.hex(4), r.hex(12))
            }],
            "resourceVersion": format!("{}", 10_000_000 + i * 13),
            "uid": uid
        },
        "spec": {
            "containers": containers,
            "dnsPolicy": "ClusterFirst",
            "enableServiceLinks": true,
            "nodeName": node,
            "preemptionPolicy": "PreemptLowerPriority",
            "priority": 0,
            "restartPolicy": "Always",
            "schedulerName": "default-scheduler",
            "securityContext": {"fsGroup": 2000},
            "serviceAccount": app,
            "serviceAccountName": app,
            "terminationGracePeriodSeconds": 30,
            "tolerations": tolerations,
            "volumes": [{
                "name": "kube-api-access",
                "projected": {
                    "defaultMode": 420,
                    "sources": [
                        {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                        {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}},
                        {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}, "path": "namespace"}]}}
                    ]
                }
            }]
        },
        "status": {
            "conditions": [cond("PodReadyToStartContainers"), cond("Initialized"), cond("Ready"), cond("ContainersReady"), cond("PodScheduled")],
            "containerStatuses": statuses,
            "hostIP": format!("10.0.{}.{}", i / 7 / 256 % 256, i / 7 % 256),
            "hostIPs": [{"ip": format!("10.0.{}.{}", i / 7 / 256 % 256, i / 7 % 256)}],
            "phase": "Running",
            "podIP": ip,
            "podIPs": [{"ip": ip}],
            "qosClass": "Burstable",
            "startTime": created
        }
    })
}

/// `kubectl get pods -A -o json` for `count` pods.
pub fn pods_list(count: usize) -> Value {
    json!({
        "apiVersion": "v1",
        "items": (0..count).map(pod).collect::<Vec<_>>(),
        "kind": "List",
        "metadata": {"resourceVersion": ""}
    })
}

/// As kubectl prints JSON: 4-space indentation.
pub fn to_kubectl_json(v: &Value) -> String {
    use serde::Serialize;
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    let _ = v.serialize(&mut ser);
    buf.push(b'\n');
    String::from_utf8(buf).unwrap_or_default()
}

/// As kubectl prints YAML: 2-space indentation, list items at their key's indentation,
/// strings plain unless YAML would read them as something else.
pub fn to_kubectl_yaml(v: &Value) -> String {
    let mut out = String::new();
    yaml(v, 0, &mut out, false);
    out
}

fn plain_ok(s: &str) -> bool {
    !s.is_empty()
        && matches!(crate::yaml11::resolve_plain(s), crate::tree::Kind::Str(_))
        && !s.starts_with(|c: char| " -?:,[]{}#&*!|>'\"%@`".contains(c))
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with([' ', ':'])
        && !s.contains(['\n', '"', '{', '}', '[', ']', ','])
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) if plain_ok(s) => s.clone(),
        Value::String(s) => serde_json::to_string(s).unwrap_or_default(),
        other => other.to_string(),
    }
}

fn yaml(v: &Value, indent: usize, out: &mut String, first_inline: bool) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(m) => {
            for (i, (k, val)) in m.iter().enumerate() {
                if !(first_inline && i == 0) {
                    out.push_str(&pad);
                }
                out.push_str(&scalar(&Value::String(k.clone())));
                out.push(':');
                match val {
                    Value::Object(c) if !c.is_empty() => {
                        out.push('\n');
                        yaml(val, indent + 2, out, false);
                    }
                    Value::Array(a) if !a.is_empty() => {
                        out.push('\n');
                        yaml(val, indent, out, false);
                    }
                    Value::Object(_) => out.push_str(" {}\n"),
                    Value::Array(_) => out.push_str(" []\n"),
                    _ => {
                        out.push(' ');
                        out.push_str(&scalar(val));
                        out.push('\n');
                    }
                }
            }
        }
        Value::Array(a) => {
            for item in a {
                out.push_str(&pad);
                out.push_str("- ");
                match item {
                    Value::Object(c) if !c.is_empty() => yaml(item, indent + 2, out, true),
                    _ => {
                        out.push_str(&scalar(item));
                        out.push('\n');
                    }
                }
            }
        }
        other => {
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
}

/// One block of a terminal transcript as people paste it: a prompt and a `kubectl taint`
/// command with its output, a node table, a describe Events table (a FailedScheduling row
/// wrapped over two lines and a later Scheduled row), a klog scheduler line, prose, a pods
/// table, a PriorityClass table, Terraform's error box about a toleration argument and
/// the toleration block it points at.
pub const TRANSCRIPT_BLOCK: &str = "\
[root@cp-1 ~]# kubectl taint nodes worker-1 dedicated=gpu:NoSchedule
node/worker-1 tainted
~ ❯ k get nodes
NAME       STATUS                     ROLES    AGE   VERSION
worker-1   Ready,SchedulingDisabled   <none>   3d    v1.30.1
worker-2   Ready                      <none>   3d    v1.30.1

Events:
  Type     Reason            Age               From               Message
  ----     ------            ----              ----               -------
  Warning  FailedScheduling  3m (x4 over 10m)  default-scheduler  0/3 nodes are available: 1 node(s) were unschedulable,
   2 node(s) had untolerated taint(s). preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
  Normal   Scheduled         20s               default-scheduler  Successfully assigned default/web-0 to worker-2

E0115 08:00:00.000000       1 schedule_one.go:1004] \"Unable to schedule pod\" pod=\"default/web-1\" err=\"0/3 nodes are available: 3 node(s) had untolerated taint(s).\"
The pod is still pending after I removed the taint, any idea what else to look at?

$ kubectl get pods -o wide
NAME    READY   STATUS    RESTARTS   AGE   IP          NODE       NOMINATED NODE   READINESS GATES
web-0   1/1     Running   0          20s   10.0.2.14   worker-2   <none>           <none>
web-1   0/1     Pending   0          10m   <none>      <none>     <none>           <none>
$ kubectl get priorityclass
NAME          VALUE   GLOBAL-DEFAULT   AGE
batch-low     1000    false            12d
$ terraform apply
╷
│ Error: Unsupported argument
│ 
│   on web.tf line 31, in resource \"kubernetes_stateful_set\" \"web\":
│   31:           tolerations_seconds = 300
│ 
│ An argument named \"tolerations_seconds\" is not expected here. Did you mean \"toleration_seconds\"?
╵
        toleration {
          key                = \"dedicated\"
          operator           = \"Equal\"
          value              = \"gpu\"
          effect             = \"NoExecute\"
          toleration_seconds = 300
        }

";

/// A transcript of at least `bytes` bytes made of [`TRANSCRIPT_BLOCK`] repeated, and the
/// number of blocks in it.
pub fn transcript(bytes: usize) -> (String, usize) {
    let blocks = bytes.div_ceil(TRANSCRIPT_BLOCK.len()).max(1);
    (TRANSCRIPT_BLOCK.repeat(blocks), blocks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn realistic_size_and_same_result_in_both_formats() {
        let one = to_kubectl_json(&node(1));
        assert!((11_000..15_000).contains(&one.len()), "{}", one.len());
        let list = nodes_list(20);
        let j = crate::parse(&to_kubectl_json(&list));
        let y = crate::parse(&to_kubectl_yaml(&list));
        assert_eq!(j.diagnostics, vec![]);
        assert_eq!(y.diagnostics, vec![]);
        assert_eq!(j.nodes.len(), 20);
        let jn: Vec<_> = j.nodes.iter().map(|n| &n.node).collect();
        let yn: Vec<_> = y.nodes.iter().map(|n| &n.node).collect();
        assert_eq!(jn, yn);
        assert_eq!(
            j.nodes[0].kubelet_version.as_deref(),
            Some("v1.31.2-eks-94953ac")
        );
        assert_eq!(j.nodes[1].node.taints[0].key, "nvidia.com/gpu");
    }
}
