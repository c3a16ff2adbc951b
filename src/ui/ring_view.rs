//! The ring component: owns two stacked canvases — the static layer, redrawn only when the
//! state or the view changes, and a transparent overlay for what moves, redrawn in each
//! animation frame while something moves (so a frame never copies the whole ring) — and the
//! animation loop, which sleeps when nothing moves ([`FrameLoop`]). Zoom, pan, taps and hover go
//! through the pure [`Gestures`] and [`Viewport`]; what is under the pointer comes from
//! [`scene::describe`]. The state arrives as a cheap shared handle: a frame copies no keys.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo_events::{EventListener, EventListenerOptions};
use gloo_render::{request_animation_frame, AnimationFrame};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, WheelEvent};
use yew::prelude::*;

use super::look::{use_look, Look};
use super::ring_canvas::{
    draw_overlay, draw_static, followed_walk, key_labels_record, walk_sum, Overlay,
};
use crate::render::gesture::{Gesture, Gestures};
use crate::render::scene::{
    self, idle_walkers, moved_walkers, Clock, Scale, Walker, HIGHLIGHT_MS, MAX_KEY_DOTS, WALK_MS,
};
use crate::render::{RingGeometry, Viewport};
use crate::state::{Goal, PageState};
use crate::text::Fixed;

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
    /// Keep the last change's moved keys marked after their walk.
    #[prop_or(true)]
    pub show_moved: bool,
    /// A click or tap on a key dot pins that key (looks it up and follows it).
    #[prop_or_default]
    pub on_pin: Callback<String>,
}

/// The two canvases and what needs redrawing.
#[derive(Default)]
struct Layers {
    canvas: NodeRef,
    overlay: NodeRef,
    static_dirty: bool,
    /// The overlay shows something that must be redrawn or cleared.
    overlay_dirty: bool,
    /// Width, height (CSS pixels) and device pixel ratio.
    size: (f64, f64, f64),
    /// Whether the overlay moved in its last frame, and when it was last drawn (ms).
    overlay_moving: bool,
    overlay_at: f64,
    /// Whether the overlay has anything on it. A blank overlay with nothing to draw is not
    /// touched: the page's first frame then neither creates its context nor uploads it
    /// (measured: 2–4 ms of that frame, tests/perf/first_paint.mjs).
    overlay_drawn: bool,
}

/// What moves, and the clock's inputs.
#[derive(Default)]
struct Motion {
    change_at: Option<f64>,
    moved: Vec<Walker>,
    idle: Vec<Walker>,
    playing: bool,
    speed: f64,
    frozen_ms: Option<f64>,
    show_moved: bool,
    /// The picture's accessible name: the algorithm and its counts, its own structure,
    /// and the followed key's walk on it.
    label: String,
}

impl Motion {
    fn clock(&self, now: f64) -> Clock {
        Clock {
            since_change_ms: match self.frozen_ms {
                Some(t) => self.change_at.map(|_| t),
                None => self.change_at.map(|t| now - t),
            },
            clock_ms: self.frozen_ms.unwrap_or(now),
            speed: self.speed,
            playing: self.playing,
        }
    }
}

/// Everything the animation loop needs, kept across renders.
#[derive(Default)]
struct Renderer {
    layers: Layers,
    motion: Motion,
    state: Option<PageState>,
    look: Look,
    viewport: Viewport,
    gestures: Gestures,
}

impl Renderer {
    fn base(&self) -> RingGeometry {
        RingGeometry::fit(self.layers.size.0, self.layers.size.1)
    }

    fn geometry(&self) -> (RingGeometry, Scale) {
        let base = self.base();
        let (w, h, _) = self.layers.size;
        let scale = Scale::new(base.radius, w, h);
        let scale = if self.look.present {
            let screen = web_sys::window()
                .and_then(|w| w.inner_height().ok())
                .and_then(|h| h.as_f64())
                .unwrap_or(h);
            scale.emphasised(screen)
        } else {
            scale
        };
        (self.viewport.apply(base), scale)
    }

    fn set_view(&mut self, v: Viewport) {
        if v != self.viewport {
            self.viewport = v;
            self.layers.static_dirty = true;
        }
    }

