//! What the page tells the user that is not the scenario itself — a refusal, a link's
//! problems, work in progress — kept as what it says, not as text, so each catalog words it
//! ([`crate::words::notice`]). Plain data below the state and the words, so both can use it.

use crate::problem::Problem;
use std::rc::Rc;

/// A message for the user, kept as what it says so it can be worded in any language.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// An input or change was refused: why.
    Refused(Rc<Problem>),
    /// The link's scenario could not be loaded (the default is shown): the reasons.
    LinkNotLoaded(Rc<[Problem]>),
    /// The link has problems, but its scenario loaded: the reasons.
    LinkProblem(Rc<[Problem]>),
    /// Actions refused while stepped work runs, so far.
    Busy(u32),
    /// Actions that came during stepped work and were ignored, reported when it is done.
    Ignored(u32),
    /// A scenario file could not be opened: the reasons.
    BadFile(Rc<[Problem]>),
    /// The backup servers (quoted) a loaded nginx config has, which its hash leaves out.
    BackupsLeftOut(Rc<[String]>),
}

impl Notice {
    /// True for what refuses something the user (or an embed's host) asked for, or a link
    /// or file it gave; false for what only informs (keys ignored while busy were counted
    /// already, backup servers left out of a loaded config).
    pub fn is_refusal(&self) -> bool {
        !matches!(self, Notice::Ignored(_) | Notice::BackupsLeftOut(_))
    }
}
