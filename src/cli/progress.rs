//! Progress bars on standard error: only when standard error is a terminal, only once the work
//! has taken more than a second (or, once the command has run a second, a quarter of one), and
//! as wide as the terminal (`{wide_bar}`: no wrapping at 80
//! columns). [`DelayedBar`] is one bar (the simulator's games); [`install`] listens to the
//! library's stages ([`ladders::progress`]: the elimination order, factorisations and lifting
//! steps of the exact solves, race sweeps, series and steps, distribution turns, the per-square
//! and per-jump solves), each stage its own line, nested stages below the stage they run in.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
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

/// When [`install`] was called: the command's start.
static STARTED: OnceLock<Instant> = OnceLock::new();

/// A bar hidden until the work has run for [`delay`], and then only on a terminal.
pub struct DelayedBar {
    bar: ProgressBar,
    start: Instant,
    delay: Duration,
    terminal: bool,
    shown: AtomicBool,
    /// The most units reported finished so far: threads report out of order, and the count
    /// shown never goes back.
    done: AtomicU64,
    /// The lines it shares with other bars, if any (nested stages).
    multi: Option<MultiProgress>,
}

impl DelayedBar {
    /// A bar of `total` units (`None`: a spinner with a count); `message` before it, `unit`
    /// after the count.
    pub fn new(total: Option<u64>, message: &str, unit: &str) -> DelayedBar {
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        let columns = console::Term::stderr().size().1;
        let template = template(total, message, unit, usize::from(columns));
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
            done: AtomicU64::new(0),
            multi: None,
        }
    }

    /// The same bar, drawn among `multi`'s lines once shown.
    fn among(mut self, multi: &MultiProgress) -> DelayedBar {
        self.multi = Some(multi.clone());
        self
    }

    /// `done` units are finished.
    pub fn set_position(&self, done: u64) {
        self.reveal_if_due();
        let before = self.done.fetch_max(done, Ordering::Relaxed);
        self.bar.set_position(before.max(done));
    }

    /// Shows the bar once the work has run for [`delay`] (on a terminal), drawn at once (the
    /// drawing is otherwise rate-limited, which could skip a short stage altogether); redraws
    /// it when shown (its spinner and elapsed time move on though no unit was finished).
    fn reveal_if_due(&self) {
        if self.terminal && !self.shown.load(Ordering::Relaxed) && self.due() {
            self.shown.store(true, Ordering::Relaxed);
            match &self.multi {
                Some(multi) => drop(multi.add(self.bar.clone())),
                None => self.bar.set_draw_target(ProgressDrawTarget::stderr()),
            }
            self.bar.force_draw();
            return;
        }
        if self.shown.load(Ordering::Relaxed) {
            self.bar.tick();
        }
    }

    /// Whether the bar is due: its work has run for [`delay`], or the command has and this
    /// work for a quarter of it (a command whose stages each last just under a second would
    /// otherwise show nothing for seconds: a 10,000-square board's turn chain, then its decay
    /// rate).
    fn due(&self) -> bool {
        let own = self.start.elapsed();
        own >= self.delay
            || STARTED
                .get()
                .is_some_and(|t| t.elapsed() >= self.delay && own >= self.delay / 4)
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
        if let Some(multi) = &self.multi {
            multi.remove(&self.bar);
        }
    }
}

/// The longest a duration (`{eta}`, `{elapsed}`) is written: "59 minutes".
const DURATION_CHARS: usize = 10;

