//! The page's own state beside the scenario: what the reader has chosen, opened or turned
//! on — the language, the theme, presentation, the compare view, the dialogs, the animation
//! and its speed, the moved-key marks, a zoom request, the class's guess, and whether the
//! part below the fold is rendered yet. One `Copy` value and one pure reducer
//! ([`Screen::reduce`]), tested natively like [`crate::state::PageState`]: the `App`
//! component renders it and sends [`ScreenAction`]s, and holds none of this logic itself.

use crate::i18n::Lang;
use crate::link::View;
use crate::render::palette::Theme;
use crate::tour::Position;

/// What the reader has chosen, opened or turned on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Screen {
    /// The page's language.
    pub lang: Lang,
    /// The theme the reader chose (`None`: the system's).
    pub theme: Option<Theme>,
    /// Presentation mode (big type, the projector's palette).
    pub present: bool,
    /// The compare view instead of the ring.
    pub compare: bool,
    /// The keyboard shortcuts dialog is open.
    pub help: bool,
    /// The QR code dialog is open.
    pub qr: bool,
    /// The keys' walk is animated.
    pub playing: bool,
    /// The keys the last change moved are marked on the ring.
    pub marks: bool,
    /// The animation's speed (1 = normal).
    pub speed: f64,
    /// This window opened speaker notes (its tour steps are told to them).
    pub notes_opened: bool,
    /// The class's guess before a predicted tour step, and the step it is for.
    pub guess: Option<(Position, u64)>,
    /// The last zoom asked for: how many so far (so each is new) and its direction
    /// (+1 in, −1 out, 0 reset).
    pub zoom: (u32, i8),
    /// The panel below the fold is rendered (after the ring's first frame).
    pub below_fold: bool,
}

/// A yes/no part of the [`Screen`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// [`Screen::present`].
    Present,
    /// [`Screen::compare`].
    Compare,
    /// [`Screen::help`].
    Help,
    /// [`Screen::qr`].
    Qr,
    /// [`Screen::playing`].
    Playing,
    /// [`Screen::marks`].
    Marks,
    /// [`Screen::notes_opened`].
    NotesOpened,
    /// [`Screen::below_fold`].
    BelowFold,
}

/// What the reader (or the page) does to the [`Screen`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScreenAction {
    /// Turns a part on if off, off if on.
    Toggle(Flag),
    /// Turns a part on or off.
    Set(Flag, bool),
    /// Closes the dialogs (Escape).
    CloseDialogs,
    /// Shows the page in a language.
    Lang(Lang),
    /// Shows the page in a theme (the reader's choice from now on).
    Theme(Theme),
    /// Animates at a speed.
    Speed(f64),
    /// The class's guess (`None`: the field was cleared), for the step it is about.
    Guess(Position, Option<u64>),
    /// Zooms the ring in (+1), out (−1) or back (0).
    Zoom(i8),
}

impl Screen {
    /// The screen a link asks for, in `lang` (the link's language, else the browser's).
    pub fn from_view(view: &View, lang: Lang) -> Screen {
        Screen {
            lang,
            theme: view.theme,
            present: view.present,
            compare: view.compare,
            help: false,
            qr: false,
            playing: false,
            marks: true,
            speed: 1.0,
            notes_opened: false,
            guess: None,
            zoom: (0, 0),
            below_fold: false,
        }
    }

    fn flag(&mut self, flag: Flag) -> &mut bool {
        match flag {
            Flag::Present => &mut self.present,
            Flag::Compare => &mut self.compare,
            Flag::Help => &mut self.help,
            Flag::Qr => &mut self.qr,
            Flag::Playing => &mut self.playing,
            Flag::Marks => &mut self.marks,
            Flag::NotesOpened => &mut self.notes_opened,
            Flag::BelowFold => &mut self.below_fold,
        }
    }

    /// The screen after `action`.
    #[must_use]
    pub fn reduce(mut self, action: ScreenAction) -> Screen {
        match action {
            ScreenAction::Toggle(f) => {
                let on = self.flag(f);
                *on = !*on;
            }
            ScreenAction::Set(f, on) => *self.flag(f) = on,
            ScreenAction::CloseDialogs => (self.help, self.qr) = (false, false),
            ScreenAction::Lang(lang) => self.lang = lang,
            ScreenAction::Theme(theme) => self.theme = Some(theme),
            ScreenAction::Speed(speed) if speed.is_finite() && speed > 0.0 => self.speed = speed,
            ScreenAction::Speed(_) => {}
            ScreenAction::Guess(about, guess) => self.guess = guess.map(|g| (about, g)),
            ScreenAction::Zoom(direction) => {
                self.zoom = (self.zoom.0.wrapping_add(1), direction.signum());
            }
        }
        self
    }

