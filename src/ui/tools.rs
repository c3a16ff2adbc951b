//! The page's tools for teachers and documentation authors: share (copy the link or an
//! `<iframe>` for the current view), export (PNG of the ring and charts, CSV of counts, of
//! every key's server and of the keys the last change moved — written in steps, so a million
//! keys never block the page — and the scenario as JSON; bringing one in is `import.rs`'s),
//! and the list of keyboard shortcuts.
//! Files are made in the browser and saved through a `blob:` link: no request leaves it.

use crate::text::fill;
use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement};
use yew::prelude::*;

use super::import::ImportForms;
use super::look::use_lang;
use super::stepped::{busy_line, Busy, Stepped};
use crate::file::{
    counts_csv, key_rows, moved_in_key_order, scenario_json, write_moved_rows, MOVED_HEADER,
};
use crate::i18n::Words;
use crate::render::qr::qr_picture;
use crate::state::{Action, PageState};
use crate::words::group_thousands;

/// Rows of the key export written per step (a step stays well under 50 ms).
const ROWS_PER_STEP: usize = 40_000;

/// Saves a CSV written a slice of rows per task (`rows(from, to)` writes rows `from..to` of
/// `total`), so a million rows never block the page; the progress shows meanwhile. Work
/// under way is not started twice.
fn export_csv(
    job: &Rc<RefCell<Stepped>>,
    progress: &UseStateHandle<Option<Busy>>,
    name: &'static str,
    header: &'static str,
    total: usize,
    mut rows: Box<dyn FnMut(usize, usize) -> String>,
) {
    if job.borrow().is_running() {
        return;
    }
    let progress = progress.clone();
    let parts = js_sys::Array::of1(&JsValue::from_str(header));
    let mut done = 0;
    progress.set(Some(Busy::Writing(0, total)));
    *job.borrow_mut() = Stepped::start(move || {
        let to = (done + ROWS_PER_STEP).min(total);
        parts.push(&JsValue::from_str(&rows(done, to)));
        done = to;
        if to == total {
            save_parts(name, "text/csv", &parts);
            progress.set(None);
            return false;
        }
        progress.set(Some(Busy::Writing(to, total)));
        true
    });
}

/// The page's document.
pub(super) fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// Saves `url` as `name` through a temporary link.
fn save_url(name: &str, url: &str) {
    let Some(doc) = document() else { return };
    let Some(a) = doc
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<HtmlAnchorElement>().ok())
    else {
        return;
    };
    a.set_href(url);
    a.set_download(name);
    a.set_class_name("download-link");
    if let Some(body) = doc.body() {
        let _ = body.append_child(&a);
        a.click();
        let _ = body.remove_child(&a);
    }
}

/// Saves text parts (joined) as a file of type `mime`.
fn save_parts(name: &str, mime: &str, parts: &js_sys::Array) {
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = Blob::new_with_str_sequence_and_options(parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    save_url(name, &url);
    // The download has its own reference; release ours after it started.
    Timeout::new(10_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
}

fn save_text(name: &str, mime: &str, text: &str) {
    save_parts(name, mime, &js_sys::Array::of1(&JsValue::from_str(text)));
}

/// The canvas matching `selector`.
fn canvas(selector: &str) -> Option<HtmlCanvasElement> {
    document()?.query_selector(selector).ok()??.dyn_into().ok()
}

/// Saves what a canvas shows, at its device resolution; the ring's moving layer is
/// composed over its static layer first.
fn save_png(name: &str, selector: &str, overlay: Option<&str>) {
    let Some(base) = canvas(selector) else { return };
    let source = match overlay.and_then(canvas) {
        Some(top) => {
            let Some(out) = document()
                .and_then(|d| d.create_element("canvas").ok())
                .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok())
            else {
                return;
            };
            out.set_width(base.width());
            out.set_height(base.height());
            let ctx = out
                .get_context("2d")
                .ok()
                .flatten()
                .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok());
            if let Some(ctx) = ctx {
                let _ = ctx.draw_image_with_html_canvas_element(&base, 0.0, 0.0);
                let _ = ctx.draw_image_with_html_canvas_element(&top, 0.0, 0.0);
            }
            out
        }
        None => base,
    };
    if let Ok(url) = source.to_data_url_with_type("image/png") {
        save_url(name, &url);
    }
}

/// Props of [`ExportCard`].
#[derive(Properties, PartialEq)]
pub struct ExportProps {
    /// The page state.
    pub state: PageState,
    /// Where actions go (an opened scenario loads).
    pub on_action: Callback<Action>,
}

