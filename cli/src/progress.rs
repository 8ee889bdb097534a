//! A progress bar on standard error while a large input is read, parsed and turned into
//! the scenario (`indicatif`).
//!
//! It is drawn only when standard error is a terminal (not `TERM=dumb`), `--quiet` is
//! not given and the input is over [`SHOW_ABOVE_BYTES`]: a small input is answered
//! before a bar could be read, and a pipe or a CI log never gets one. It is coloured
//! only when stderr may be (`--color`, `NO_COLOR`). It is cleared before anything else
//! is printed, so it never mixes with the output or the diagnostics.
//!
//! The phases: reading (a bar over the bytes of the files, whose sizes are known up
//! front; a byte count for a pipe), parsing, building the scenario (admission,
//! scheduling, eviction) and, for `-o json|yaml`, computing the JSON. The input layer and
//! the scenario have no progress hooks, so those phases are a spinner with the elapsed
//! time.

use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Inputs above this many bytes get a bar. The input layer reads about 25 MB/s of a
/// kubectl transcript (README: 10 MB in 0.41 s), so below this the answer comes within
/// about a sixth of a second, before a bar could be read.
pub const SHOW_ABOVE_BYTES: u64 = 4_000_000;

/// How often a drawn bar is redrawn while a phase without progress runs.
const TICK: Duration = Duration::from_millis(100);

/// What decides whether a bar is drawn, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Standard error is a terminal.
    pub terminal: bool,
    /// `TERM=dumb`: a terminal that cannot redraw a line.
    pub dumb: bool,
    /// `--quiet`.
    pub quiet: bool,
    /// Colour is allowed on stderr (`--color`, `NO_COLOR`).
    pub color: bool,
}

impl Settings {
    /// The settings of this process: its stderr, `TERM`, and the flags.
    pub fn detect(quiet: bool, color: Option<crate::Color>) -> Self {
        use std::io::IsTerminal;
        Self {
            terminal: std::io::stderr().is_terminal(),
            dumb: std::env::var_os("TERM").is_some_and(|t| t == "dumb"),
            quiet,
            color: crate::out::Style::stderr(color).is_on(),
        }
    }

    /// Whether an input of `bytes` gets a bar.
    pub fn shows(&self, bytes: u64) -> bool {
        self.terminal && !self.dumb && !self.quiet && bytes > SHOW_ABOVE_BYTES
    }
}

/// Where a bar is drawn: stderr, or (in tests) an in-memory terminal.
type MakeTarget = Box<dyn Fn() -> ProgressDrawTarget + Send>;

/// The bar of one run: how much was read, and the bar once the input is large enough.
pub struct Progress {
    settings: Settings,
    /// Bytes read so far, over every input.
    read: u64,
    /// Bytes announced by the reads under way (file sizes), beyond `read`.
    expected: u64,
    bar: Option<ProgressBar>,
    make_target: MakeTarget,
}

fn style(template: &str) -> ProgressStyle {
    // The templates are constants of this file; a typo is a bug caught by the tests.
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
        .progress_chars("█▉▊▋▌▍▎▏ ")
}

impl Progress {
    /// A run drawing on stderr.
    pub fn new(settings: Settings) -> Self {
        Self::with_target(settings, Box::new(ProgressDrawTarget::stderr))
    }

    /// A run drawing where `make_target` says.
    pub fn with_target(settings: Settings, make_target: MakeTarget) -> Self {
        Self {
            settings,
            read: 0,
            expected: 0,
            bar: None,
            make_target,
        }
    }

    /// Whether a bar is drawn now.
    #[cfg(test)]
    pub fn is_drawn(&self) -> bool {
        self.bar.is_some()
    }

    fn bar(&mut self) -> Option<&ProgressBar> {
        if self.bar.is_none() && self.settings.shows(self.read + self.expected) {
            let bar = ProgressBar::with_draw_target(None, (self.make_target)());
            bar.enable_steady_tick(TICK);
            self.bar = Some(bar);
        }
        self.bar.as_ref()
    }

