//! Progress of long work, told to whoever listens. The library never prints: long computations
//! open a [`Stage`] and advance it, and the command line installs a [`Listener`] (a bar on
//! standard error when that is a terminal) with [`listen`]. With no listener a stage costs one
//! check of an `Option`.
//!
//! One listener for the process, installed by the binary around the command it runs: the stages
//! are deep in the solvers (a lifting step, a sweep of a race, a turn of a distribution), where
//! threading a callback through every signature would touch every caller for no other gain.

use std::sync::{Arc, RwLock};

/// Hears the stages of long work.
pub trait Listener: Send + Sync {
    /// A stage begins: what it does (`"lifting the exact solution"`), and its units of work
    /// when known (`None`: a count with no end known in advance).
    fn begin(&self, what: &str, total: Option<u64>);
    /// `done` units of the current stage are finished.
    fn advance(&self, done: u64);
    /// The current stage ended.
    fn end(&self);
}

static LISTENER: RwLock<Option<Arc<dyn Listener>>> = RwLock::new(None);

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
}

impl Stage {
    /// Begins a stage (see [`Listener::begin`]).
    pub fn begin(what: &str, total: Option<u64>) -> Stage {
        let listener = LISTENER.read().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some(l) = &listener {
            l.begin(what, total);
        }
        Stage { listener }
    }

    /// `done` units are finished.
    pub fn advance(&self, done: u64) {
        if let Some(l) = &self.listener {
            l.advance(done);
        }
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        if let Some(l) = &self.listener {
            l.end();
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
        fn begin(&self, what: &str, total: Option<u64>) {
            self.0
                .lock()
                .unwrap()
                .push(format!("begin {what} {total:?}"));
        }
        fn advance(&self, done: u64) {
            self.0.lock().unwrap().push(format!("advance {done}"));
        }
        fn end(&self) {
            self.0.lock().unwrap().push("end".into());
        }
    }

    #[test]
    fn a_listener_hears_a_stage_from_begin_to_end_and_nothing_after_it_is_removed() {
        let record = Arc::new(Record::default());
        {
            let _listening = listen(record.clone());
            let stage = Stage::begin("work", Some(2));
            stage.advance(1);
            stage.advance(2);
        }
        // Removed: a later stage is silent.
        Stage::begin("unheard", None).advance(1);
        let heard = record.0.lock().unwrap().clone();
        // Other tests may run stages while this one listens: only this stage's lines are sure.
        let work = heard
            .iter()
            .position(|h| h == "begin work Some(2)")
            .unwrap();
        assert!(heard[work..].iter().any(|h| h == "advance 2"), "{heard:?}");
        assert!(heard[work..].iter().any(|h| h == "end"), "{heard:?}");
        assert!(!heard.iter().any(|h| h.contains("unheard")), "{heard:?}");
    }
}
