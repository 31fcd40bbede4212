//! Progress of long work, told to whoever listens. The library never prints: long computations
//! open a [`Stage`] and advance it, and the caller who wants to hear them passes a [`Listener`]
//! for its work: the façade's `Game::with_progress`, or [`listening`] around any work (the
//! binary's bars, around the command it runs). There is no process-wide listener. With no
//! listener a stage costs one check of an `Option`.
//!
//! The listener is the work's, kept for the calling thread, so no callback is threaded through
//! every signature down to the solvers (a lifting step, a sweep of a race, a turn of a
//! distribution); work that runs pieces on other threads carries it there ([`carried`]), so
//! their stages are heard too.
//!
//! A listener of `cancellable` work may also stop it: when [`Listener::cancelled`] says so
//! after an `advance`, the stage unwinds the work with [`std::panic::resume_unwind`] (no panic
//! message: the panic hook does not run) and `cancellable` catches it and returns
//! [`Cancelled`]. Unwinding rather than a `Result` through every solver keeps the stop in this
//! one file; it is sound because the work is dropped whole (the library holds no lock and no
//! global state across a stage), rayon carries the unwind from a worker back to the thread that
//! waits on it, and `std::thread::scope` resumes the unwind of its own closure. Where panics
//! abort (wasm built with `panic = "abort"`) nothing can be caught, so there a listener's
//! `cancelled` is never asked and the work runs to its end.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Rows (or pivots) of a factorisation or an ordering between two reports of progress: a report
/// is a lock when someone listens, a row a few multiplications.
pub(crate) const ROWS_PER_REPORT: usize = 1024;

/// Hears the stages of long work. Stages nest (the factorisation inside a solve inside
/// `sensitivity`'s loop over jumps) and may run on several threads at once, so each carries an
/// id, unique for the process, that its `advance` and `end` repeat.
pub trait Listener: Send + Sync {
    /// Stage `id` begins: what it does, in a few words that fit a narrow terminal beside the
    /// count (`"lifting the exact solution"`, at most 26 characters), and its units of work
    /// when known (`None`: a count with no end known in advance).
    fn begin(&self, id: u64, what: &str, total: Option<u64>);
    /// `done` units of stage `id` are finished.
    fn advance(&self, id: u64, done: u64);
    /// Stage `id` ended.
    fn end(&self, id: u64);
    /// Whether the work should stop now: asked after each `advance` of a stage begun inside
    /// `cancellable` work (from whichever thread advances it), which then ends with
    /// [`Cancelled`]. Never asked for other work. By default, never.
    fn cancelled(&self) -> bool {
        false
    }
}

/// Work stopped because its listener asked ([`Listener::cancelled`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;

static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// The listener of scoped work, and whether the work catches a stop (see `cancellable`).
#[derive(Clone)]
struct Scope {
    listener: Arc<dyn Listener>,
    catches: bool,
}

thread_local! {
    /// The listener of the work running on this thread.
    static SCOPED: RefCell<Option<Scope>> = const { RefCell::new(None) };
}

/// Runs `work` with `listener` hearing its stages (those begun on this thread, and on the
/// threads the work carries its listener to); the thread's previous listener comes back
/// afterwards, even if `work` panics. The listener cannot stop the work (see `cancellable`).
pub fn listening<T>(listener: Arc<dyn Listener>, work: impl FnOnce() -> T) -> T {
    within(
        Scope {
            listener,
            catches: false,
        },
        work,
    )
}

/// The listener of the work running on this thread, to carry to a thread that runs a piece of
/// it ([`Carried::run`]): a parallel loop takes it before it splits, a caller before it hands
/// the work to a thread pool (`pool.install(|| carried.run(work))`).
pub fn carried() -> Carried {
    Carried(SCOPED.with(|s| s.borrow().clone()))
}

/// A piece of work's listener, carried to another thread.
#[derive(Clone)]
pub struct Carried(Option<Scope>);

impl Carried {
    /// Runs `work` on this thread with the carried listener hearing its stages.
    pub fn run<T>(&self, work: impl FnOnce() -> T) -> T {
        match &self.0 {
            Some(scope) => within(scope.clone(), work),
            None => work(),
        }
    }
}

/// Runs `work` with `listener` hearing its stages (as [`listening`]), which may stop the work
/// ([`Listener::cancelled`]): then it ends with
/// `Err(Cancelled)` at the next `advance` of a stage begun inside it. A panic of the work that
/// is not a stop goes on unwinding.
///
/// # Errors
///
/// [`Cancelled`] when the listener stopped the work.
pub(crate) fn cancellable<T>(
    listener: Arc<dyn Listener>,
    work: impl FnOnce() -> T,
) -> Result<T, Cancelled> {
    let scope = Scope {
        listener,
        catches: cfg!(panic = "unwind"),
    };
    // Unwind safety: on a stop everything `work` built is dropped, and what it borrowed it only
    // read (the library's work holds no lock and writes no shared state; see the module doc).
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| within(scope, work))) {
        Ok(answer) => Ok(answer),
        Err(payload) if payload.is::<Cancelled>() => Err(Cancelled),
        Err(payload) => std::panic::resume_unwind(payload),
    }
}

