//! The chart components: keys per server (with ghosts of the previous counts) and each
//! server's share of the ring against its ideal share. Each has its numbers in a table too.

use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::i18n::Words;

use super::look::use_look;
use crate::chart::{draw_bar_chart, LoadBar, Unit};
use crate::render::palette::Palette;
use crate::render::server_rgb;
use crate::state::PageState;
use crate::text::Fixed;
use crate::words::group_thousands;

/// Props shared by the views that only read the state.
#[derive(Properties, PartialEq)]
pub struct ViewProps {
    /// The page state.
    pub state: PageState,
    /// Outlined: a tour step points here.
    #[prop_or_default]
    pub focused: bool,
}

/// Sizes a chart canvas's backing store to its CSS size at device resolution (only when
/// it changed: resizing clears and reallocates it); returns (CSS width, device pixel ratio).
pub fn fit_canvas(el: &HtmlCanvasElement) -> (f64, f64) {
    let dpr = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .max(1.0);
    let width = f64::from(el.client_width()).max(200.0);
    let height = f64::from(el.client_height()).max(100.0);
    let (w, h) = ((width * dpr) as u32, (height * dpr) as u32);
    if (el.width(), el.height()) != (w, h) {
        el.set_width(w);
        el.set_height(h);
    }
    (width, dpr)
}

/// Props of [`BarCanvas`].
#[derive(Properties, PartialEq)]
pub struct BarCanvasProps {
    /// The bars.
    pub bars: Vec<LoadBar>,
    /// The dashed reference line.
    pub reference: f64,
    /// Count or share.
    pub unit: Unit,
    /// Accessible description.
    pub label: AttrValue,
    /// CSS class (sets the aspect ratio).
    pub class: AttrValue,
    /// Whether to draw now. On the page's first screen the load chart waits until the
    /// ring has shown the link's scenario: plotters' first text alone costs that frame
    /// ~10 ms (docs/PERFORMANCE.md, the first paint).
    #[prop_or(true)]
    pub draw: bool,
}

/// A plotters bar chart on a HiDPI canvas.
#[component]
pub fn BarCanvas(props: &BarCanvasProps) -> Html {
    let canvas = use_node_ref();
    let look = use_look();
    // Presenting, the axes are read from the back row: 1.5× larger, and never under 1/45
    // of the window's height (24 px at 1080p, 16 at 720p).
    let type_scale = if look.present { 1.5 } else { 1.0 };
    let present = look.present;
    {
        let canvas = canvas.clone();
        use_effect_with(
            (
                props.bars.clone(),
                props.reference.to_bits(),
                props.unit,
                look.theme,
                look.present,
                props.draw,
            ),
            move |(bars, reference, unit, theme, _, draw_now)| {
                let (bars, reference, unit, palette) = (
                    bars.clone(),
                    f64::from_bits(*reference),
                    *unit,
                    theme.palette().chart,
                );
                let draw = move || {
                    let Some(el) = canvas.cast::<HtmlCanvasElement>() else {
                        return;
                    };
                    let (width, dpr) = fit_canvas(&el);
                    let present_floor = if present {
                        web_sys::window()
                            .and_then(|w| w.inner_height().ok())
                            .and_then(|h| h.as_f64())
                            .map_or(0.0, |h| h / 45.0)
                    } else {
                        0.0
                    };
                    if let Some(backend) = CanvasBackend::with_canvas_object(el) {
                        let plot = draw_bar_chart(
                            &backend.into_drawing_area(),
                            &bars,
                            reference,
                            unit,
                            palette,
                            // plotters draws in backing-store pixels: scale the font by
                            // dpr, and by width so a projector's chart stays readable.
                            (((width / 40.0).clamp(12.0, 24.0) * type_scale).max(present_floor)
                                * dpr) as u32,
                        );
                        // Where the plot is, in CSS pixels of the canvas (for the tests: a
                        // projector's chart has room to be read).
                        if let (Ok(Some((x, y, w, h))), Some(el)) =
                            (plot, canvas.cast::<HtmlCanvasElement>())
                        {
                            let css = |v: i32| Fixed(f64::from(v) / dpr, 0).to_string();
                            let at = [css(x), css(y), css(w), css(h)].join(" ");
                            let _ = el.set_attribute("data-plot", &at);
                        }
                    }
                };
                // Drawn in the canvas's pixels: a resized window (dragged, a phone turned, a
                // projector's full screen) draws it again for its new size, else the browser
                // stretches the old picture.
                let listener = draw_now.then(|| {
                    draw();
                    web_sys::window()
                        .map(|w| gloo_events::EventListener::new(&w, "resize", move |_| draw()))
                });
                move || drop(listener)
            },
        );
    }
    html! { <canvas ref={canvas} class={props.class.clone()} role="img" aria-label={props.label.clone()} /> }
}

