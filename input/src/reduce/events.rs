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
        for key in ["message", "note"] {
            if let Some(e) = v.get(key)
                && let Kind::Str(s) = &e.value.kind
            {
                let p = join(path, key);
                self.event_text(s, e.value.pos, &p);
            }
        }
    }
}