    fn reading_style(&self, known: bool) -> ProgressStyle {
        style(match (known, self.settings.color) {
            (true, true) => {
                "taintlab: reading  {bar:30.cyan/blue} {decimal_bytes}/{decimal_total_bytes}"
            }
            (true, false) => "taintlab: reading  {bar:30} {decimal_bytes}/{decimal_total_bytes}",
            (false, true) => "taintlab: reading  {spinner:.cyan} {decimal_bytes}",
            (false, false) => "taintlab: reading  {spinner} {decimal_bytes}",
        })
    }

    /// Reads of `bytes` more (the sizes of the files about to be read; 0 for a pipe)
    /// start.
    pub fn start_reading(&mut self, bytes: u64) {
        self.expected += bytes;
        let (read, expected) = (self.read, self.expected);
        let known = expected > 0;
        let style = self.reading_style(known);
        if let Some(bar) = self.bar() {
            bar.set_style(style);
            if known {
                bar.set_length(read + expected);
            } else {
                bar.unset_length();
            }
            bar.set_position(read);
        }
    }

    /// `n` bytes were read.
    pub fn read(&mut self, n: u64) {
        let was_drawn = self.bar.is_some();
        self.read += n;
        self.expected = self.expected.saturating_sub(n);
        let (read, expected) = (self.read, self.expected);
        if was_drawn {
            if let Some(bar) = &self.bar {
                if bar.length().is_some() {
                    bar.set_length(read + expected);
                }
                bar.set_position(read);
            }
        } else {
            // A pipe past the threshold: a byte count from now on.
            let style = self.reading_style(expected > 0);
            if let Some(bar) = self.bar() {
                bar.set_style(style);
                if expected > 0 {
                    bar.set_length(read + expected);
                }
                bar.set_position(read);
            }
        }
    }

    /// A phase without progress of its own: a spinner, the message and the elapsed
    /// time (only when the input read is large enough).
    pub fn phase(&mut self, message: String) {
        self.expected = 0;
        let template = if self.settings.color {
            "taintlab: {msg} {spinner:.cyan} {elapsed}"
        } else {
            "taintlab: {msg} {spinner} {elapsed}"
        };
        if let Some(bar) = self.bar() {
            // In this order, every redraw in between shows a whole line.
            bar.set_message(message);
            bar.reset_elapsed();
            bar.set_style(style(template));
            bar.unset_length();
        }
    }

    /// The reads are done: parsing what was read.
    pub fn parsing(&mut self) {
        let mb = self.read as f64 / 1e6;
        self.phase(format!("parsing {mb:.1} MB"));
    }

    /// Clears the bar (it may be drawn again by a later phase).
    pub fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// The bar of this process; `None` until [`configure`] (`policy run`, `completion`:
/// never).
static RUN: Mutex<Option<Progress>> = Mutex::new(None);

fn with(f: impl FnOnce(&mut Progress)) {
    // A poisoned lock means a panic elsewhere: drawing nothing is right then.
    if let Ok(mut run) = RUN.lock()
        && let Some(p) = run.as_mut()
    {
        f(p);
    }
}

/// Sets this process's bar up (the commands that read inputs).
pub fn configure(settings: Settings) {
    if let Ok(mut run) = RUN.lock() {
        *run = Some(Progress::new(settings));
    }
}

/// [`Progress::start_reading`] of this process's bar.
pub fn start_reading(bytes: u64) {
    with(|p| p.start_reading(bytes));
}

/// [`Progress::read`] of this process's bar.
pub fn read(n: u64) {
    with(|p| p.read(n));
}

/// [`Progress::parsing`] of this process's bar.
pub fn parsing() {
    with(Progress::parsing);
}

/// [`Progress::phase`] of this process's bar.
pub fn phase(message: &str) {
    with(|p| p.phase(message.to_string()));
}

/// [`Progress::clear`] of this process's bar: before anything else is printed.
pub fn clear() {
    with(Progress::clear);
}

#[cfg(test)]
mod tests {
    use super::*;
    use indicatif::InMemoryTerm;

