//! The page's keyboard: which key does what. Pure, so the map is tested natively; the page
//! only listens for key presses, asks [`Shortcut::for_key`], and carries the shortcut out.

/// What a key press asks the page to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    /// `A`: add a server (with the suggested name).
    AddServer,
    /// `R`: remove the last server.
    RemoveLast,
    /// Space: play or pause the walking keys.
    TogglePlay,
    /// `+` (or `=`): zoom in.
    ZoomIn,
    /// `−` (or `_`): zoom out.
    ZoomOut,
    /// `0`: the whole ring again.
    ZoomReset,
    /// → or Page Down (a clicker's): the tour's next step.
    NextStep,
    /// ← or Page Up: the tour's previous step.
    PreviousStep,
    /// `F`: full screen on or off.
    FullScreen,
    /// `P`: presentation mode on or off.
    Present,
    /// `?`: the list of shortcuts.
    Help,
    /// `Q`: the link as a QR code.
    Qr,
    /// Esc: close what is open.
    Close,
}

impl Shortcut {
    /// The shortcut for a key (as `KeyboardEvent.key` names it), if any. The speaker-notes
    /// window only turns the tour's pages: its state must stay the presenting window's.
    pub fn for_key(key: &str, notes_window: bool) -> Option<Shortcut> {
        use Shortcut::*;
        let shortcut = match key {
            "a" | "A" => AddServer,
            "r" | "R" => RemoveLast,
            " " => TogglePlay,
            "+" | "=" => ZoomIn,
            "-" | "_" => ZoomOut,
            "0" => ZoomReset,
            "ArrowRight" | "PageDown" => NextStep,
            "ArrowLeft" | "PageUp" => PreviousStep,
            "f" | "F" => FullScreen,
            "p" | "P" => Present,
            "?" => Help,
            "q" | "Q" => Qr,
            "Escape" => Close,
            _ => return None,
        };
        let turns_page = matches!(shortcut, NextStep | PreviousStep);
        (!notes_window || turns_page).then_some(shortcut)
    }

    /// True when the browser's own action for the key must not happen: Space would scroll
    /// the page, and so would the arrows and Page keys while a tour uses them.
    pub fn stops_default(self, touring: bool) -> bool {
        match self {
            Shortcut::TogglePlay => true,
            Shortcut::NextStep | Shortcut::PreviousStep => touring,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Shortcut::{self, *};

    #[test]
    fn keys_map_to_shortcuts_and_the_notes_window_only_turns_pages() {
        let table = [
            ("a", AddServer),
            ("R", RemoveLast),
            (" ", TogglePlay),
            ("=", ZoomIn),
            ("-", ZoomOut),
            ("0", ZoomReset),
            ("PageDown", NextStep),
            ("ArrowLeft", PreviousStep),
            ("F", FullScreen),
            ("p", Present),
            ("?", Help),
            ("q", Qr),
            ("Escape", Close),
        ];
        for (key, shortcut) in table {
            assert_eq!(Shortcut::for_key(key, false), Some(shortcut), "{key}");
            let notes = Shortcut::for_key(key, true);
            assert_eq!(
                notes.is_some(),
                matches!(shortcut, NextStep | PreviousStep),
                "{key}"
            );
        }
        assert_eq!(Shortcut::for_key("x", false), None);
        assert_eq!(Shortcut::for_key("Enter", false), None);
    }

    #[test]
    fn space_never_scrolls_and_arrows_do_not_while_touring() {
        assert!(TogglePlay.stops_default(false));
        assert!(NextStep.stops_default(true) && !NextStep.stops_default(false));
        assert!(!AddServer.stops_default(true));
    }

    #[test]
    fn every_catalog_lists_a_line_per_key() {
        for lang in crate::i18n::Lang::ALL {
            let keys: Vec<&str> = lang.words().shortcut_list.iter().map(|(k, _)| *k).collect();
            for needed in ["A", "R", "F", "P", "Q", "?", "Esc", "← →", "+  −  0"] {
                assert!(keys.contains(&needed), "{lang:?} lists no {needed}");
            }
        }
    }
}
