//! The ring component: owns the canvas, the cached static layer, the animation loop
//! (requestAnimationFrame, cancelled by dropping its handle), zoom/pan and hover.
//!
//! Props flow in one way (the page state, play/pause, speed); the loop draws a frame only
//! while something moves, and redraws the static layer only when the state, the size or the
//! view changed.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_render::{request_animation_frame, AnimationFrame};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{AddEventListenerOptions, CanvasRenderingContext2d, HtmlCanvasElement, WheelEvent};
use yew::prelude::*;

use super::ring_canvas::{
    draw_overlay, draw_static, hover_at, idle_walkers, moved_walkers, Overlay, Scale, Walker,
    MAX_KEY_DOTS,
};
use crate::render::{RingGeometry, Viewport};
use crate::state::PageState;

/// Props of [`RingView`].
#[derive(Properties, PartialEq)]
pub struct RingProps {
    /// The page state.
    pub state: PageState,
    /// Whether the idle key stream plays.
    pub playing: bool,
    /// Animation speed multiplier.
    pub speed: f64,
    /// Zoom requests from outside (keyboard): +1 in, −1 out, 0 reset; bumped by a counter.
    pub zoom_request: (u32, i8),
    /// A fixed animation clock (ms since the last change), from the page's `freeze`
    /// parameter: every frame is then the same picture, for tests and screenshots.
    #[prop_or_default]
    pub frozen_ms: Option<f64>,
}

/// Everything the animation loop needs, kept across renders.
struct Renderer {
    canvas: NodeRef,
    layer: Option<HtmlCanvasElement>,
    state: Option<PageState>,
    viewport: Viewport,
    static_dirty: bool,
    blit_needed: bool,
    size: (f64, f64, f64),
    change_at: Option<f64>,
    moved: Vec<Walker>,
    idle: Vec<Walker>,
    playing: bool,
    speed: f64,
    frozen_ms: Option<f64>,
    pointers: Vec<(i32, f64, f64)>,
    /// Where the current single-pointer press began, until it moves: a tap.
    tap: Option<(f64, f64)>,
}

impl Renderer {
    fn new() -> Renderer {
        Renderer {
            canvas: NodeRef::default(),
            layer: None,
            state: None,
            viewport: Viewport::default(),
            static_dirty: true,
            blit_needed: true,
            size: (0.0, 0.0, 1.0),
            change_at: None,
            moved: Vec::new(),
            idle: Vec::new(),
            playing: false,
            speed: 1.0,
            frozen_ms: None,
            pointers: Vec::new(),
            tap: None,
        }
    }

    fn base(&self) -> RingGeometry {
        RingGeometry::fit(self.size.0, self.size.1)
    }

    fn geometry(&self) -> (RingGeometry, Scale) {
        let base = self.base();
        (
            self.viewport.apply(base),
            Scale::new(base.radius, self.size.0, self.size.1),
        )
    }

    /// Zooms by `factor` around the point of the ring nearest the view's centre (12 o'clock
    /// when the centre is the ring's own), so the buttons and keys always zoom into the ring.
    fn zoom_to_ring(&mut self, factor: f64) {
        let (w, h, _) = self.size;
        let (g, _) = self.geometry();
        let (pos, _) = g.position_at(w / 2.0, h / 2.0);
        let (x, y) = g.point(pos, g.radius);
        let v = if factor == 0.0 {
            Viewport::default()
        } else {
            self.viewport.zoom_at(factor, x, y)
        };
        self.set_view(v);
    }

    /// What is under the CSS pixel (`x`, `y`): a title and detail lines for the card.
    fn describe(&self, x: f64, y: f64) -> Option<(String, Vec<String>)> {
        let (g, s) = self.geometry();
        self.state
            .as_ref()
            .and_then(|st| hover_at(st, &g, &s, x, y))
    }

    fn set_view(&mut self, v: Viewport) {
        if v != self.viewport {
            self.viewport = v;
            self.static_dirty = true;
        }
    }