    /// The zoom of the buttons and the keyboard: toward the ring.
    fn zoom_to_ring(&mut self, factor: f64) {
        let (w, h, _) = self.layers.size;
        let v = self.viewport.zoom_to_ring(self.base(), factor, w, h);
        self.set_view(v);
    }

    /// What is under the CSS pixel (`x`, `y`), for the card.
    /// The key under (x, y), to pin.
    fn key_at(&self, x: f64, y: f64) -> Option<String> {
        let (g, s) = self.geometry();
        scene::key_at(&self.state.as_ref()?.sim, &g, &s, x, y)
    }

    fn describe(&self, x: f64, y: f64) -> Option<(String, Vec<String>)> {
        let (g, s) = self.geometry();
        scene::describe(
            self.look.lang.words(),
            &self.state.as_ref()?.sim,
            &g,
            &s,
            x,
            y,
        )
    }

    /// Follows the canvases' size.
    fn fit(&mut self, canvas: &HtmlCanvasElement, overlay: &HtmlCanvasElement) {
        let size = display_size(canvas);
        if size != self.layers.size {
            self.layers.size = size;
            for c in [canvas, overlay] {
                set_backing_size(c, size);
            }
            self.layers.static_dirty = true;
            // Resizing a canvas clears it.
            self.layers.overlay_drawn = false;
        }
    }

    /// Draws the static layer of `state` into `canvas` (sized already) and records on the
    /// canvas what it shows.
    fn draw_static_layer(&self, canvas: &HtmlCanvasElement, state: &PageState) {
        let (_, _, dpr) = self.layers.size;
        let (g, s) = self.geometry();
        let started = now_ms();
        if let Some(ctx) = context(canvas) {
            let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
            let key_labels = draw_static(
                &ctx,
                &g,
                &s,
                state,
                self.look.lang.words(),
                self.look.theme.palette(),
            );
            let _ = canvas.set_attribute("data-key-labels", &key_labels_record(&key_labels));
        }
        let _ = canvas.set_attribute("data-version", &state.version.to_string());
        let _ = canvas.set_attribute("data-zoom", &Fixed(self.viewport.zoom, 3).to_string());
        // Where the key dots sit (centre and radius, CSS pixels), for tests that click one.
        let keys_at = format!(
            "{},{},{}",
            Fixed(g.cx, 1),
            Fixed(g.cy, 1),
            Fixed(scene::key_radius(&g, &s), 1)
        );
        let _ = canvas.set_attribute("data-keys-circle", &keys_at);
        record_drawn(canvas, state);
        // How long the static layer took, for the page measurement.
        let _ = canvas.set_attribute("data-drawn-ms", &Fixed(now_ms() - started, 1).to_string());
    }

