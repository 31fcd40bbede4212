//! Progress of long work, told to whoever listens. The library never prints: long computations
//! open a [`Stage`] and advance it, and the command line installs a [`Listener`] (a bar on
//! standard error when that is a terminal) with [`listen`]. With no listener a stage costs one
//! check of an `Option`.
//!
//! Two ways to listen, so no callback is threaded through every signature down to the solvers
//! (a lifting step, a sweep of a race, a turn of a distribution): [`listen`] for the whole
//! process (the binary, around the command it runs), and `scoped` for one piece of work on
//! the calling thread (the façade's `Game::with_progress`), which stages begun on that thread
//! hear first. A stage begun on another thread (a solver's second core) hears the process's
//! listener only.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

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
}

static LISTENER: RwLock<Option<Arc<dyn Listener>>> = RwLock::new(None);

static NEXT_ID: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The listener of [`scoped`] work on this thread, heard before the process's.
    static SCOPED: RefCell<Option<Arc<dyn Listener>>> = const { RefCell::new(None) };
}

/// Runs `work` with `listener` hearing the stages begun on this thread (and not the process's
/// listener); the thread's previous listener comes back afterwards, even if `work` panics.
pub(crate) fn scoped<T>(listener: Arc<dyn Listener>, work: impl FnOnce() -> T) -> T {
    struct Restore(Option<Arc<dyn Listener>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            SCOPED.with(|s| *s.borrow_mut() = previous);
        }
    }
    let _restore = Restore(SCOPED.with(|s| s.replace(Some(listener))));
    work()
}

/// Installs `listener` until the returned guard is dropped.
pub fn listen(listener: Arc<dyn Listener>) -> Listening {
    *LISTENER.write().unwrap_or_else(|e| e.into_inner()) = Some(listener);
    Listening(())
}

/// Removes the listener when dropped.
#[must_use = "the listener is removed when this is dropped"]
pub struct Listening(());

impl Drop for Listening {
    fn drop(&mut self) {
        *LISTENER.write().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// One stage of long work; it ends when dropped.
pub struct Stage {
    listener: Option<Arc<dyn Listener>>,
    id: u64,
}

impl Stage {
    /// Begins a stage (see [`Listener::begin`]).
    pub fn begin(what: &str, total: Option<u64>) -> Stage {
        let listener = SCOPED
            .with(|s| s.borrow().clone())
            .or_else(|| LISTENER.read().unwrap_or_else(|e| e.into_inner()).clone());
        let id = match &listener {
            Some(l) => {
                let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
                l.begin(id, what, total);
                id
            }
            None => 0,
        };
        Stage { listener, id }
    }

    /// `done` units are finished.
    pub fn advance(&self, done: u64) {
        if let Some(l) = &self.listener {
            l.advance(self.id, done);
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
        {
            let _listening = listen(record.clone());
            let outer = Stage::begin("outer", Some(2));
            {
                let inner = Stage::begin("inner", None);
                inner.advance(7);
            }
            outer.advance(2);
        }
        // Removed: a later stage is silent.
        Stage::begin("unheard", None).advance(1);
        let heard = record.0.lock().unwrap().clone();
        // Other tests may run stages while this one listens: only these stages' lines are sure.
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
    fn scoped_work_is_heard_by_its_own_listener_only_and_the_thread_forgets_it_after() {
        let (mine, other) = (Arc::new(Record::default()), Arc::new(Record::default()));
        let answer = scoped(mine.clone(), || {
            Stage::begin("scoped stage", Some(3)).advance(1);
            // Another thread has no scoped listener: its stage is not this work's.
            std::thread::spawn(|| drop(Stage::begin("other thread", None)))
                .join()
                .unwrap();
            scoped(other.clone(), || drop(Stage::begin("nested scope", None)));
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
}