    const TERMINAL: Settings = Settings {
        terminal: true,
        dumb: false,
        quiet: false,
        color: false,
    };

    #[test]
    fn a_bar_only_for_a_large_input_on_a_terminal_without_quiet() {
        let big = SHOW_ABOVE_BYTES + 1;
        assert!(TERMINAL.shows(big));
        assert!(!TERMINAL.shows(SHOW_ABOVE_BYTES));
        assert!(!TERMINAL.shows(0));
        for off in [
            Settings {
                terminal: false,
                ..TERMINAL
            },
            Settings {
                quiet: true,
                ..TERMINAL
            },
            Settings {
                dumb: true,
                ..TERMINAL
            },
        ] {
            assert!(!off.shows(big), "{off:?}");
        }
        // Colour decides the look, not whether it is drawn.
        assert!(
            Settings {
                color: true,
                ..TERMINAL
            }
            .shows(big)
        );
    }

    fn in_memory(settings: Settings) -> (Progress, InMemoryTerm) {
        let term = InMemoryTerm::new(4, 80);
        let t = term.clone();
        let p = Progress::with_target(
            settings,
            Box::new(move || ProgressDrawTarget::term_like(Box::new(t.clone()))),
        );
        (p, term)
    }

    #[test]
    fn files_over_the_threshold_show_reading_then_the_phases_then_nothing() {
        let (mut p, term) = in_memory(TERMINAL);
        p.start_reading(6_000_000);
        assert!(p.is_drawn());
        p.read(3_000_000);
        p.bar.as_ref().unwrap().force_draw();
        let shown = term.contents();
        assert!(shown.starts_with("taintlab: reading"), "{shown:?}");
        assert!(shown.contains("3.00 MB/6.00 MB"), "{shown:?}");
        p.read(3_000_000);
        p.parsing();
        p.bar.as_ref().unwrap().force_draw();
        let shown = term.contents();
        assert!(shown.starts_with("taintlab: parsing 6.0 MB"), "{shown:?}");
        p.phase("building the scenario".into());
        p.bar.as_ref().unwrap().force_draw();
        assert!(
            term.contents()
                .starts_with("taintlab: building the scenario"),
            "{:?}",
            term.contents()
        );
        p.clear();
        assert!(!p.is_drawn());
        assert_eq!(term.contents().trim(), "");
        // A later phase of the same run draws again (the JSON of a large input).
        p.phase("computing the JSON".into());
        assert!(p.is_drawn());
        p.clear();
        assert_eq!(term.contents().trim(), "");
    }

    #[test]
    fn a_pipe_gets_a_byte_count_once_past_the_threshold() {
        let (mut p, term) = in_memory(TERMINAL);
        p.start_reading(0);
        assert!(!p.is_drawn());
        p.read(SHOW_ABOVE_BYTES);
        assert!(!p.is_drawn());
        p.read(1_000_000);
        assert!(p.is_drawn());
        p.bar.as_ref().unwrap().force_draw();
        let shown = term.contents();
        assert!(shown.starts_with("taintlab: reading"), "{shown:?}");
        assert!(shown.contains("5.00 MB"), "{shown:?}");
        assert!(!shown.contains('/'), "no total for a pipe: {shown:?}");
        p.clear();
    }

    #[test]
    fn small_inputs_quiet_runs_and_pipes_draw_nothing() {
        let (mut p, term) = in_memory(TERMINAL);
        p.start_reading(1_000_000);
        p.read(1_000_000);
        p.parsing();
        p.phase("building the scenario".into());
        assert!(!p.is_drawn());
        assert_eq!(term.contents(), "");
        for settings in [
            Settings {
                quiet: true,
                ..TERMINAL
            },
            Settings {
                terminal: false,
                ..TERMINAL
            },
        ] {
            let (mut p, term) = in_memory(settings);
            p.start_reading(50_000_000);
            p.read(50_000_000);
            p.parsing();
            assert!(!p.is_drawn());
            assert_eq!(term.contents(), "");
        }
    }
}
