//! The printable handout of a tour: one page per step with the ring as it stood at that
//! step, the narration and the readout. The page walks the tour itself, through the same
//! stepped work as the Next button, and photographs the ring's drawn layer at each step
//! once it shows that step's state; then it asks the browser to print. On screen the
//! handout stays hidden; the print stylesheet shows only it, a step per sheet.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Interval;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

use super::readout_card;
use crate::i18n::Words;
use crate::render::palette::Theme;
use crate::state::PageState;
use crate::tour::{Facts, Position, Tour, TourId};

/// One printed step.
#[derive(Clone, PartialEq)]
pub struct HandoutPage {
    /// The step, 1-based.
    pub step: usize,
    /// The ring as drawn at that step (a PNG data URL), on the theme's background.
    pub image: String,
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

/// The ring's drawn layer on the theme's background, as a PNG data URL — once it shows
/// `version`'s state (the canvas records what it was drawn from).
fn photograph(version: u64, theme: Theme) -> Option<String> {
    let document = web_sys::window()?.document()?;
    let ring: HtmlCanvasElement = document
        .query_selector("canvas.ring")
        .ok()??
        .dyn_into()
        .ok()?;
    let drawn = ring.get_attribute("data-version")? == version.to_string()
        && ring.get_attribute("data-drawn-loaded").as_deref() == Some("1");
    if !drawn {
        return None;
    }
    let photo: HtmlCanvasElement = document.create_element("canvas").ok()?.dyn_into().ok()?;
    photo.set_width(ring.width());
    photo.set_height(ring.height());
    let ctx: CanvasRenderingContext2d = photo.get_context("2d").ok()??.dyn_into().ok()?;
    ctx.set_fill_style_str(theme.palette().background);
    ctx.fill_rect(0.0, 0.0, f64::from(ring.width()), f64::from(ring.height()));
    ctx.draw_image_with_html_canvas_element(&ring, 0.0, 0.0)
        .ok()?;
    photo.to_data_url().ok()
}

/// What the handout maker reads each tick: the latest render's values.
struct Now {
    state: PageState,
    position: Option<Position>,
    theme: Theme,
}

/// Makes the handout while `handout` is under way: each tick, once the tour is at the next
/// step to print and the ring shows it, photographs it and goes on; when every step has
/// its page, prints and returns the tour to where the presenter was.
#[hook]
pub fn use_handout(
    handout: &UseStateHandle<Option<Handout>>,
    state: &PageState,
    position: Option<Position>,
    theme: Theme,
    go: &Callback<Position>,
) {
    let now = use_mut_ref(|| None::<Now>);
    *now.borrow_mut() = Some(Now {
        state: state.clone(),
        position,
        theme,
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
            .map(|n| (n.state.clone(), n.position, n.theme)),
    ) else {
        return;
    };
    let (state, position, theme) = now;
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
    let Some(image) = photograph(state.version, theme) else {
        return;
    };
    h.pages.push(HandoutPage {
        step: want.step,
        image,
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
/// colours of the theme its rings were photographed in.
pub fn handout_view(w: &'static Words, theme: Theme, h: &Handout) -> Html {
    let tour = Tour::get(h.tour);
    let words = &w.tour_words[h.tour.index()];
    html! {
        <section class="handout" aria-hidden="true">
            { for h.pages.iter().map(|page| {
                let facts = Facts::read(&page.state, tour.store_at(page.step));
                let narration = words.steps.get(page.step - 1).map(|n| n(&facts)).unwrap_or_default();
                html! {
                    <article class="handout-page" data-step={page.step.to_string()}>
                        <h1>{words.title}<span class="step-count">{(w.step_of)(page.step, tour.len())}</span></h1>
                        <img src={page.image.clone()} alt="" />
                        <p class="narration">{narration}</p>
                        {readout_card(w, theme.palette(), &page.state, false, (false, &Callback::noop()))}
                    </article>
                }
            }) }
        </section>
    }
}
