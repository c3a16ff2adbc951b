//! The page's tools for teachers and documentation authors: share (copy the link or an
//! `<iframe>` for the current view), export (PNG of the ring and charts, CSV of counts, of
//! every key's server and of the keys the last change moved — written in steps, so a million
//! keys never block the page — and the scenario as JSON), open a scenario file, and the list of keyboard shortcuts.
//! Files are made in the browser and saved through a `blob:` link: no request leaves it.

use gloo_timers::callback::Timeout;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, HtmlInputElement,
    HtmlTextAreaElement,
};
use yew::prelude::*;

use super::stepped::Stepped;
use super::use_lang;
use crate::engine::scenario::repeated_names;
use crate::file::{
    check_file_size, counts_csv, field_name_problems, key_rows, moved_in_key_order, read_scenario,
    scenario_json, top_level_fields, write_moved_rows, FieldValue, MAX_FIELDS, MOVED_HEADER,
};
use crate::i18n::Words;
use crate::problem::{JsonKind, Problem};
use crate::render::qr::qr_picture;
use crate::state::{Action, Notice, PageState};
use crate::words::group_thousands;

/// Rows of the key export written per step (a step stays well under 50 ms).
const ROWS_PER_STEP: usize = 40_000;

/// Saves a CSV written a slice of rows per task (`rows(from, to)` writes rows `from..to` of
/// `total`), so a million rows never block the page; the progress shows meanwhile. Work
/// under way is not started twice.
fn export_csv(
    job: &std::rc::Rc<std::cell::RefCell<Stepped>>,
    progress: &UseStateHandle<Option<(usize, usize)>>,
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
    progress.set(Some((0, total)));
    *job.borrow_mut() = Stepped::start(move || {
        let to = (done + ROWS_PER_STEP).min(total);
        parts.push(&JsValue::from_str(&rows(done, to)));
        done = to;
        if to == total {
            save_parts(name, "text/csv", &parts);
            progress.set(None);
            return false;
        }
        progress.set(Some((to, total)));
        true
    });
}