    /// One animation frame at time `now` (ms); false once nothing is left to draw (the loop
    /// then sleeps until something wakes it).
    fn frame(&mut self, now: f64) -> bool {
        // Read the elements every frame: the NodeRefs follow them if yew replaces them.
        let (Some(canvas), Some(overlay)) = (
            self.layers.canvas.cast::<HtmlCanvasElement>(),
            self.layers.overlay.cast::<HtmlCanvasElement>(),
        ) else {
            return false;
        };
        let Some(state) = self.state.clone() else {
            return false;
        };
        self.fit(&canvas, &overlay);
        let (w, h, dpr) = self.layers.size;
        let (g, s) = self.geometry();
        if self.layers.static_dirty {
            self.draw_static_layer(&canvas, &state);
            self.layers.static_dirty = false;
            self.layers.overlay_dirty = true;
        }
        // While a change is being computed, the last change's walk ends (cleared once): each
        // frame drawn would be time taken from the work, and the keys are about to move again.
        let clock = self.motion.clock(now);
        let idle = state.pending.is_none();
        let animating = idle && (clock.is_animating() || state.lookup.is_some());
        let marks = idle && self.motion.show_moved && !self.motion.moved.is_empty();
        // Redraw while something moves, then once more when it stops (clear, or the moved
        // keys' marks, which then stay without a redraw per frame).
        let was_moving = std::mem::replace(&mut self.layers.overlay_moving, animating);
        if !(animating || was_moving || self.layers.overlay_dirty) {
            return false;
        }
        // While no key walks — only the changed arcs fade, or a looked-up key's dot circles —
        // 20 frames a second are plenty: the moved keys' marks (up to 2,000 dots) are not
        // filled again 60 times a second (at 100,000 keys: 60 % of the main thread → 20 %).
        let calm = animating && !clock.playing && clock.walked() >= 1.0;
        if calm && !self.layers.overlay_dirty && now - self.layers.overlay_at < 50.0 {
            return true;
        }
        self.layers.overlay_dirty = false;
        self.layers.overlay_at = now;
        let draws = animating || marks;
        if !draws && !self.layers.overlay_drawn {
            return false;
        }
        let Some(ctx) = context(&overlay) else {
            return false;
        };
        let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        ctx.clear_rect(0.0, 0.0, w, h);
        self.layers.overlay_drawn = draws;
        if draws {
            let moving = Overlay {
                clock,
                moved: &self.motion.moved,
                idle: &self.motion.idle,
                marks,
            };
            let (w, p) = (self.look.lang.words(), self.look.theme.palette());
            draw_overlay(&ctx, &g, &s, &state, &moving, w, p);
        }
        true
    }

    /// A new state: restart the change animation when a change landed. The static layer
    /// shows only the simulation, so it is redrawn only when that or the look changed (not
    /// when work merely starts or a lookup is made). "The simulation changed" is its
    /// identity, not the version: the first scenario of a link that loads in steps replaces
    /// the placeholder with version 0 kept (the address bar keeps the link), and the ring
    /// must then be drawn all the same.
    fn adopt(&mut self, state: &PageState, look: Look) {
        let restyled = self.look != look;
        self.look = look;
        let old = self.state.as_ref();
        let changed = old.is_some_and(|old| old.version != state.version);
        let replaced = old.is_none_or(|old| !Rc::ptr_eq(&old.sim, &state.sim));
        if changed {
            self.motion.change_at = Some(now_ms());
            self.motion.moved = moved_walkers(&state.sim, state.last.as_deref(), MAX_KEY_DOTS);
        }
        if replaced {
            self.motion.idle = idle_walkers(&state.sim, 240);
        }
        if replaced || restyled {
            self.layers.static_dirty = true;
        }
        // The followed key's walk, once per state; the overlay canvas says what it shows,
        // the server it ends at and the arithmetic it writes (`data-walk`, `data-walk-end`,
        // `data-walk-sum`; empty without one), for the tests.
        let walk = followed_walk(state);
        if let Some(overlay) = self.layers.overlay.cast::<web_sys::Element>() {
            let (kind, end) = walk.map_or(("", ""), |w| {
                let end = state.sim.server(w.ends_at());
                (w.kind(), end.map_or("-", |s| s.name.as_str()))
            });
            let sum = walk.map(|w| walk_sum(state, w)).unwrap_or_default();
            let _ = overlay.set_attribute("data-walk", kind);
            let _ = overlay.set_attribute("data-walk-end", end);
            let _ = overlay.set_attribute("data-walk-sum", &sum);
        }
        let (w, sim) = (look.lang.words(), &state.sim);
        let followed = state.lookup.as_ref().filter(|_| walk.is_some());
        self.motion.label = format!(
            "{} {}",
            (w.ring_label)(
                crate::words::algorithm_title(w, sim.settings().algo),
                sim.servers().len(),
                &crate::words::group_thousands(sim.keys().len() as u64),
            ),
            crate::render::walk::picture_words(
                w,
                sim,
                followed.map(|l| (l.key.as_str(), &l.explanation))
            )
        );
        self.state = Some(state.clone());
        // The overlay shows the last state's frame: draw it (or clear it) for this one.
        self.layers.overlay_dirty = true;
    }
}

/// A canvas's size on screen: CSS width and height (at least 200 px each) and the device
/// pixel ratio.
fn display_size(canvas: &HtmlCanvasElement) -> (f64, f64, f64) {
    let dpr = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .max(1.0);
    let width = f64::from(canvas.client_width()).max(200.0);
    let height = f64::from(canvas.client_height()).max(200.0);
    (width, height, dpr)
}

