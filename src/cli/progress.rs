//! Progress bars on standard error: only when standard error is a terminal, only once the work
//! has taken more than a second, and as wide as the terminal (`{wide_bar}`: no wrapping at 80
//! columns). [`DelayedBar`] is one bar (the simulator's games); [`install`] listens to the
//! library's stages ([`ladders::progress`]: lifting steps, race sweeps, distribution turns).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ladders::progress::{listen, Listener, Listening};

/// How long work runs before its bar appears: a second, or `LADDERS_PROGRESS_DELAY` seconds
/// (the tests set 0 to see a bar on quick work).
fn delay() -> Duration {
    std::env::var("LADDERS_PROGRESS_DELAY")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map_or(Duration::from_secs(1), Duration::from_secs_f64)
}

/// A bar hidden until the work has run for [`delay`], and then only on a terminal.
pub struct DelayedBar {
    bar: ProgressBar,
    start: Instant,
    delay: Duration,
    terminal: bool,
    shown: AtomicBool,
}

impl DelayedBar {
    /// A bar of `total` units (`None`: a spinner with a count); `message` before it, `unit`
    /// after the count.
    pub fn new(total: Option<u64>, message: &str, unit: &str) -> DelayedBar {
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        let template = match total {
            Some(_) => format!(
                "{{msg}} {{wide_bar}} {{percent:>3}}% {{human_pos}}/{{human_len}} {unit}, \
                 {{eta}} left"
            ),
            None => format!("{{spinner}} {{msg}}: {{human_pos}} {unit}, {{elapsed}}"),
        };
        // The templates above are fixed text: they parse.
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style);
        }
        bar.set_message(message.to_string());
        DelayedBar {
            bar,
            start: Instant::now(),
            delay: delay(),
            terminal: std::io::stderr().is_terminal(),
            shown: AtomicBool::new(false),
        }
    }

    /// `done` units are finished.
    pub fn set_position(&self, done: u64) {
        if self.terminal
            && !self.shown.load(Ordering::Relaxed)
            && self.start.elapsed() >= self.delay
        {
            self.shown.store(true, Ordering::Relaxed);
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        self.bar.set_position(done);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The library's stages, each shown as a [`DelayedBar`].
struct Stages(Mutex<Option<DelayedBar>>);

impl Listener for Stages {
    fn begin(&self, what: &str, total: Option<u64>) {
        let unit = if total.is_some() { "steps" } else { "done" };
        let bar = DelayedBar::new(total, what, unit);
        if let Some(old) = self
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .replace(bar)
        {
            old.finish();
        }
    }

    fn advance(&self, done: u64) {
        if let Some(bar) = &*self.0.lock().unwrap_or_else(|e| e.into_inner()) {
            bar.set_position(done);
        }
    }

    fn end(&self) {
        if let Some(bar) = self.0.lock().unwrap_or_else(|e| e.into_inner()).take() {
            bar.finish();
        }
    }
}

/// Shows the library's long stages on standard error when it is a terminal (nothing is
/// installed otherwise); the bars stop when the returned guard is dropped.
pub fn install() -> Option<Listening> {
    std::io::stderr()
        .is_terminal()
        .then(|| listen(Arc::new(Stages(Mutex::new(None)))))
}