/// The bar's template: the fullest of these whose line, at its longest, fits within `columns`
/// (a line one character too long wraps, and a bar whose lines need more rows than the
/// terminal has is not drawn at all: a 10-column terminal showed nothing for hours).
fn template(total: Option<u64>, message: &str, unit: &str, columns: usize) -> String {
    let message = message.chars().count();
    let unit_chars = unit.chars().count();
    // The full line's fixed parts at their longest, and room for a bar of at least 3.
    let choices: Vec<(usize, String)> = match total {
        Some(total) => {
            let count = ladders::report::thousands(total).len();
            vec![
                (
                    message + 2 * count + unit_chars + 26 + 3,
                    format!(
                        "{{msg}} {{wide_bar}} {{percent:>3}}% {{human_pos}}/{{human_len}} \
                         {unit}, {{eta}} left"
                    ),
                ),
                (
                    message + 6 + DURATION_CHARS + 5,
                    "{msg} {percent:>3}% {eta} left".to_string(),
                ),
                (message + 5, "{msg} {percent:>3}%".to_string()),
                (4, "{percent:>3}%".to_string()),
            ]
        }
        None => vec![
            (
                2 + message + 2 + 26 + 1 + unit_chars + 2 + DURATION_CHARS,
                format!("{{spinner}} {{msg}}: {{human_pos}} {unit}, {{elapsed}}"),
            ),
            (
                2 + message + 1 + DURATION_CHARS,
                "{spinner} {msg} {elapsed}".to_string(),
            ),
            (2 + message, "{spinner} {msg}".to_string()),
            (1, "{spinner}".to_string()),
        ],
    };
    let last = choices.len() - 1;
    choices
        .into_iter()
        .enumerate()
        .find(|(i, (chars, _))| *chars < columns || *i == last)
        .map(|(_, (_, t))| t)
        .expect("a last choice")
}

/// The library's stages by id, each shown as a [`DelayedBar`] on its own line.
struct Stages {
    multi: MultiProgress,
    bars: Mutex<Vec<(u64, DelayedBar)>>,
}

impl Stages {
    fn bars(&self) -> std::sync::MutexGuard<'_, Vec<(u64, DelayedBar)>> {
        self.bars.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Listener for Stages {
    fn begin(&self, id: u64, what: &str, total: Option<u64>) {
        let unit = match total {
            _ if what == ladders::SIMULATING => "games",
            Some(_) => "steps",
            None => "done",
        };
        let bar = DelayedBar::new(total, what, unit).among(&self.multi);
        self.bars().push((id, bar));
    }

    fn advance(&self, id: u64, done: u64) {
        if let Some((_, bar)) = self.bars().iter().find(|(i, _)| *i == id) {
            bar.set_position(done);
        }
    }

    fn end(&self, id: u64) {
        let mut bars = self.bars();
        if let Some(at) = bars.iter().position(|(i, _)| *i == id) {
            bars.remove(at).1.finish();
        }
    }
}

/// Shows the library's long stages on standard error when it is a terminal (nothing is
/// installed otherwise); the bars stop when the returned guard is dropped.
///
/// A stage whose work reports no unit for a while (one long solve, a reconstruction) is still
/// shown after [`delay`]: a thread looks at the open stages every quarter of a second, shows
/// those that are due and redraws the shown ones, until the listener is removed.
pub fn install() -> Option<Listening> {
    STARTED.get_or_init(Instant::now);
    std::io::stderr().is_terminal().then(|| {
        let stages = Arc::new(Stages {
            multi: MultiProgress::with_draw_target(ProgressDrawTarget::stderr()),
            bars: Mutex::new(Vec::new()),
        });
        let watched = Arc::downgrade(&stages);
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(250));
            let Some(stages) = watched.upgrade() else {
                break;
            };
            for (_, bar) in stages.bars().iter() {
                bar.reveal_if_due();
            }
        });
        listen(stages)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_never_goes_back_when_threads_report_out_of_order() {
        let bar = DelayedBar::new(Some(100), "simulating", "games");
        bar.set_position(50);
        bar.set_position(30);
        assert_eq!(bar.bar.position(), 50);
        bar.set_position(70);
        assert_eq!(bar.bar.position(), 70);
    }

    #[test]
    fn the_line_fits_the_terminal_however_narrow() {
        // 80 columns hold the whole line for a million games ("simulating" 10, a bar of 10 or
        // more, "100% 1,000,000/1,000,000 games, 59 minutes left").
        let full = template(Some(1_000_000), "simulating", "games", 80);
        assert!(full.contains("{wide_bar}"), "{full}");
        // 10 columns (the 10 x 5 terminal): the percentage alone, 4 characters.
        assert_eq!(
            template(Some(1_000_000_000_000), "simulating", "games", 10),
            "{percent:>3}%"
        );
        assert_eq!(
            template(Some(1_000_000), "simulating", "games", 40),
            "{msg} {percent:>3}% {eta} left"
        );
        assert_eq!(
            template(Some(1_000_000), "simulating", "games", 20),
            "{msg} {percent:>3}%"
        );
        assert_eq!(
            template(None, "building the turn chain", "done", 10),
            "{spinner}"
        );
    }
}