fn set_backing_size(canvas: &HtmlCanvasElement, (width, height, dpr): (f64, f64, f64)) {
    canvas.set_width((width * dpr) as u32);
    canvas.set_height((height * dpr) as u32);
}

/// Draws the ring of `state` into `canvas` exactly as the ring view's first frame will
/// (the static layer at the default view, in `look`), before the app exists: the page's
/// shell shows the link's ring while the rest of the page is built (ui::start).
pub fn draw_first(canvas: &HtmlCanvasElement, state: &PageState, look: Look) {
    let mut renderer = Renderer {
        look,
        ..Renderer::default()
    };
    renderer.layers.size = display_size(canvas);
    set_backing_size(canvas, renderer.layers.size);
    renderer.draw_static_layer(canvas, state);
}

fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok()??.dyn_into().ok()
}

/// Records on the canvas what its static layer now shows, read from the very state it was
/// drawn from — `data-drawn-servers`, `data-drawn-vnodes`, `data-drawn-keys`, and
/// `data-drawn-loaded` once the link's scenario is placed (not the placeholder shown while
/// it loads in steps) — so tests compare the picture with the tables rather than trusting
/// that a repaint happened. The first loaded drawing sets the `ring-painted` performance
/// mark for the page measurement (tests/perf/measure.mjs).
fn record_drawn(canvas: &HtmlCanvasElement, state: &PageState) {
    let sim = &state.sim;
    let vnodes = sim.ring().map_or(0, |r| r.len());
    for (name, value) in [
        ("data-drawn-servers", sim.servers().len()),
        ("data-drawn-vnodes", vnodes),
        ("data-drawn-keys", sim.keys().len()),
    ] {
        let _ = canvas.set_attribute(name, &value.to_string());
    }
    let loading = state
        .pending
        .as_ref()
        .is_some_and(|p| matches!(p.goal, Goal::Open(_)));
    let _ = canvas.set_attribute("data-drawn-loaded", if loading { "0" } else { "1" });
    if loading {
        return;
    }
    if let Some(perf) = web_sys::window().and_then(|w| w.performance()) {
        if perf.get_entries_by_name("ring-painted").length() == 0 {
            let _ = perf.mark("ring-painted");
        }
    }
}

/// Whether the reader's system asks for less motion (`prefers-reduced-motion: reduce`).
fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// The page's clock in milliseconds (`performance.now()`).
pub(super) fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The animation loop. It asks the browser for frames only while the ring has something to
/// draw — a walk, a fading arc, a looked-up key circling, a layer to redraw — and then sleeps,
/// so a page left open (a projector through a lesson) costs no frames: idle, the per-frame
/// check alone kept 6–10 % of a core busy. Whatever changes the picture wakes it
/// ([`FrameLoop::wake`]): the state or look, the motion settings, zoom and pan, a resize.
#[derive(Clone)]
struct FrameLoop {
    renderer: Rc<RefCell<Renderer>>,
    next: Rc<RefCell<Option<AnimationFrame>>>,
    alive: Rc<Cell<bool>>,
}

impl FrameLoop {
    fn new(renderer: Rc<RefCell<Renderer>>) -> Self {
        FrameLoop {
            renderer,
            next: Rc::default(),
            alive: Rc::new(Cell::new(true)),
        }
    }

    /// Asks for the next frame unless one is asked for already (or the ring is gone).
    fn wake(&self) {
        if !self.alive.get() || self.next.borrow().is_some() {
            return;
        }
        let me = self.clone();
        *self.next.borrow_mut() = Some(request_animation_frame(move |t| {
            let busy = me.renderer.borrow_mut().frame(t);
            me.next.borrow_mut().take();
            if busy {
                me.wake();
            }
        }));
    }

    /// Changes the renderer and wakes the loop to draw the change.
    fn update<T>(&self, change: impl FnOnce(&mut Renderer) -> T) -> T {
        let out = change(&mut self.renderer.borrow_mut());
        self.wake();
        out
    }