fn within<T>(scope: Scope, work: impl FnOnce() -> T) -> T {
    struct Restore(Option<Scope>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            SCOPED.with(|s| *s.borrow_mut() = previous);
        }
    }
    let _restore = Restore(SCOPED.with(|s| s.replace(Some(scope))));
    work()
}

/// One stage of long work; it ends when dropped.
pub struct Stage {
    listener: Option<Arc<dyn Listener>>,
    id: u64,
    /// Begun inside `cancellable` work: its listener may stop it.
    catches: bool,
}

impl Stage {
    /// Begins a stage (see [`Listener::begin`]).
    pub fn begin(what: &str, total: Option<u64>) -> Stage {
        let (listener, catches) = match SCOPED.with(|s| s.borrow().clone()) {
            Some(scope) => (Some(scope.listener), scope.catches),
            None => (None, false),
        };
        let id = match &listener {
            Some(l) => {
                let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
                l.begin(id, what, total);
                id
            }
            None => 0,
        };
        Stage {
            listener,
            id,
            catches,
        }
    }

    /// `done` units are finished. Inside `cancellable` work whose listener asks to stop, this
    /// unwinds instead of returning; a stage advanced on another thread must be joined through
    /// rayon or `std::thread::scope`, which carry the unwind back (not through a `join` whose
    /// error is unwrapped).
    pub fn advance(&self, done: u64) {
        if let Some(l) = &self.listener {
            l.advance(self.id, done);
            self.checkpoint();
        }
    }