    /// One animation frame at time `now` (ms).
    fn frame(&mut self, now: f64) {
        // Read the element every frame: the NodeRef follows it if yew ever replaces it.
        let (Some(canvas), Some(state)) =
            (self.canvas.cast::<HtmlCanvasElement>(), self.state.clone())
        else {
            return;
        };
        let dpr = web_sys::window()
            .map_or(1.0, |w| w.device_pixel_ratio())
            .max(1.0);
        let width = f64::from(canvas.client_width()).max(200.0);
        let height = f64::from(canvas.client_height()).max(200.0);
        if (width, height, dpr) != self.size {
            self.size = (width, height, dpr);
            for c in [Some(&canvas), self.layer.as_ref()].into_iter().flatten() {
                c.set_width((width * dpr) as u32);
                c.set_height((height * dpr) as u32);
            }
            self.static_dirty = true;
        }
        let (g, s) = self.geometry();
        if self.static_dirty {
            if let Some(ctx) = self.layer.as_ref().and_then(context) {
                let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
                draw_static(&ctx, &g, &s, &state);
            }
            let _ = canvas.set_attribute("data-version", &state.version.to_string());
            let _ = canvas.set_attribute("data-zoom", &format!("{:.3}", self.viewport.zoom));
            mark_first_ring_paint();
            self.static_dirty = false;
            self.blit_needed = true;
        }
        let overlay = Overlay {
            since_change_ms: match self.frozen_ms {
                Some(t) => self.change_at.map(|_| t),
                None => self.change_at.map(|t| now - t),
            },
            clock_ms: self.frozen_ms.unwrap_or(now),
            speed: self.speed,
            playing: self.playing,
            moved: &self.moved,
            idle: &self.idle,
        };
        let animating = overlay.is_animating() || state.lookup.is_some();
        if !(animating || self.blit_needed) {
            return;
        }
        self.blit_needed = animating; // one clean frame after an animation ends
        let (Some(ctx), Some(layer)) = (context(&canvas), self.layer.as_ref()) else {
            return;
        };
        let _ = ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
        let _ = ctx.draw_image_with_html_canvas_element(layer, 0.0, 0.0);
        let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        draw_overlay(&ctx, &g, &s, &state, &overlay);
    }
}

fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok()??.dyn_into().ok()
}