    /// The component is gone: no more frames.
    fn stop(&self) {
        self.alive.set(false);
        self.next.borrow_mut().take();
    }
}

/// Starts the loop, the wheel zoom and the resize watch once; all stop when the component
/// goes. Returns the loop, for whatever else changes the picture to wake it.
#[hook]
fn use_ring_loop(
    renderer: Rc<RefCell<Renderer>>,
    canvas_ref: NodeRef,
    overlay_ref: NodeRef,
) -> FrameLoop {
    // The loop knows its canvases from the start (yew fills the refs when it attaches the
    // elements, before any frame runs), so a frame asked for during the first render draws.
    let frames = (*use_memo((), |_| {
        let mut r = renderer.borrow_mut();
        r.layers.canvas = canvas_ref.clone();
        r.layers.overlay = overlay_ref;
        drop(r);
        FrameLoop::new(renderer)
    }))
    .clone();
    let looping = frames.clone();
    use_effect_with((), move |_| {
        // Non-passive, so the page does not scroll while the ring zooms.
        let wheel = canvas_ref.cast::<HtmlCanvasElement>().map(|c| {
            let looping = looping.clone();
            EventListener::new_with_options(
                &c,
                "wheel",
                EventListenerOptions::enable_prevent_default(),
                move |e| {
                    let Some(e) = e.dyn_ref::<WheelEvent>() else {
                        return;
                    };
                    e.prevent_default();
                    let factor = crate::math::exp(-e.delta_y() * 0.0015);
                    let (x, y) = (f64::from(e.offset_x()), f64::from(e.offset_y()));
                    looping.update(|r| r.set_view(r.viewport.zoom_at(factor, x, y)));
                },
            )
        });
        // The canvas follows the window (a frame fits it to its new size).
        let resize = web_sys::window().map(|w| {
            let looping = looping.clone();
            EventListener::new(&w, "resize", move |_| looping.wake())
        });
        move || {
            looping.stop();
            drop((wheel, resize));
        }
    });
    frames
}

/// The canvas's pointer handlers.
struct PointerCallbacks {
    down: Callback<PointerEvent>,
    moved: Callback<PointerEvent>,
    up: Callback<PointerEvent>,
    leave: Callback<PointerEvent>,
}

/// Pointer events through the pure [`Gestures`]: pan, pinch, tap and hover.
#[hook]
fn use_pointer(
    frames: FrameLoop,
    hover: UseStateHandle<Option<(String, Vec<String>)>>,
    on_pin: Callback<String>,
) -> PointerCallbacks {
    let down = {
        let renderer = frames.renderer.clone();
        Callback::from(move |e: PointerEvent| {
            let (x, y) = (f64::from(e.offset_x()), f64::from(e.offset_y()));
            renderer.borrow_mut().gestures.down(e.pointer_id(), x, y);
            if let Some(t) = e.target_dyn_into::<web_sys::Element>() {
                let _ = t.set_pointer_capture(e.pointer_id());
            }
        })
    };
    let moved = {
        let (frames, hover) = (frames.clone(), hover.clone());
        Callback::from(move |e: PointerEvent| {
            let (x, y) = (f64::from(e.offset_x()), f64::from(e.offset_y()));
            frames.update(|r| {
                let view = r.viewport;
                match r.gestures.moved(e.pointer_id(), x, y, &view) {
                    Gesture::Hover(x, y) => hover.set(r.describe(x, y)),
                    Gesture::View(v) => r.set_view(v),
                }
            });
        })
    };
    let up = {
        let hover = hover.clone();
        Callback::from(move |e: PointerEvent| {
            let mut r = frames.renderer.borrow_mut();
            // A tap (touch has no hover) describes what is under the finger; on a key dot
            // it also pins that key.
            if let Some((x, y)) = r.gestures.up(e.pointer_id()) {
                hover.set(r.describe(x, y));
                if let Some(key) = r.key_at(x, y) {
                    on_pin.emit(key);
                }
            }
        })
    };
    // A lifted finger also "leaves": keep what a tap showed until the next tap.
    let leave = Callback::from(move |e: PointerEvent| {
        if e.pointer_type() != "touch" {
            hover.set(None);
        }
    });
    PointerCallbacks {
        down,
        moved,
        up,
        leave,
    }
}