    /// The class's guess for the step `about`, if the guess is for it.
    pub fn guess_for(&self, about: Position) -> Option<u64> {
        self.guess.filter(|(p, _)| *p == about).map(|(_, g)| g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tour::TourId;

    fn start() -> Screen {
        Screen::from_view(&View::default(), Lang::En)
    }

    #[test]
    fn a_link_opens_its_view_with_the_marks_on_and_nothing_open() {
        let view = View {
            present: true,
            compare: true,
            theme: Some(Theme::Light),
            ..View::default()
        };
        let s = Screen::from_view(&view, Lang::ZhCn);
        assert!(s.present && s.compare && s.marks);
        assert!(!s.help && !s.qr && !s.playing && !s.below_fold && !s.notes_opened);
        assert_eq!(
            (s.lang, s.theme, s.speed, s.zoom),
            (Lang::ZhCn, Some(Theme::Light), 1.0, (0, 0))
        );
    }

    #[test]
    fn every_flag_toggles_and_sets_only_itself() {
        let flags = [
            Flag::Present,
            Flag::Compare,
            Flag::Help,
            Flag::Qr,
            Flag::Playing,
            Flag::Marks,
            Flag::NotesOpened,
            Flag::BelowFold,
        ];
        for f in flags {
            let before = start();
            let toggled = before.reduce(ScreenAction::Toggle(f));
            assert_ne!(toggled, before, "{f:?}");
            assert_eq!(
                toggled.reduce(ScreenAction::Toggle(f)),
                before,
                "{f:?} back"
            );
            for g in flags.into_iter().filter(|g| *g != f) {
                let mut a = toggled;
                let mut b = before;
                assert_eq!(*a.flag(g), *b.flag(g), "{f:?} left {g:?} alone");
            }
            let set = before.reduce(ScreenAction::Set(f, true));
            assert!(
                set.reduce(ScreenAction::Set(f, true)) == set,
                "{f:?}: setting twice is once"
            );
            let mut on = set;
            assert!(*on.flag(f));
            let mut off = set.reduce(ScreenAction::Set(f, false));
            assert!(!*off.flag(f));
        }
    }

    #[test]
    fn escape_closes_both_dialogs_and_nothing_else() {
        let open = start()
            .reduce(ScreenAction::Set(Flag::Help, true))
            .reduce(ScreenAction::Set(Flag::Qr, true))
            .reduce(ScreenAction::Set(Flag::Present, true));
        let closed = open.reduce(ScreenAction::CloseDialogs);
        assert!(!closed.help && !closed.qr && closed.present);
    }

    #[test]
    fn language_theme_and_speed_are_set_and_a_bad_speed_is_refused() {
        let s = start()
            .reduce(ScreenAction::Lang(Lang::ZhCn))
            .reduce(ScreenAction::Theme(Theme::Dark))
            .reduce(ScreenAction::Speed(4.0));
        assert_eq!(
            (s.lang, s.theme, s.speed),
            (Lang::ZhCn, Some(Theme::Dark), 4.0)
        );
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(s.reduce(ScreenAction::Speed(bad)).speed, 4.0, "{bad}");
        }
    }

    #[test]
    fn each_zoom_is_a_new_request_with_its_direction() {
        let once = start().reduce(ScreenAction::Zoom(1));
        let twice = once.reduce(ScreenAction::Zoom(1));
        assert_eq!((once.zoom, twice.zoom), ((1, 1), (2, 1)));
        assert_eq!(twice.reduce(ScreenAction::Zoom(-5)).zoom, (3, -1));
        assert_eq!(twice.reduce(ScreenAction::Zoom(0)).zoom, (3, 0));
    }

    #[test]
    fn a_guess_belongs_to_its_step() {
        let step = |step| Position {
            tour: TourId::Carp,
            step,
        };
        let s = start().reduce(ScreenAction::Guess(step(2), Some(1_500)));
        assert_eq!(s.guess_for(step(2)), Some(1_500));
        assert_eq!(s.guess_for(step(1)), None);
        assert_eq!(
            s.reduce(ScreenAction::Guess(step(2), None))
                .guess_for(step(2)),
            None
        );
    }
}