/// Export buttons and the scenario file picker.
#[component]
pub fn ExportCard(props: &ExportProps) -> Html {
    let w = use_lang().words();
    let progress = use_state(|| None::<Busy>);
    let job = use_mut_ref(Stepped::default);
    let state = props.state.clone();
    let counts = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            save_text(
                "hashring-lab-counts.csv",
                "text/csv",
                &counts_csv(&state.sim),
            )
        })
    };
    let keys = {
        let (state, job, progress) = (state.clone(), job.clone(), progress.clone());
        Callback::from(move |_: MouseEvent| {
            let sim = state.sim.clone();
            let total = sim.keys().len();
            export_csv(
                &job,
                &progress,
                "hashring-lab-keys.csv",
                "key,position,server\n",
                total,
                Box::new(move |from, to| key_rows(&sim, from, to)),
            );
        })
    };
    // The migration list of the last change: a row per moved key, as `simulate --moved`
    // writes it (none when the change re-laid every key). Sorted into key order on the click.
    let moved_count = state
        .last
        .as_ref()
        .map_or(0, |last| last.movement.moved_places.len());
    let moved = state.last.clone().filter(|_| moved_count > 0).map(|last| {
        let (state, job, progress) = (state.clone(), job.clone(), progress.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(order) = moved_in_key_order(&state.sim, &last.movement) else {
                return;
            };
            let (state, last) = (state.clone(), last.clone());
            export_csv(
                &job,
                &progress,
                "hashring-lab-moved.csv",
                MOVED_HEADER,
                order.len(),
                Box::new(move |from, to| {
                    let mut out = Vec::new();
                    let name = |id| state.server_name(id);
                    let rows = &order[from..to];
                    let _ = write_moved_rows(&state.sim, &last.movement, rows, 1, &name, &mut out);
                    String::from_utf8(out).unwrap_or_default()
                }),
            );
        })
    });
    let json = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            save_text(
                "hashring-lab-scenario.json",
                "application/json",
                &scenario_json(&state.sim.scenario()),
            )
        })
    };
    let png = |name: &'static str, selector: &'static str, overlay: Option<&'static str>| {
        Callback::from(move |_: MouseEvent| save_png(name, selector, overlay))
    };
    html! {
        <details class="card tools export">
            <summary><h2>{w.export}</h2></summary>
            <div class="buttons">
                <button type="button" onclick={png("hashring-lab-ring.png", "canvas.ring", Some("canvas.ring-overlay"))}>{w.png_ring}</button>
                <button type="button" onclick={png("hashring-lab-load.png", "canvas.load", None)}>{w.png_load}</button>
                if state.sim.ring_shares().is_some() {
                    <button type="button" onclick={png("hashring-lab-share.png", "canvas.share", None)}>{w.png_share}</button>
                }
                <button type="button" onclick={counts}>{w.csv_counts}</button>
                <button type="button" class="export-keys" onclick={keys} disabled={progress.is_some()}>{w.csv_keys}</button>
                if let Some(moved) = moved {
                    <button type="button" class="export-moved" onclick={moved} disabled={progress.is_some()}>
                        {fill(w.csv_moved, &[&group_thousands(moved_count as u64)])}
                    </button>
                }
                <button type="button" onclick={json}>{w.scenario_json}</button>
            </div>
            <ImportForms on_action={props.on_action.clone()} />
            if let Some(busy) = *progress {
                <p class="export-progress" role="status">
                    {busy_line(w, busy)}
                    <progress max={busy.total().max(1).to_string()} value={busy.done().to_string()}></progress>
                </p>
            }
        </details>
    }
}

/// Props of [`ShareCard`].
#[derive(Properties, PartialEq)]
pub struct ShareProps {
    /// The link to the current view.
    pub link: String,
    /// The same view embedded.
    pub embed_link: String,
    /// The iframe's title.
    pub title: String,
    /// Shows the link as a QR code.
    pub on_qr: Callback<()>,
    /// True when the link is longer than a browser opens (the links are then empty, and
    /// the card says to share a scenario file).
    pub too_long: bool,
}

