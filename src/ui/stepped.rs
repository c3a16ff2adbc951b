//! The one way the page does long work: a step per browser task (a 0 ms timeout, so the
//! page paints and takes input between steps), until the step says it is done. Used by the
//! compare view, the vnode sweep, the key export, and — one step at a time, driven by the
//! state — by the change stepper ([`after_paint`]).

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;

use crate::engine::pace::Progress;
use crate::i18n::Words;
use crate::text::fill;
use crate::words::group_thousands;

/// Work under way; dropping it (or [`Stepped::stop`]) cancels the next step.
#[derive(Default)]
pub struct Stepped {
    timer: Rc<RefCell<Option<Timeout>>>,
}

impl Stepped {
    /// Runs `step` in a task of its own, again and again while it returns `true`.
    pub fn start(step: impl FnMut() -> bool + 'static) -> Stepped {
        let timer = Rc::new(RefCell::new(None));
        schedule(timer.clone(), Rc::new(RefCell::new(step)));
        Stepped { timer }
    }

    /// True until the last step has run (or the work was stopped).
    pub fn is_running(&self) -> bool {
        self.timer.borrow().is_some()
    }

    /// Cancels the steps not run yet.
    pub fn stop(&self) {
        self.timer.borrow_mut().take();
    }
}

impl Drop for Stepped {
    /// Work replaced by other work (or whose view went away) stops.
    fn drop(&mut self) {
        self.stop();
    }
}

fn schedule(timer: Rc<RefCell<Option<Timeout>>>, step: Rc<RefCell<dyn FnMut() -> bool>>) {
    let slot = timer.clone();
    *slot.borrow_mut() = Some(Timeout::new(0, move || {
        let more = (step.borrow_mut())();
        if more && timer.borrow().is_some() {
            schedule(timer, step);
        } else {
            timer.borrow_mut().take();
        }
    }));
}

/// Runs `f` once, in a task after this one (so after the browser has painted what this
/// one rendered); the returned timeout cancels it when dropped.
pub fn after_paint(f: impl FnOnce() + 'static) -> Timeout {
    Timeout::new(0, f)
}

/// What a card's stepped work is doing, for its progress line.
#[derive(Clone, Copy, PartialEq)]
pub enum Busy {
    /// Writing rows of a CSV: done of total.
    Writing(usize, usize),
    /// Reading a pasted text or an opened file: the pass under way, done of total units.
    Reading(Progress),
}

impl Busy {
    /// Units done, of [`Busy::total`].
    pub fn done(self) -> usize {
        match self {
            Busy::Writing(done, _) => done,
            Busy::Reading(p) => p.done,
        }
    }

    pub fn total(self) -> usize {
        match self {
            Busy::Writing(_, total) => total,
            Busy::Reading(p) => p.total,
        }
    }
}

/// The progress line's words: rows written of all, or the percentage of the pass read.
pub fn busy_line(w: &Words, busy: Busy) -> String {
    let (done, total) = (busy.done(), busy.total());
    match busy {
        Busy::Writing(..) => fill(
            w.exporting,
            &[
                &group_thousands(done as u64),
                &group_thousands(total as u64),
            ],
        ),
        Busy::Reading(_) => fill(
            w.reading,
            &[&(done.saturating_mul(100) / total.max(1))
                .min(100)
                .to_string()],
        ),
    }
}