/// Records a `ring-painted` performance mark the first time the ring is drawn, for the
/// page measurement script (tests/perf/measure.mjs).
fn mark_first_ring_paint() {
    if let Some(perf) = web_sys::window().and_then(|w| w.performance()) {
        if perf.get_entries_by_name("ring-painted").length() == 0 {
            let _ = perf.mark("ring-painted");
        }
    }
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Keeps the animation loop alive; dropping it cancels the pending frame.
fn run_loop(renderer: Rc<RefCell<Renderer>>, handle: Rc<RefCell<Option<AnimationFrame>>>) {
    let next = handle.clone();
    *handle.borrow_mut() = Some(request_animation_frame(move |t| {
        renderer.borrow_mut().frame(t);
        // A cleared handle means the component is gone: stop.
        if next.borrow().is_some() {
            run_loop(renderer, next);
        }
    }));
}

/// The ring canvas with zoom controls and a hover card.
#[component]
pub fn RingView(props: &RingProps) -> Html {
    let canvas_ref = use_node_ref();
    let renderer = use_mut_ref(Renderer::new);
    let hover = use_state(|| None::<(String, Vec<String>)>);

    // Start the loop and the non-passive wheel listener once; stop both on unmount.
    {
        let renderer = renderer.clone();
        let canvas_ref = canvas_ref.clone();
        use_effect_with((), move |_| {
            let canvas = canvas_ref.cast::<HtmlCanvasElement>();
            let layer = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.create_element("canvas").ok())
                .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok());
            {
                let mut r = renderer.borrow_mut();
                r.canvas = canvas_ref.clone();
                r.layer = layer;
            }
            let handle = Rc::new(RefCell::new(None));
            run_loop(renderer.clone(), handle.clone());
            let wheel = {
                let renderer = renderer.clone();
                Closure::<dyn FnMut(WheelEvent)>::new(move |e: WheelEvent| {
                    e.prevent_default();
                    let mut r = renderer.borrow_mut();
                    let factor = (-e.delta_y() * 0.0015).exp();
                    let v = r.viewport.zoom_at(
                        factor,
                        f64::from(e.offset_x()),
                        f64::from(e.offset_y()),
                    );
                    r.set_view(v);
                })
            };
            if let Some(c) = &canvas {
                let options = AddEventListenerOptions::new();
                options.set_passive(false);
                let _ = c.add_event_listener_with_callback_and_add_event_listener_options(
                    "wheel",
                    wheel.as_ref().unchecked_ref(),
                    &options,
                );
            }
            move || {
                handle.borrow_mut().take();
                if let Some(c) = canvas {
                    let _ = c.remove_event_listener_with_callback(
                        "wheel",
                        wheel.as_ref().unchecked_ref(),
                    );
                }
                drop(wheel);
            }
        });
    }
    // New state: restart the change animation and refresh the walkers.
    {
        let renderer = renderer.clone();
        use_effect_with(props.state.clone(), move |state| {
            let mut r = renderer.borrow_mut();
            let changed = r
                .state
                .as_ref()
                .is_some_and(|old| old.version != state.version);
            if changed {
                r.change_at = Some(now_ms());
                r.moved = moved_walkers(state, MAX_KEY_DOTS);
            }
            r.idle = idle_walkers(state, 240);
            r.state = Some(state.clone());
            r.static_dirty = true;
        });
    }
    {
        let renderer = renderer.clone();
        let frozen = props.frozen_ms.map(f64::to_bits);
        use_effect_with(
            (props.playing, props.speed.to_bits(), frozen),
            move |(playing, speed, frozen)| {
                let mut r = renderer.borrow_mut();
                r.playing = *playing;
                r.speed = f64::from_bits(*speed);
                r.frozen_ms = frozen.map(f64::from_bits);
                r.blit_needed = true;
            },
        );
    }
    {
        let renderer = renderer.clone();
        use_effect_with(props.zoom_request, move |&(count, direction)| {
            if count > 0 {
                let mut r = renderer.borrow_mut();
                let (w, h, _) = r.size;
                let v = match direction {
                    0 => Viewport::default(),
                    d => r
                        .viewport
                        .zoom_at(if d > 0 { 2.0 } else { 0.5 }, w / 2.0, h / 2.0),
                };
                r.set_view(v);
            }
        });
    }

    let zoom_by = |factor: f64| {
        let renderer = renderer.clone();
        Callback::from(move |_: MouseEvent| renderer.borrow_mut().zoom_to_ring(factor))
    };
    let on_down = {
        let renderer = renderer.clone();
        Callback::from(move |e: PointerEvent| {
            let mut r = renderer.borrow_mut();
            r.pointers.retain(|p| p.0 != e.pointer_id());
            let (x, y) = (f64::from(e.offset_x()), f64::from(e.offset_y()));
            r.pointers.push((e.pointer_id(), x, y));
            r.tap = (r.pointers.len() == 1).then_some((x, y));
            if let Some(t) = e.target_dyn_into::<web_sys::Element>() {
                let _ = t.set_pointer_capture(e.pointer_id());
            }
        })
    };
    let on_move = {
        let renderer = renderer.clone();
        let hover = hover.clone();
        Callback::from(move |e: PointerEvent| {
            let (x, y) = (f64::from(e.offset_x()), f64::from(e.offset_y()));
            let mut r = renderer.borrow_mut();
            let id = e.pointer_id();
            let Some(i) = r.pointers.iter().position(|p| p.0 == id) else {
                // Not pressed: hover.
                hover.set(r.describe(x, y));
                return;
            };
            let (_, px, py) = r.pointers[i];
            if r.tap.is_some_and(|(tx, ty)| (x - tx).hypot(y - ty) > 4.0) {
                r.tap = None;
            }
            if r.pointers.len() == 2 {
                // Pinch: scale by the change in distance between the two pointers.
                let (_, ox, oy) = r.pointers[1 - i];
                let before = (px - ox).hypot(py - oy).max(1.0);
                let after = (x - ox).hypot(y - oy).max(1.0);
                let v = r
                    .viewport
                    .zoom_at(after / before, (x + ox) / 2.0, (y + oy) / 2.0);
                r.set_view(v);
            } else {
                let v = r.viewport.pan(x - px, y - py);
                r.set_view(v);
            }
            r.pointers[i] = (id, x, y);
        })
    };
    let on_up = {
        let renderer = renderer.clone();
        let hover = hover.clone();
        Callback::from(move |e: PointerEvent| {
            let mut r = renderer.borrow_mut();
            r.pointers.retain(|p| p.0 != e.pointer_id());
            // A tap (touch has no hover) describes what is under the finger.
            if let Some((x, y)) = r.tap.take() {
                hover.set(r.describe(x, y));
            }
        })
    };
    let on_leave = {
        let hover = hover.clone();
        // A lifted finger also "leaves": keep what a tap showed until the next tap.
        Callback::from(move |e: PointerEvent| {
            if e.pointer_type() != "touch" {
                hover.set(None);
            }
        })
    };

    let sim = &props.state.sim;
    let label = format!(
        "Hash ring: {} servers, {} keys. Scroll or pinch to zoom, drag to pan.",
        sim.servers().len(),
        sim.keys().len()
    );
    // The card is always in the tree (hidden when empty) so the canvas beside it is never
    // re-created by a change in the children's shape.
    let (card_title, card_lines) = (*hover).clone().unwrap_or_default();
    html! {
        <div class="ring-wrap">
            <canvas ref={canvas_ref} class="ring" role="img" aria-label={label}
                onpointerdown={on_down} onpointermove={on_move} onpointerup={on_up.clone()}
                onpointercancel={on_up} onpointerleave={on_leave} />
            <div class="zoom" role="group" aria-label="Zoom">
                <button type="button" title="Zoom in (+)" aria-label="Zoom in" onclick={zoom_by(2.0)}>{"+"}</button>
                <button type="button" title="Zoom out (−)" aria-label="Zoom out" onclick={zoom_by(0.5)}>{"−"}</button>
                <button type="button" title="Reset zoom (0)" aria-label="Reset zoom" onclick={zoom_by(0.0)}>{"⟲"}</button>
            </div>
            <div class="hover-card" role="tooltip" hidden={hover.is_none()}>
                <strong>{card_title}</strong>
                { for card_lines.into_iter().map(|l| html! { <div>{l}</div> }) }
            </div>
        </div>
    }
}
