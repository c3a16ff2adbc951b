//! The printable handout of a tour: one page per step with the ring as it stood at that
//! step, the narration and the readout. The page walks the tour itself, through the same
//! stepped work as the Next button, and draws each step's ring for paper once that step's
//! work is done (at its printed size, labels at least 9 pt); then it asks the browser to
//! print. On screen the
//! handout stays hidden; the print stylesheet shows only it, a step per sheet.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Interval;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

use super::controls::{lookup_explained, swatch};
use super::readout::readout_card;
use super::ring_canvas::{draw_static, key_labels_record};
use crate::i18n::Words;
use crate::render::palette::Theme;
use crate::render::scene::Scale;
use crate::render::{server_colour, RingGeometry};
use crate::state::PageState;
use crate::text::Fixed;
use crate::tour::{Facts, Position, Tour, TourId};
use crate::words::group_thousands;

/// One printed step.
#[derive(Clone, PartialEq)]
pub struct HandoutPage {
    /// The step, 1-based.
    pub step: usize,
    /// The ring as drawn for print at that step (a PNG data URL).
    pub image: String,
    /// Where the keys' names are in it ([`key_labels_record`]).
    pub key_labels: String,
    /// The state at that step (shared, not copied).
    pub state: PageState,
}

/// A handout being made, or made.
#[derive(Clone, PartialEq)]
pub struct Handout {
    /// The tour.
    pub tour: TourId,
    /// Where the presenter was, to return to.
    pub back_to: Position,
    /// The pages photographed so far.
    pub pages: Vec<HandoutPage>,
}

impl Handout {
    /// True once every step has its page.
    pub fn is_done(&self) -> bool {
        self.pages.len() == Tour::get(self.tour).len()
    }
}

/// The printed ring's side in CSS pixels: the picture's printed width (116 mm in
/// style.css), so that a pixel drawn is a pixel printed and the labels' sizes are their
/// printed sizes.
const PRINT_SIDE: f64 = 438.0;
/// Printer dots per CSS pixel drawn (≈ 290 dpi).
const PRINT_DENSITY: f64 = 3.0;
/// The servers' names in print, CSS pixels; the keys' names and the ticks are 0.85 of it:
/// 12.07 px, just over 9 pt (12 px).
const PRINT_FONT_PX: f64 = 14.2;

/// The ring of `state` drawn for paper, as a PNG data URL: its own drawing at its printed
/// size (not the screen's canvas, whose labels would print at whatever size the screen
/// had), in the light palette (ink on white), labels at least 9 pt.
fn photograph(state: &PageState, w: &Words) -> Option<(String, String)> {
    let document = web_sys::window()?.document()?;
    let photo: HtmlCanvasElement = document.create_element("canvas").ok()?.dyn_into().ok()?;
    let dots = (PRINT_SIDE * PRINT_DENSITY) as u32;
    photo.set_width(dots);
    photo.set_height(dots);
    let ctx: CanvasRenderingContext2d = photo.get_context("2d").ok()??.dyn_into().ok()?;
    ctx.set_transform(PRINT_DENSITY, 0.0, 0.0, PRINT_DENSITY, 0.0, 0.0)
        .ok()?;
    let g = RingGeometry::fit(PRINT_SIDE, PRINT_SIDE);
    let s = Scale {
        font_px: PRINT_FONT_PX,
        ..Scale::new(g.radius, PRINT_SIDE, PRINT_SIDE)
    };
    let labels = draw_static(&ctx, &g, &s, state, w, Theme::Light.palette());
    Some((photo.to_data_url().ok()?, key_labels_record(&labels)))
}

/// What the handout maker reads each tick: the latest render's values.
struct Now {
    state: PageState,
    position: Option<Position>,
    words: &'static Words,
}

/// Makes the handout while `handout` is under way: each tick, once the tour is at the next
/// step to print and its work is done, draws that step's ring for paper and goes on; when
/// every step has its page, prints and returns the tour to where the presenter was.
#[hook]
pub fn use_handout(
    handout: &UseStateHandle<Option<Handout>>,
    state: &PageState,
    position: Option<Position>,
    words: &'static Words,
    go: &Callback<Position>,
) {
    let now = use_mut_ref(|| None::<Now>);
    *now.borrow_mut() = Some(Now {
        state: state.clone(),
        position,
        words,
    });
    let making = handout.as_ref().is_some_and(|h| !h.is_done());
    let (handout, go) = (handout.clone(), go.clone());
    use_effect_with(making, move |&making| {
        let ticker = making.then(|| {
            let job = Rc::new(RefCell::new(handout.as_ref().cloned()));
            Interval::new(120, move || tick(&job, &now, &handout, &go))
        });
        move || drop(ticker)
    });
}

