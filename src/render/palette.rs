//! The page's two colour themes for what is drawn on canvases (the HTML follows the same
//! choice through CSS variables on `<html data-theme>`). Server colours are the same in
//! both: the Okabe–Ito and Tol palettes read on dark and light backgrounds alike.

use crate::chart;

/// Light or dark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    /// Dark background (the default).
    #[default]
    Dark,
    /// Light background.
    Light,
}

impl Theme {
    /// The value in `theme=`.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Dark => "dark",
            Theme::Light => "light",
        }
    }

    /// The theme for a `theme=` value.
    pub fn from_name(name: &str) -> Option<Theme> {
        [Theme::Dark, Theme::Light]
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The colours to draw with.
    pub fn palette(self) -> &'static Palette {
        match self {
            Theme::Dark => &DARK,
            Theme::Light => &LIGHT,
        }
    }
}

/// Colours of the canvases.
#[derive(Clone, Copy, Debug)]
pub struct Palette {
    /// The canvas background.
    pub background: &'static str,
    /// The ring's empty track.
    pub track: &'static str,
    /// Headings on the canvas.
    pub text: &'static str,
    /// Ticks, secondary text, keys nobody owns.
    pub muted: &'static str,
    /// Outlines that must stand out from every server colour (markers, moved keys, pins).
    pub outline: &'static str,
    /// The charts' chrome.
    pub chart: chart::Theme,
}

/// The dark "scope" look.
pub const DARK: Palette = Palette {
    background: "#0f1420",
    track: "#2a3244",
    text: "#c9d1e0",
    muted: "#7d879c",
    outline: "#ffffff",
    chart: chart::DARK,
};

/// A light look for printed handouts and bright rooms.
pub const LIGHT: Palette = Palette {
    background: "#ffffff",
    track: "#d5dae3",
    text: "#1b2230",
    muted: "#5b6577",
    outline: "#111827",
    chart: chart::LIGHT,
};