/// Keys per server, with the previous counts as ghosts, and the balance figures; the bars
/// are drawn once `ring_shown` (the figures at once).
pub fn load_chart(w: &'static Words, p: &Palette, props: &ViewProps, ring_shown: bool) -> Html {
    let state = &props.state;
    let mut bars: Vec<LoadBar> = state
        .sim
        .servers()
        .iter()
        .map(|s| LoadBar {
            label: s.name.clone(),
            count: state.sim.count(s.id),
            before: state.count_before(s.id),
            rgb: server_rgb(s.id, p),
        })
        .collect();
    // A server the last change took away keeps its "before" outline (and no bar), so the
    // chart shows where its keys came from.
    if let Some(last) = &state.last {
        bars.extend(last.gone.iter().map(|(id, name)| LoadBar {
            label: format!("{name} ✕"),
            count: 0,
            before: state.count_before(*id),
            rgb: server_rgb(*id, p),
        }));
    }
    let stats = state.sim.stats();
    let stayed = state.last.as_ref().map_or("—".to_owned(), |l| {
        group_thousands(l.movement.keys.saturating_sub(l.movement.moved))
    });
    let (moved, ideal) = state
        .last
        .as_ref()
        .map_or(("—".to_owned(), "—".to_owned()), |l| {
            (
                format!("{}%", Fixed(100.0 * l.movement.moved_fraction(), 1)),
                l.movement
                    .ideal_fraction
                    .map_or("—".into(), |i| format!("{}%", Fixed(100.0 * i, 1))),
            )
        });
    html! {
        <section class={classes!("card", "chart", props.focused.then_some("focus"))}>
            <h2>{w.load_heading}</h2>
            <BarCanvas bars={bars} reference={stats.mean} unit={Unit::Count} class="load"
                label={w.load_chart_label} draw={ring_shown} />
            <dl class="figures">
                <div><dt>{w.mean}</dt><dd>{crate::words::mean(stats.mean)}</dd></div>
                <div><dt>{w.stddev}</dt><dd class="stddev">{crate::words::grouped(stats.stddev, 1)}</dd></div>
                <div><dt>{w.peak_mean}</dt><dd class="peak">{Fixed(stats.peak_to_mean, 3).to_string()}</dd></div>
                <div><dt>{w.moved_ideal}</dt><dd class="moved">{format!("{moved} ({ideal})")}</dd></div>
                <div><dt>{w.stayed}</dt><dd class="stayed">{stayed}</dd></div>
            </dl>
        </section>
    }
}

/// (name, share of the ring, ideal share, colour) for one server.
type ShareRow = (String, f64, f64, (u8, u8, u8));

/// Each server's share of the ring (vnode arcs or slot ranges) against its ideal share.
pub fn share_chart(w: &'static Words, p: &Palette, props: &ViewProps) -> Html {
    let sim = &props.state.sim;
    let Some(shares) = sim.ring_shares() else {
        return html! {
            <section class="card chart">
                <h2>{w.share_heading}</h2>
                <p class="muted">{w.no_arcs}</p>
            </section>
        };
    };
    let total_weight: f64 = sim
        .servers()
        .iter()
        .filter(|s| s.up)
        .map(|s| s.weight)
        .sum();
    let rows: Vec<ShareRow> = sim
        .servers()
        .iter()
        .map(|s| {
            let share = shares.get(usize::from(s.id)).copied().unwrap_or(0.0);
            let ideal = if s.up && total_weight > 0.0 {
                s.weight / total_weight
            } else {
                0.0
            };
            (s.name.clone(), share, ideal, server_rgb(s.id, p))
        })
        .collect();
    let bars: Vec<LoadBar> = rows
        .iter()
        .map(|(name, share, _, rgb)| LoadBar {
            label: name.clone(),
            count: (share * 1e6).round() as u64,
            before: None,
            rgb: *rgb,
        })
        .collect();
    let mean_ideal = if rows.is_empty() {
        0.0
    } else {
        1e6 / rows.iter().filter(|r| r.2 > 0.0).count().max(1) as f64
    };
    html! {
        <section class="card chart">
            <h2>{w.share_heading}</h2>
            <BarCanvas bars={bars} reference={mean_ideal} unit={Unit::PartsPerMillion} class="share"
                label={w.share_chart_label} />
            <table class="shares">
                <caption>{w.share_caption}</caption>
                <thead><tr><th scope="col">{w.col_server}</th><th scope="col" class="num">{w.col_share}</th><th scope="col" class="num">{w.col_ideal}</th></tr></thead>
                <tbody>
                    { for rows.iter().map(|(name, share, ideal, _)| html! {
                        <tr><th scope="row">{name.clone()}</th><td class="num">{format!("{}%", Fixed(share * 100.0, 2))}</td><td class="num">{format!("{}%", Fixed(ideal * 100.0, 2))}</td></tr>
                    }) }
                </tbody>
            </table>
        </section>
    }
}