/// The ring canvas with zoom controls and a hover card.
#[component]
pub fn RingView(props: &RingProps) -> Html {
    let (canvas_ref, overlay_ref) = (use_node_ref(), use_node_ref());
    let renderer = use_mut_ref(Renderer::default);
    let hover = use_state(|| None::<(String, Vec<String>)>);
    let look = use_look();
    let w = look.lang.words();
    let frames = use_ring_loop(renderer, canvas_ref.clone(), overlay_ref.clone());
    // The state and the look reach the renderer while yew renders, not in an effect: yew
    // runs effects only after letting the browser paint a first render that took long (the
    // whole page's), so the ring's first frame with its data waited a frame more (~70–100
    // ms). A frame asked for now runs before that paint. (`adopt` tells what changed; a
    // render for other props redraws the overlay once, no more.)
    frames.update(|r| r.adopt(&props.state, look));
    // A reader who asked for less motion sees each change's final state at once: the
    // clock stands past the walk and the glow (the moved keys stay marked).
    let reduced = *use_memo((), |_| prefers_reduced_motion());
    let frozen_ms = props
        .frozen_ms
        .or(reduced.then_some(HIGHLIGHT_MS.max(WALK_MS) * 4.0));
    {
        let frames = frames.clone();
        let inputs = (
            props.playing,
            props.speed.to_bits(),
            frozen_ms.map(f64::to_bits),
            props.show_moved,
        );
        use_effect_with(inputs, move |&(playing, speed, frozen, show_moved)| {
            frames.update(|r| {
                r.motion.show_moved = show_moved;
                r.motion.playing = playing;
                r.motion.speed = f64::from_bits(speed);
                r.motion.frozen_ms = frozen.map(f64::from_bits);
                r.layers.overlay_dirty = true;
            });
        });
    }
    {
        let frames = frames.clone();
        use_effect_with(props.zoom_request, move |&(count, direction)| {
            if count > 0 {
                let factor = match direction {
                    0 => 0.0,
                    d if d > 0 => 2.0,
                    _ => 0.5,
                };
                frames.update(|r| r.zoom_to_ring(factor));
            }
        });
    }
    let zoom_by = |factor: f64| {
        let frames = frames.clone();
        Callback::from(move |_: MouseEvent| frames.update(|r| r.zoom_to_ring(factor)))
    };
    let pointer = use_pointer(frames.clone(), hover.clone(), props.on_pin.clone());
    // Its accessible name says what is drawn (the renderer words it with the state).
    let label = frames.update(|r| r.motion.label.clone());
    // The card is always in the tree (hidden when empty) so the canvas beside it is never
    // re-created by a change in the children's shape.
    let (card_title, card_lines) = (*hover).clone().unwrap_or_default();
    html! {
        <div class="ring-wrap">
            <canvas ref={canvas_ref} class="ring" role="img" aria-label={label}
                onpointerdown={pointer.down} onpointermove={pointer.moved} onpointerup={pointer.up.clone()}
                onpointercancel={pointer.up} onpointerleave={pointer.leave} />
            <canvas ref={overlay_ref} class="ring-overlay" aria-hidden="true" />
            <div class="zoom" role="group" aria-label={w.zoom}>
                <button type="button" title={w.zoom_in} aria-label={w.zoom_in} onclick={zoom_by(2.0)}>{"+"}</button>
                <button type="button" title={w.zoom_out} aria-label={w.zoom_out} onclick={zoom_by(0.5)}>{"−"}</button>
                <button type="button" title={w.zoom_reset} aria-label={w.zoom_reset} onclick={zoom_by(0.0)}>{"⟲"}</button>
            </div>
            <div class="hover-card" role="tooltip" hidden={hover.is_none()}>
                <strong>{card_title}</strong>
                { for card_lines.into_iter().map(|l| html! { <div>{l}</div> }) }
            </div>
        </div>
    }
}
