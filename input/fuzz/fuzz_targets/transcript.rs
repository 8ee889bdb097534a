#![no_main]
//! Terminal transcripts: prompts of every style before kubectl taint and label commands,
//! kubectl's output lines, Ansible results and commands in prose, then the commands
//! applied to a few nodes. An input whose first byte is below 0x10 has the prompt that
//! byte picks put before the rest; any other input is read as it is.
use libfuzzer_sys::fuzz_target;
mod common;

const HEADS: [&str; 12] = [
    "$ kubectl taint nodes ",
    "~ ❯ k taint node ",
    "[root@master ~]# kubectl label nodes ",
    "user@host ~ % kubectl label node ",
    "PS C:\\Users\\me> kubectl taint nodes ",
    "(main) $ KUBECONFIG=/tmp/k kubectl --context x taint node ",
    "+ kubectl taint node ",
    "$ kubectl taint nodes a k=v:NoSchedule\nnode/a tainted\n",
    "$ kubectl label nodes a disk=ssd\nnode/a labeled\n",
    "fatal: [m]: FAILED! => {\"changed\": true, \"cmd\": [\"kubectl\", \"taint\", ",
    "Run `kubectl taint nodes ",
    "$ kubectl describe node a\nName: a\nTaints: ",
];

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let text = match s.as_bytes().first() {
            Some(&b) if (b as usize) < HEADS.len() => format!("{}{}", HEADS[b as usize], &s[1..]),
            _ => s.to_string(),
        };
        let p = taintlab_input::parse_with(&text, &common::opts());
        common::check(&p);
        let nodes = vec![
            taintlab_core::Node {
                name: "a".into(),
                ..Default::default()
            },
            taintlab_core::Node {
                name: "b".into(),
                ..Default::default()
            },
        ];
        for cmd in &p.taint_commands {
            let _ = cmd.command();
            let _ = cmd.label_command();
            let run = cmd.apply(&nodes);
            if let Some(e) = &run.command_error {
                let _ = cmd.error_stderr(e);
            }
        }
    }
});
