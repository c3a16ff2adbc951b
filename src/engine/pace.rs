//! Long reading that can pause: a pasted config, a pasted key list or a scenario file's
//! values, read by the same code at the command line (straight through) and in the page (a
//! browser task at a time, so the page paints, shows progress and takes input between
//! steps).
//!
//! Why futures: the readers are plain loops over lines and words. Written as `async fn`s
//! that call [`Pace::tick`] as they go, they stay plain loops — a tick that finds the step's
//! budget spent returns `Pending` once, which suspends the whole reader where it stands. The
//! command line runs such a reader with [`run_to_end`] (an unlimited pace never suspends);
//! the page keeps it in a [`Paused`] and polls it once per task. No executor, no threads,
//! no web dependency: polling with a waker that does nothing is all either side needs.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// How much reading a step may do, and how far the reading has come.
///
/// Units are about a byte of text read (roughly 40 ns of the page's WebAssembly), or an
/// entry sorted.
pub struct Pace {
    budget: usize,
    spent: usize,
    progress: Rc<Cell<Progress>>,
}

/// How far a reading has come: `done` of `total` units of its current pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Units read so far in this pass.
    pub done: usize,
    /// Units this pass reads.
    pub total: usize,
}

impl Pace {
    /// Reading straight through: never suspends (the command line, and tests).
    pub fn unlimited() -> Pace {
        Pace::per_step(usize::MAX)
    }

    /// Reading that suspends once about `budget` units have been read since the last
    /// suspension.
    pub fn per_step(budget: usize) -> Pace {
        Pace {
            budget,
            spent: 0,
            progress: Rc::new(Cell::new(Progress::default())),
        }
    }

    /// A handle on this pace's progress, for a progress bar.
    pub fn progress(&self) -> Rc<Cell<Progress>> {
        self.progress.clone()
    }

    /// Starts a pass over `total` units (a text's bytes, a list's entries).
    pub fn begin(&mut self, total: usize) {
        self.progress.set(Progress { done: 0, total });
    }

    /// Counts `units` read; suspends the reading once when the step's budget is spent.
    pub async fn tick(&mut self, units: usize) {
        let mut p = self.progress.get();
        p.done = p.done.saturating_add(units).min(p.total.max(p.done));
        self.progress.set(p);
        self.spent = self.spent.saturating_add(units);
        if self.spent >= self.budget {
            self.spent = 0;
            YieldOnce(false).await;
        }
    }

    /// Ends the step here (unless the pace is unlimited): a long piece of work that cannot
    /// tick as it goes (the browser parsing a file's JSON) gets a step of its own.
    pub async fn pause(&mut self) {
        if self.budget != usize::MAX {
            self.spent = 0;
            YieldOnce(false).await;
        }
    }
}

/// Pending on its first poll, ready on its second.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

/// A reading suspended between steps (the page's): [`Paused::step`] runs it to its next
/// suspension or to its end.
pub struct Paused<T> {
    future: Pin<Box<dyn Future<Output = T>>>,
}

impl<T> Paused<T> {
    /// Holds `future` (not yet started).
    pub fn new(future: impl Future<Output = T> + 'static) -> Paused<T> {
        Paused {
            future: Box::pin(future),
        }
    }

    /// Runs one step: the answer once the reading is done.
    pub fn step(&mut self) -> Option<T> {
        match self
            .future
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()))
        {
            Poll::Ready(answer) => Some(answer),
            Poll::Pending => None,
        }
    }
}

/// Runs a reading to its end at once (with an unlimited pace it never suspends; with
/// another it is stepped through in a loop).
pub fn run_to_end<T>(future: impl Future<Output = T>) -> T {
    let mut future = std::pin::pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(answer) = future.as_mut().poll(&mut cx) {
            return answer;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn count_lines(text: &str, pace: &mut Pace) -> usize {
        pace.begin(text.len());
        let mut n = 0;
        for line in text.lines() {
            pace.tick(line.len() + 1).await;
            n += 1;
        }
        n
    }

    #[test]
    fn a_paced_reading_suspends_per_budget_and_ends_with_the_same_answer() {
        let text = "aaaa\n".repeat(100);
        assert_eq!(run_to_end(count_lines(&text, &mut Pace::unlimited())), 100);
        // 5 units a line, 50 a step: a suspension every 10 lines.
        let pace = Pace::per_step(50);
        let progress = pace.progress();
        let mut paused = Paused::new(async move {
            let mut pace = pace;
            count_lines(&"aaaa\n".repeat(100), &mut pace).await
        });
        let mut steps = 1;
        let answer = loop {
            if let Some(n) = paused.step() {
                break n;
            }
            let p = progress.get();
            assert_eq!((p.done, p.total), (steps * 50, 500));
            steps += 1;
        };
        assert_eq!((answer, steps), (100, 11));
    }
}
