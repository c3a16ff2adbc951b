//! The page's two colour themes for what is drawn on canvases (the HTML follows the same
//! choice through CSS variables on `<html data-theme>`), server colours included: a server's
//! colour must stand out 3:1 from the background it is drawn on (WCAG 2.2 SC 1.4.11) —
//! yellow and sky blue cannot on white, wine and purple cannot on the dark ground — so each
//! theme has its own twelve (and four more), and the first twelve stay apart for readers
//! with each colour-vision deficiency. Both tests below check it.

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
    /// Server colours by id (`#RRGGBB`); later ids get golden-angle hues.
    pub servers: &'static [&'static str; 16],
    /// The HSL lightness of the golden-angle hues (0..1).
    pub server_lightness: f64,
}

/// Server colours on the dark ground: Okabe & Ito's seven, then rust, brown, silver and
/// purple picked greedily for the largest smallest distance, then four more; wine, brown,
/// purple and indigo lightened until they stand 3:1 from every dark surface.
pub const SERVERS_DARK: [&str; 16] = [
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#C32D87",
    "#B15928", "#965A4B", "#BBBBBB", "#785AD2", "#999933", "#EE6677", "#7887E1", "#228833",
];

/// Server colours on the light ground: the dark set, with each colour that stands under 3:1
/// from a light surface (orange, sky blue, yellow, pink, silver, olive, rose) replaced by the
/// nearest colour (CIELAB) that reaches 3:1 and keeps the set apart for every reader.
pub const SERVERS_LIGHT: [&str; 16] = [
    "#96875A", "#7887A5", "#009678", "#3C4B00", "#0072B2", "#D55E00", "#C35AD2", "#882255",
    "#B15928", "#8C564B", "#4B3C2D", "#7F3C8D", "#002D00", "#4B0F2D", "#5D3A9B", "#228833",
];

/// The dark "scope" look.
pub const DARK: Palette = Palette {
    background: "#0f1420",
    track: "#2a3244",
    text: "#c9d1e0",
    muted: "#7d879c",
    outline: "#ffffff",
    chart: chart::DARK,
    servers: &SERVERS_DARK,
    server_lightness: 0.65,
};

/// A light look for printed handouts and bright rooms.
pub const LIGHT: Palette = Palette {
    background: "#ffffff",
    track: "#d5dae3",
    text: "#1b2230",
    muted: "#5b6577",
    outline: "#111827",
    chart: chart::LIGHT,
    servers: &SERVERS_LIGHT,
    server_lightness: 0.32,
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

    /// The surfaces a server colour is drawn on in each theme (presentation mode draws on
    /// the same): the canvases' ground and the page's background, panels and tour card
    /// (`static/style.css`), where swatches sit.
    const SURFACES: [(Theme, &[&str]); 2] = [
        (Theme::Dark, &["#0f1420", "#0b0f17", "#121722", "#171d2a"]),
        (Theme::Light, &["#ffffff", "#f4f6fa", "#eef1f6", "#e8f2fb"]),
    ];

    /// WCAG 2.2 SC 1.4.11: every server colour — the sixteen and the golden-angle hues
    /// after them — stands 3:1 or better from each surface it is drawn on, in both themes.
    #[test]
    fn server_colours_stand_three_to_one_from_their_background_in_both_themes() {
        for (theme, surfaces) in SURFACES {
            let p = theme.palette();
            for id in 0..400u16 {
                let (r, g, b) = crate::render::server_rgb(id, p);
                let colour = format!("#{r:02x}{g:02x}{b:02x}");
                for surface in surfaces {
                    let c = contrast(&colour, surface);
                    assert!(
                        c >= 3.0,
                        "{theme:?} server {id} {colour} on {surface}: {c:.2}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_first_twelve_server_colours_stay_apart_also_for_colour_blind_readers() {
        for theme in [Theme::Dark, Theme::Light] {
            twelve_apart(theme.palette().servers);
        }
    }

    fn twelve_apart(palette: &[&str; 16]) {
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
            let labs: Vec<[f64; 3]> = palette[..12].iter().map(|c| lab(c, cvd)).collect();
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
                        palette[i],
                        palette[j]
                    );
                }
            }
        }
    }
}