    /// Stops here, as [`Stage::advance`] does, when the listener of `cancellable` work asks
    /// to, with nothing to report. For pieces of work run in parallel: rayon runs every piece
    /// already split off even after one has stopped, so each piece checks before it starts.
    pub fn checkpoint(&self) {
        if let Some(l) = self.listener.as_ref().filter(|_| self.catches) {
            if l.cancelled() && !std::thread::panicking() {
                std::panic::resume_unwind(Box::new(Cancelled));
            }
        }
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        if let Some(l) = &self.listener {
            l.end(self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Records what it hears.
    #[derive(Default)]
    struct Record(Mutex<Vec<String>>);

    impl Listener for Record {
        fn begin(&self, id: u64, what: &str, total: Option<u64>) {
            self.0
                .lock()
                .unwrap()
                .push(format!("{id} begin {what} {total:?}"));
        }
        fn advance(&self, id: u64, done: u64) {
            self.0.lock().unwrap().push(format!("{id} advance {done}"));
        }
        fn end(&self, id: u64) {
            self.0.lock().unwrap().push(format!("{id} end"));
        }
    }

    #[test]
    fn a_listener_hears_nested_stages_by_their_ids_and_nothing_after_it_is_removed() {
        let record = Arc::new(Record::default());
        listening(record.clone(), || {
            let outer = Stage::begin("outer", Some(2));
            {
                let inner = Stage::begin("inner", None);
                inner.advance(7);
            }
            outer.advance(2);
        });
        // After the work: a later stage is silent.
        Stage::begin("unheard", None).advance(1);
        let heard = record.0.lock().unwrap().clone();
        let id_of = |what: &str| {
            let line = heard.iter().find(|h| h.contains(what)).expect(what);
            line.split(' ').next().unwrap().to_string()
        };
        let (outer, inner) = (id_of("begin outer Some(2)"), id_of("begin inner None"));
        assert_ne!(outer, inner);
        let at = |line: String| heard.iter().position(|h| *h == line).expect(&line);
        // In order: the inner stage begins, advances and ends inside the outer one, which
        // advances after it.
        let order = [
            at(format!("{outer} begin outer Some(2)")),
            at(format!("{inner} begin inner None")),
            at(format!("{inner} advance 7")),
            at(format!("{inner} end")),
            at(format!("{outer} advance 2")),
            at(format!("{outer} end")),
        ];
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{heard:?}");
        assert!(!heard.iter().any(|h| h.contains("unheard")), "{heard:?}");
    }

    #[test]
    fn a_piece_of_work_on_another_thread_is_heard_when_its_listener_is_carried_there() {
        let record = Arc::new(Record::default());
        listening(record.clone(), || {
            let carried = carried();
            std::thread::scope(|scope| {
                scope.spawn(|| carried.run(|| drop(Stage::begin("carried piece", None))));
                scope.spawn(|| drop(Stage::begin("piece left behind", None)));
            });
        });
        let heard = record.0.lock().unwrap().clone();
        assert!(
            heard
                .iter()
                .any(|h| h.ends_with("begin carried piece None")),
            "{heard:?}"
        );
        assert!(
            !heard.iter().any(|h| h.contains("left behind")),
            "{heard:?}"
        );
    }

    #[test]
    fn scoped_work_is_heard_by_its_own_listener_only_and_the_thread_forgets_it_after() {
        let (mine, other) = (Arc::new(Record::default()), Arc::new(Record::default()));
        let answer = listening(mine.clone(), || {
            Stage::begin("scoped stage", Some(3)).advance(1);
            // Another thread has no scoped listener: its stage is not this work's.
            std::thread::spawn(|| drop(Stage::begin("other thread", None)))
                .join()
                .unwrap();
            listening(other.clone(), || drop(Stage::begin("nested scope", None)));
            // The outer scope's listener is back after the nested one.
            drop(Stage::begin("after the nested scope", None));
            42
        });
        assert_eq!(answer, 42);
        Stage::begin("after the scope", None).advance(1);
        let mine = mine.0.lock().unwrap().clone();
        let heard = |what: &str| mine.iter().any(|h| h.contains(what));
        assert!(
            heard("begin scoped stage Some(3)") && heard("advance 1"),
            "{mine:?}"
        );
        assert!(heard("begin after the nested scope"), "{mine:?}");
        let line = |what: &str| {
            mine.iter()
                .any(|h| h.ends_with(&format!(" begin {what} None")))
        };
        assert!(!line("other thread") && !line("nested scope") && !line("after the scope"));
        let other = other.0.lock().unwrap().clone();
        assert_eq!(other.len(), 2, "{other:?}");
        assert!(other[0].ends_with("begin nested scope None"), "{other:?}");
    }

    /// Stops the work at its `after`-th advance; counts every time it is asked.
    struct StopAfter {
        after: u64,
        advances: AtomicU64,
        asked: AtomicU64,
    }

    impl StopAfter {
        fn new(after: u64) -> Arc<StopAfter> {
            Arc::new(StopAfter {
                after,
                advances: AtomicU64::new(0),
                asked: AtomicU64::new(0),
            })
        }
    }

    impl Listener for StopAfter {
        fn begin(&self, _: u64, _: &str, _: Option<u64>) {}
        fn advance(&self, _: u64, _: u64) {
            self.advances.fetch_add(1, Ordering::SeqCst);
        }
        fn end(&self, _: u64) {}
        fn cancelled(&self) -> bool {
            self.asked.fetch_add(1, Ordering::SeqCst);
            self.advances.load(Ordering::SeqCst) >= self.after
        }
    }

    #[test]
    fn a_listener_that_stops_ends_cancellable_work_at_that_advance_and_drops_it() {
        let stop = StopAfter::new(3);
        struct Dropped<'a>(&'a AtomicU64);
        impl Drop for Dropped<'_> {
            fn drop(&mut self) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let (reached, drops) = (AtomicU64::new(0), AtomicU64::new(0));
        let answer = cancellable(stop.clone(), || {
            let _held = Dropped(&drops);
            let stage = Stage::begin("counting", Some(10));
            for i in 1..=10 {
                stage.advance(i);
                reached.store(i, Ordering::SeqCst);
            }
            "finished"
        });
        assert_eq!(answer, Err(Cancelled));
        // Stopped at the third advance, before the loop went on; what the work held is dropped.
        assert_eq!(reached.load(Ordering::SeqCst), 2);
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        // The thread's scope is gone: a stage now is not the stopped work's.
        Stage::begin("after", None).advance(1);
        assert_eq!(stop.advances.load(Ordering::SeqCst), 3);
    }

    #[test]
    fn a_stop_asked_on_a_rayon_worker_comes_back_to_the_waiting_thread() {
        use rayon::prelude::*;
        let stop = StopAfter::new(1);
        let answer = cancellable(stop.clone(), || {
            let stage = Stage::begin("in parallel", Some(1000));
            (0..1000u64)
                .into_par_iter()
                .map(|i| {
                    stage.checkpoint();
                    stage.advance(i);
                    i
                })
                .sum::<u64>()
        });
        assert_eq!(answer, Err(Cancelled));
        // Each piece asked before it began: those split off after the stop did no work.
        assert!(stop.advances.load(Ordering::SeqCst) < 1000);
    }

    #[test]
    fn work_that_is_not_cancellable_is_never_asked_and_other_panics_go_on_unwinding() {
        let stop = StopAfter::new(0);
        let sum = listening(stop.clone(), || {
            let stage = Stage::begin("scoped only", None);
            (1..=4).inspect(|&i| stage.advance(i)).sum::<u64>()
        });
        assert_eq!(sum, 10);
        assert_eq!(stop.asked.load(Ordering::SeqCst), 0);
        // A panic of the work (here without the hook's message) is the work's, not a stop.
        let unwound = std::panic::catch_unwind(|| {
            cancellable(StopAfter::new(u64::MAX), || {
                std::panic::resume_unwind(Box::new("a bug"))
            })
        });
        let payload = unwound.expect_err("the panic goes on");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"a bug"));
    }
}
