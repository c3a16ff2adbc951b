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

/// The WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21).
pub fn contrast(a: &str, b: &str) -> f64 {
    fn luminance(hex: &str) -> f64 {
        let channel = |i: usize| {
            let v = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0)) / 255.0;
            if v <= 0.039_28 {
                v / 12.92
            } else {
                crate::math::powf((v + 0.055) / 1.055, 2.4)
            }
        };
        0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
    }
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(c: plotters::style::RGBColor) -> String {
        format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
    }

    /// Every word drawn on a canvas — server labels (text ink), the centre lines, ticks
    /// (muted), the charts' axis labels — reads at 4.5:1 or better on its background, in
    /// both themes (presentation mode draws with the same palettes, larger).
    #[test]
    fn canvas_text_has_enough_contrast_in_both_themes() {
        assert!((contrast("#000000", "#ffffff") - 21.0).abs() < 1e-9);
        for theme in [Theme::Dark, Theme::Light] {
            let p = theme.palette();
            for (what, ink) in [("text", p.text), ("muted", p.muted)] {
                let c = contrast(ink, p.background);
                assert!(
                    c >= 4.5,
                    "{theme:?} {what} {ink} on {}: {c:.2}",
                    p.background
                );
            }
            let chart = p.chart;
            let c = contrast(&hex(chart.foreground), &hex(chart.background));
            assert!(c >= 4.5, "{theme:?} chart labels: {c:.2}");
        }
    }

    /// CIELAB of an sRGB colour, after simulating a colour-vision deficiency (Machado,
    /// Oliveira & Fernandes 2009, severity 1) when `cvd` is given.
    fn lab(hex: &str, cvd: Option<[[f64; 3]; 3]>) -> [f64; 3] {
        let v = u32::from_str_radix(&hex[1..], 16).unwrap();
        let lin = |c: u32| {
            let c = f64::from(c & 0xff) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                crate::math::powf((c + 0.055) / 1.055, 2.4)
            }
        };
        let mut rgb = [lin(v >> 16), lin(v >> 8), lin(v)];
        if let Some(m) = cvd {
            rgb =
                m.map(|row| (row[0] * rgb[0] + row[1] * rgb[1] + row[2] * rgb[2]).clamp(0.0, 1.0));
        }
        let [r, g, b] = rgb;
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.9505;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.089;
        let f = |t: f64| {
            if t > 0.008856 {
                t.cbrt()
            } else {
                7.787 * t + 16.0 / 116.0
            }
        };
        [
            116.0 * f(y) - 16.0,
            500.0 * (f(x) - f(y)),
            200.0 * (f(y) - f(z)),
        ]
    }

    #[test]
    fn the_first_twelve_server_colours_stay_apart_also_for_colour_blind_readers() {
        use crate::render::PALETTE;
        let deficiencies = [
            ("normal", None, 20.0),
            (
                "deuteranopia",
                Some([
                    [0.367322, 0.860646, -0.227968],
                    [0.280085, 0.672501, 0.047413],
                    [-0.011820, 0.042940, 0.968881],
                ]),
                12.0,
            ),
            (
                "protanopia",
                Some([
                    [0.152286, 1.052583, -0.204868],
                    [0.114503, 0.786281, 0.099216],
                    [-0.003882, -0.048116, 1.051998],
                ]),
                12.0,
            ),
            (
                "tritanopia",
                Some([
                    [1.255528, -0.076749, -0.178779],
                    [-0.078411, 0.930809, 0.147602],
                    [0.004733, 0.691367, 0.303900],
                ]),
                12.0,
            ),
        ];
        for (who, cvd, least) in deficiencies {
            let labs: Vec<[f64; 3]> = PALETTE[..12].iter().map(|c| lab(c, cvd)).collect();
            for i in 0..12 {
                for j in i + 1..12 {
                    let d = labs[i]
                        .iter()
                        .zip(&labs[j])
                        .map(|(a, b)| (a - b).powi(2))
                        .sum::<f64>()
                        .sqrt();
                    assert!(
                        d >= least,
                        "{who}: {} and {} are {d:.1} apart",
                        PALETTE[i],
                        PALETTE[j]
                    );
                }
            }
        }
    }
}