fn tick(
    job: &Rc<RefCell<Option<Handout>>>,
    now: &Rc<RefCell<Option<Now>>>,
    handout: &UseStateHandle<Option<Handout>>,
    go: &Callback<Position>,
) {
    let mut job = job.borrow_mut();
    let (Some(h), Some(now)) = (
        job.as_mut(),
        now.borrow()
            .as_ref()
            .map(|n| (n.state.clone(), n.position, n.words)),
    ) else {
        return;
    };
    let (state, position, w) = now;
    let want = Position {
        tour: h.tour,
        step: h.pages.len() + 1,
    };
    if h.is_done() || state.pending.is_some() {
        return;
    }
    if position != Some(want) {
        go.emit(want);
        return;
    }
    let Some((image, key_labels)) = photograph(&state, w) else {
        return;
    };
    h.pages.push(HandoutPage {
        step: want.step,
        image,
        key_labels,
        state,
    });
    if h.is_done() {
        go.emit(h.back_to);
    } else {
        go.emit(Position {
            tour: h.tour,
            step: want.step + 1,
        });
    }
    handout.set(Some(h.clone()));
}

/// Prints once the handout is done (the browser's print dialog; headless browsers return
/// at once).
#[hook]
pub fn use_print_when_done(handout: &Option<Handout>) {
    let done = handout.as_ref().is_some_and(Handout::is_done);
    use_effect_with(done, |&done| {
        if done {
            if let Some(window) = web_sys::window() {
                let _ = window.print();
            }
        }
    });
}

/// The handout's pages (hidden on screen; the print stylesheet shows them alone), in the
/// light palette its rings are drawn in: ink on paper.
pub fn handout_view(w: &'static Words, h: &Handout) -> Html {
    let tour = Tour::get(h.tour);
    let words = &w.tour_words[h.tour.index()];
    html! {
        <section class="handout" aria-hidden="true">
            { for h.pages.iter().map(|page| {
                let facts = Facts::read(w, &page.state, tour.store_at(page.step));
                let narration = words.steps.get(page.step - 1).map(|n| n(&facts)).unwrap_or_default();
                html! {
                    <article class="handout-page" data-step={page.step.to_string()}>
                        <h1>{words.title}<span class="step-count">{(w.step_of)(page.step, tour.len())}</span></h1>
                        <img src={page.image.clone()} alt="" data-key-labels={page.key_labels.clone()} />
                        <p class="narration">{narration}</p>
                        <div class="handout-tables">
                            <div>
                                {counts_table(w, &page.state)}
                                <div class="lookup">{lookup_explained(w, &page.state)}</div>
                            </div>
                            {readout_card(w, Theme::Light.palette(), &page.state, false, (false, &Callback::noop()))}
                        </div>
                    </article>
                }
            }) }
        </section>
    }
}

/// The keys per server at a step, as the page's table shows them (the narration reads
/// its numbers from it: "the table shows exactly the counts the post prints"), each count
/// with its change since the step before ("+310", "−1,020").
fn counts_table(w: &'static Words, state: &PageState) -> Html {
    let sim = &state.sim;
    let total = sim.keys().len().max(1) as f64;
    let rows = sim.servers().iter().map(|s| {
        let count = sim.count(s.id);
        let change = state.count_before(s.id).filter(|&b| b != count).map(|b| {
            let sign = if count > b { "+" } else { "−" };
            format!(" ({sign}{})", group_thousands(count.abs_diff(b)))
        });
        html! {
            <tr>
                <td>{swatch(server_colour(s.id, Theme::Light.palette()))}</td>
                <th scope="row">{s.name.clone()}</th>
                <td class="num">{group_thousands(count)}{change.unwrap_or_default()}</td>
                <td class="num">{format!("{}%", Fixed(100.0 * count as f64 / total, 1))}</td>
            </tr>
        }
    });
    html! {
        <table class="counts">
            <caption>{w.keys_per_server}</caption>
            <thead><tr>
                <td></td><th scope="col">{w.col_server}</th>
                <th scope="col" class="num">{w.col_keys}</th><th scope="col" class="num">{w.col_share}</th>
            </tr></thead>
            <tbody>{ for rows }</tbody>
        </table>
    }
}