/// Copy the link or the `<iframe>` code for the current view.
#[component]
pub fn ShareCard(props: &ShareProps) -> Html {
    let w = use_lang().words();
    let copied = use_state(|| None::<&'static str>);
    let code =
        format!(
        "<iframe src=\"{}\" width=\"720\" height=\"460\" title=\"{}\" loading=\"lazy\"></iframe>",
        props.embed_link.replace('&', "&amp;").replace('"', "&quot;"),
        props.title.replace('&', "&amp;").replace('"', "&quot;")
    );
    let copy = |what: &'static str, text: String| {
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(window) = web_sys::window() {
                let _ = window.navigator().clipboard().write_text(&text);
            }
            copied.set(Some(what));
        })
    };
    let mark = |what: &'static str| {
        if *copied == Some(what) {
            html! { <span class="copied" role="status">{w.copied}</span> }
        } else {
            html! {}
        }
    };
    html! {
        <details class="card tools share">
            <summary><h2>{w.share}</h2></summary>
            if props.too_long {
                <p class="error link-too-long">{w.link_too_long}</p>
            } else {
                <label for="share-link">{w.link_field}</label>
                <div class="pair">
                    <input id="share-link" type="text" readonly=true value={props.link.clone()} />
                    <button type="button" onclick={copy("link", props.link.clone())}>{w.copy_link}</button>
                    <button type="button" title={w.qr_hint} onclick={props.on_qr.reform(|_| ())}>{w.qr_code}</button>
                    {mark("link")}
                </div>
                <label for="embed-code">{w.embed_field}</label>
                <textarea id="embed-code" readonly=true rows="3" value={code.clone()} />
                <div class="pair">
                    <button type="button" onclick={copy("embed", code)}>{w.copy_embed}</button>
                    {mark("embed")}
                </div>
            }
        </details>
    }
}

/// Props of [`Dialog`].
#[derive(Properties, PartialEq)]
pub struct DialogProps {
    /// The heading's id (the dialog's accessible name).
    pub title_id: AttrValue,
    /// The heading.
    pub title: AttrValue,
    /// Closes the dialog.
    pub on_close: Callback<()>,
    /// What it shows.
    pub children: Html,
}

/// A modal dialog over the page: its heading, its content and a Close button that has the
/// focus from the start (Esc closes it too, through the page's shortcuts).
#[component]
pub fn Dialog(props: &DialogProps) -> Html {
    let w = use_lang().words();
    let close = use_node_ref();
    {
        let close = close.clone();
        use_effect_with((), move |_| {
            if let Some(b) = close.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
        });
    }
    html! {
        <div class="backdrop">
            <div class="dialog" role="dialog" aria-modal="true" aria-labelledby={props.title_id.clone()}>
                <h2 id={props.title_id.clone()}>{props.title.clone()}</h2>
                {props.children.clone()}
                <button type="button" ref={close} class="primary" onclick={props.on_close.reform(|_| ())}>{w.close}</button>
            </div>
        </div>
    }
}

/// The list of keyboard shortcuts (`?`), closed with Esc or its button. A plain function,
/// not a component: it keeps nothing between renders.
pub fn shortcuts_dialog(w: &'static Words, on_close: Callback<()>) -> Html {
    html! {
        <Dialog title_id="shortcuts-title" title={w.shortcuts} on_close={on_close}>
            <table class="keys">
                <tbody>
                    { for w.shortcut_list.iter().map(|(k, what)| html! {
                        <tr><th scope="row"><kbd>{*k}</kbd></th><td>{*what}</td></tr>
                    }) }
                </tbody>
            </table>
        </Dialog>
    }
}

/// The link as a large QR code (`Q`), for the phones in a classroom. A plain function: the
/// code is encoded again on a render while it is open (well under a millisecond).
pub fn qr_dialog(w: &'static Words, link: &str, on_close: Callback<()>) -> Html {
    let picture = (!link.is_empty()).then(|| qr_picture(link)).flatten();
    html! {
        <Dialog title_id="qr-title" title={w.qr_code} on_close={on_close}>
            if let Some(p) = picture.as_ref() {
                if let Some(host) = crate::link::loopback_host(link) {
                    <p class="error qr-loopback" role="note">{fill(w.qr_loopback, &[host])}</p>
                }
                <p class="muted">{w.qr_caption}</p>
                <svg class="qr" role="img" aria-label={link.to_owned()} viewBox={format!("0 0 {0} {0}", p.side)}
                    shape-rendering="crispEdges">
                    <rect width={p.side.to_string()} height={p.side.to_string()} fill="#fff" />
                    <path d={p.path.clone()} fill="#000" />
                </svg>
                <p class="qr-link">{link.to_owned()}</p>
            } else {
                <p class="error">{w.qr_too_long}</p>
            }
        </Dialog>
    }
}
