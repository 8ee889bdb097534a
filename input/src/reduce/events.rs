//! FailedScheduling events, as objects (`kind: Event`) or as bare message strings.

use super::*;

impl Reducer<'_> {
    pub(super) fn event_text(&mut self, msg: &str, pos: Pos, path: &str) {
        if !event::looks_like_failed_scheduling(msg) {
            return;
        }
        let loc = self.loc(pos, path);
        let ev = event::parse_message(msg, loc);
        self.out.events.push(ev);
    }

    pub(super) fn event_object(&mut self, v: &Value, path: &str) {
        let before = self.out.events.len();
        // `involvedObject` (core/v1) or `regarding` (events.k8s.io/v1) names the pod.
        let object = ["involvedObject", "regarding"].iter().find_map(|k| {
            let o = &v.get(k)?.value;
            match &o.get("name")?.value.kind {
                Kind::Str(s) => Some(s.clone()),
                _ => None,
            }
        });
        for key in ["message", "note"] {
            if let Some(e) = v.get(key)
                && let Kind::Str(s) = &e.value.kind
            {
                let p = join(path, key);
                self.event_text(s, e.value.pos, &p);
            }
        }
        for ev in &mut self.out.events[before..] {
            if ev.object.is_none() {
                ev.object = object.clone();
            }
        }
    }
}
