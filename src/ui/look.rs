//! How the page looks — language, colours, presentation — given to every view by one
//! context provider (the app's), and read with [`use_look`] / [`use_lang`]: a view deep
//! in the tree needs no prop threaded through its parents for it.

use yew::prelude::*;

use crate::i18n::Lang;
use crate::render::palette::Theme;

/// How the page looks, shared with every view: language, colours, presentation mode.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Look {
    /// The language.
    pub lang: Lang,
    /// The colour theme in effect.
    pub theme: Theme,
    /// Presentation mode: large type, thick arcs.
    pub present: bool,
}

/// The page's look, from the nearest provider.
#[hook]
pub fn use_look() -> Look {
    use_context::<Look>().unwrap_or_default()
}

/// The page's language.
#[hook]
pub fn use_lang() -> Lang {
    use_look().lang
}