fn document() -> Option<web_sys::Document> {
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

/// Reads a scenario file's text: the browser parses the JSON, [`read_scenario`] checks it.
fn scenario_from_text(text: &str) -> Result<crate::engine::scenario::Scenario, Vec<Problem>> {
    // A file with more fields than a scenario has is judged by their names alone, before
    // the browser parses it into 100,000 values.
    let found = top_level_fields(text);
    if found.count > MAX_FIELDS {
        return Err(field_name_problems(&found));
    }
    let names = found.names;
    let value = js_sys::JSON::parse(text).map_err(|_| vec![Problem::NotJson])?;
    if !value.is_object() || js_sys::Array::is_array(&value) {
        return Err(vec![Problem::NotObject]);
    }
    // JSON.parse keeps the last of a repeated field: refuse the file instead (the URL
    // refuses repeats too).
    let repeated = repeated_names(names.iter().map(String::as_str));
    if !repeated.is_empty() {
        return Err(crate::problem::capped(repeated));
    }
    let object: js_sys::Object = value.unchecked_into();
    let fields: Vec<(String, FieldValue)> = js_sys::Object::entries(&object)
        .iter()
        .filter_map(|entry| {
            let pair: js_sys::Array = entry.unchecked_into();
            let key = pair.get(0).as_string()?;
            let v = pair.get(1);
            let value = if let Some(s) = v.as_string() {
                FieldValue::Text(s)
            } else if let Some(n) = v.as_f64() {
                FieldValue::Number(n)
            } else if v.is_null() {
                FieldValue::Other(JsonKind::Null)
            } else if js_sys::Array::is_array(&v) {
                FieldValue::Other(JsonKind::List)
            } else if v.is_object() {
                FieldValue::Other(JsonKind::Object)
            } else {
                FieldValue::Other(JsonKind::Boolean)
            };
            Some((key, value))
        })
        .collect();
    read_scenario(&fields)
}

/// A scenario value's text, empty when there is none.
fn text_of(value: Option<&impl std::fmt::Display>) -> String {
    value.map_or_else(String::new, ToString::to_string)
}

/// The scenario a pasted config describes over `state`'s other settings, and the backup
/// servers it leaves out.
fn scenario_from_config(
    state: &PageState,
    text: &str,
) -> Result<(crate::engine::scenario::Scenario, Vec<String>), Problem> {
    let imported = crate::engine::import::read_config(text)?;
    let mut pairs = state.sim.scenario().to_pairs();
    for (name, value) in &mut pairs {
        match *name {
            "algo" => *value = imported.algo.name().to_owned(),
            "nodes" => value.clone_from(&imported.nodes),
            "down" => value.clone_from(&imported.down),
            // A real cluster's own slot table or tokens, or none (the dealt or drawn ones).
            "slotmap" => *value = text_of(imported.slots.as_ref()),
            "tokens" => *value = text_of(imported.tokens.as_ref()),
            "vnodes" => {
                if let Some(v) = imported.vnodes {
                    *value = v.to_string();
                }
            }
            _ => {}
        }
    }
    crate::engine::scenario::Scenario::from_pairs(pairs.iter().map(|(k, v)| (*k, v.as_str())))
        .map(|scenario| (scenario, imported.backups))
        .map_err(|e| {
            e.0.into_iter()
                .next()
                .unwrap_or(Problem::Internal("no problem"))
        })
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
    let progress = use_state(|| None::<(usize, usize)>);
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
    let open = {
        let on_action = props.on_action.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            input.set_value("");
            if let Err(too_large) = check_file_size(file.size()) {
                on_action.emit(Action::Notify(Notice::BadFile(std::rc::Rc::from([
                    too_large,
                ]))));
                return;
            }
            let Ok(reader) = web_sys::FileReader::new() else {
                return;
            };
            let on_action = on_action.clone();
            let reader_in = reader.clone();
            let onload = Closure::once_into_js(move || {
                let text = reader_in.result().ok().and_then(|r| r.as_string());
                let action = match text.map(|t| scenario_from_text(&t)) {
                    Some(Ok(scenario)) => Action::Load(scenario),
                    Some(Err(reason)) => Action::Notify(Notice::BadFile(reason.into())),
                    None => {
                        Action::Notify(Notice::BadFile(std::rc::Rc::from([Problem::Unreadable])))
                    }
                };
                on_action.emit(action);
            });
            reader.set_onload(Some(onload.unchecked_ref()));
            let _ = reader.read_as_text(&file);
        })
    };
    // A pasted nginx upstream or HAProxy backend: its system, servers, weights and down
    // ones over the current scenario's other settings.
    let config_text = use_node_ref();
    let use_config = {
        let (on_action, state, config_text) =
            (props.on_action.clone(), state.clone(), config_text.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(area) = config_text.cast::<HtmlTextAreaElement>() else {
                return;
            };
            on_action.emit(match scenario_from_config(&state, &area.value()) {
                Ok((scenario, backups)) => Action::LoadConfig(scenario, backups.into()),
                Err(problem) => Action::Reject(problem),
            });
        })
    };
    // The user's own keys, one per line: they replace the key set (and go into the link).
    let keys_text = use_node_ref();
    let use_keys = {
        let (on_action, keys_text) = (props.on_action.clone(), keys_text.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(area) = keys_text.cast::<HtmlTextAreaElement>() {
                on_action.emit(Action::PasteKeys(area.value()));
            }
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
                        {(w.csv_moved)(&group_thousands(moved_count as u64))}
                    </button>
                }
                <button type="button" onclick={json}>{w.scenario_json}</button>
                <label class="file-button">
                    {w.open_scenario}
                    <input type="file" id="open-scenario" accept=".json,application/json" onchange={open} />
                </label>
            </div>
            <label for="config-text">{w.paste_config}</label>
            <textarea id="config-text" rows="4" spellcheck="false" ref={config_text} />
            <button type="button" class="use-config" onclick={use_config}>{w.use_config}</button>
            <label for="keys-text">{w.paste_keys}</label>
            <textarea id="keys-text" rows="4" spellcheck="false" placeholder="user:42" ref={keys_text} />
            <button type="button" class="use-keys" onclick={use_keys}>{w.use_keys}</button>
            if let Some((done, total)) = *progress {
                <p class="export-progress" role="status">
                    {(w.exporting)(&group_thousands(done as u64), &group_thousands(total as u64))}
                    <progress max={total.to_string()} value={done.to_string()}></progress>
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
    /// The link's length in bytes when it is longer than a browser opens (the links are
    /// then empty, and the card says to share a scenario file).
    pub too_long: Option<usize>,
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
            if let Some(bytes) = props.too_long {
                <p class="error link-too-long">
                    {(w.link_too_long)(&format!("{} MB", crate::engine::text::Fixed(bytes as f64 / 1048576.0, 1)))}
                </p>
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
