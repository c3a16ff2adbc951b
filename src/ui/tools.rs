//! The page's tools for teachers and documentation authors: share (copy the link or an
//! `<iframe>` for the current view), export (PNG of the ring and charts, CSV of counts, of
//! every key's server and of the keys the last change moved — written in steps, so a million
//! keys never block the page — and the scenario as JSON), open a scenario file, and the list of keyboard shortcuts.
//! Files are made in the browser and saved through a `blob:` link: no request leaves it.

use crate::text::fill;
use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, HtmlInputElement,
    HtmlTextAreaElement,
};
use yew::prelude::*;

use super::look::use_lang;
use super::stepped::Stepped;
use crate::engine::change::Change;
use crate::engine::import::Imported;
use crate::engine::keys::list_from_lines_paced;
use crate::engine::pace::{Pace, Paused, Progress};
use crate::engine::scenario::{repeated_names, Scenario};
use crate::file::{
    check_file_size, counts_csv, field_name_problems, key_rows, moved_in_key_order,
    read_scenario_paced, scenario_json, top_level_fields, write_moved_rows, FieldValue, MAX_FIELDS,
    MOVED_HEADER,
};
use crate::i18n::Words;
use crate::problem::{JsonKind, Problem};
use crate::render::qr::qr_picture;
use crate::state::{Action, Notice, PageState};
use crate::words::group_thousands;

/// Rows of the key export written per step (a step stays well under 50 ms).
const ROWS_PER_STEP: usize = 40_000;

/// What the export card is doing in steps, for its progress line.
#[derive(Clone, Copy, PartialEq)]
enum Busy {
    /// Writing rows of a CSV: done of total.
    Writing(usize, usize),
    /// Reading a pasted text or an opened file: the pass under way, done of total units.
    Reading(Progress),
}

impl Busy {
    /// Units done, of [`Busy::total`].
    fn done(self) -> usize {
        match self {
            Busy::Writing(done, _) => done,
            Busy::Reading(p) => p.done,
        }
    }

    fn total(self) -> usize {
        match self {
            Busy::Writing(_, total) => total,
            Busy::Reading(p) => p.total,
        }
    }
}

/// The progress line's words: rows written of all, or the percentage of the pass read.
fn busy_line(w: &Words, busy: Busy) -> String {
    let (done, total) = (busy.done(), busy.total());
    match busy {
        Busy::Writing(..) => fill(
            w.exporting,
            &[
                &group_thousands(done as u64),
                &group_thousands(total as u64),
            ],
        ),
        Busy::Reading(_) => fill(
            w.reading,
            &[&(done.saturating_mul(100) / total.max(1))
                .min(100)
                .to_string()],
        ),
    }
}

/// A reading step's budget in [`Pace`] units (about a byte each: ~40 ms of the page).
const READ_STEP: usize = 1_000_000;

/// Runs the reading `read` makes of a pace, a step per browser task with its progress in
/// `busy` meanwhile, and hands its answer to `done`. A reading already under way is not
/// started twice.
fn read_in_steps<T: 'static>(
    job: &Rc<RefCell<Stepped>>,
    busy: &UseStateHandle<Option<Busy>>,
    read: impl FnOnce(Pace) -> Paused<T>,
    done: impl FnOnce(T) + 'static,
) {
    if job.borrow().is_running() {
        return;
    }
    let pace = Pace::per_step(READ_STEP);
    let progress = pace.progress();
    let mut reading = read(pace);
    let (mut done, mut answer) = (Some(done), None);
    let busy = busy.clone();
    busy.set(Some(Busy::Reading(progress.get())));
    // The answer is handed over in a task of its own (loading what was read is work too).
    *job.borrow_mut() = Stepped::start(move || {
        if let Some(answer) = answer.take() {
            if let Some(done) = done.take() {
                done(answer);
            }
            return false;
        }
        answer = reading.step();
        busy.set(match answer {
            Some(_) => None,
            None => Some(Busy::Reading(progress.get())),
        });
        true
    });
}

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

/// Reads a scenario file's text: the browser parses the JSON, [`read_scenario_paced`]
/// checks it. The field names are scanned, the JSON parsed and its values copied each in a
/// step of its own; a million tokens or keys are then read a step at a time.
async fn scenario_from_text(
    text: js_sys::JsString,
    mut pace: Pace,
) -> Result<Scenario, Vec<Problem>> {
    let text = text_in_steps(text, &mut pace).await;
    // A file with more fields than a scenario has is judged by their names alone, before
    // the browser parses it into 100,000 values.
    let found = top_level_fields(&text);
    if found.count > MAX_FIELDS {
        return Err(field_name_problems(&found));
    }
    pace.pause().await;
    let value = js_sys::JSON::parse(&text).map_err(|_| vec![Problem::NotJson])?;
    drop(text);
    if !value.is_object() || js_sys::Array::is_array(&value) {
        return Err(vec![Problem::NotObject]);
    }
    // JSON.parse keeps the last of a repeated field: refuse the file instead (the URL
    // refuses repeats too).
    let repeated = repeated_names(found.names.iter().map(String::as_str));
    if !repeated.is_empty() {
        return Err(crate::problem::capped(repeated));
    }
    pace.pause().await;
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
    pace.pause().await;
    read_scenario_paced(&fields, &mut pace).await
}

/// What a pasted config describes, read at `pace` (the state applies it).
async fn read_config(text: js_sys::JsString, mut pace: Pace) -> Result<Imported, Problem> {
    let text = text_in_steps(text, &mut pace).await;
    crate::engine::import::read_config_paced(&text, &mut pace).await
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
    let open = {
        let (on_action, job, progress) = (props.on_action.clone(), job.clone(), progress.clone());
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            input.set_value("");
            if let Err(too_large) = check_file_size(file.size()) {
                on_action.emit(Action::Notify(Notice::BadFile(Rc::from([too_large]))));
                return;
            }
            let Ok(reader) = web_sys::FileReader::new() else {
                return;
            };
            let (on_action, job, progress) = (on_action.clone(), job.clone(), progress.clone());
            let reader_in = reader.clone();
            let onload = Closure::once_into_js(move || {
                let Some(text) = reader_in
                    .result()
                    .ok()
                    .and_then(|r| r.dyn_into::<js_sys::JsString>().ok())
                else {
                    on_action.emit(Action::Notify(Notice::BadFile(Rc::from([
                        Problem::Unreadable,
                    ]))));
                    return;
                };
                read_in_steps(
                    &job,
                    &progress,
                    |pace| Paused::new(scenario_from_text(text, pace)),
                    move |read| {
                        on_action.emit(match read {
                            Ok(scenario) => Action::Load(scenario),
                            Err(reason) => Action::Notify(Notice::BadFile(reason.into())),
                        })
                    },
                );
            });
            reader.set_onload(Some(onload.unchecked_ref()));
            let _ = reader.read_as_text(&file);
        })
    };
    // A pasted nginx upstream or HAProxy backend: its system, servers, weights and down
    // ones over the current scenario's other settings.
    let use_config = {
        let on_action = props.on_action.clone();
        let (job, progress) = (job.clone(), progress.clone());
        Callback::from(move |text: js_sys::JsString| {
            let on_action = on_action.clone();
            read_in_steps(
                &job,
                &progress,
                |pace| Paused::new(read_config(text, pace)),
                move |read| {
                    on_action.emit(match read {
                        Ok(imported) => Action::PasteConfig(Rc::new(imported)),
                        Err(problem) => Action::Reject(problem),
                    })
                },
            );
        })
    };
    // The user's own keys, one per line: they replace the key set (and go into the link).
    let use_keys = {
        let on_action = props.on_action.clone();
        let (job, progress) = (job.clone(), progress.clone());
        Callback::from(move |text: js_sys::JsString| {
            let on_action = on_action.clone();
            read_in_steps(
                &job,
                &progress,
                |mut pace| {
                    Paused::new(async move {
                        let text = text_in_steps(text, &mut pace).await;
                        list_from_lines_paced(&text, &mut pace).await
                    })
                },
                move |read| {
                    on_action.emit(match read {
                        Ok(keys) => Action::Apply(Change::SetKeys(keys)),
                        Err(problem) => Action::Reject(problem),
                    })
                },
            );
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
                <label class="file-button">
                    {w.open_scenario}
                    <input type="file" id="open-scenario" accept=".json,application/json" onchange={open} />
                </label>
            </div>
            <PasteBox id="config-text" label={w.paste_config} placeholder="" button_class="use-config"
                button={w.use_config} busy={progress.is_some()} on_use={use_config} />
            <PasteBox id="keys-text" label={w.paste_keys} placeholder="user:42" button_class="use-keys"
                button={w.use_keys} busy={progress.is_some()} on_use={use_keys} />
            if let Some(busy) = *progress {
                <p class="export-progress" role="status">
                    {busy_line(w, busy)}
                    <progress max={busy.total().max(1).to_string()} value={busy.done().to_string()}></progress>
                </p>
            }
        </details>
    }
}

/// A paste longer than this is held by the page instead of shown in the box: a browser
/// lays out every character a text box holds, again whenever the page around it changes
/// (a 15 MB paste took seconds per layout).
const HELD_PASTE_BYTES: usize = 64 * 1024;

/// Props of [`PasteBox`].
#[derive(Properties, PartialEq)]
pub struct PasteBoxProps {
    /// The text box's id (its label points at it).
    pub id: &'static str,
    /// What to paste.
    pub label: &'static str,
    /// An example, shown while the box is empty.
    pub placeholder: &'static str,
    /// The button's words and class.
    pub button: &'static str,
    pub button_class: &'static str,
    /// True while a reading is under way (the button waits).
    pub busy: bool,
    /// Takes the text when the button is pressed.
    pub on_use: Callback<js_sys::JsString>,
}

/// A text box for a pasted config or key list, and its button. A long paste is kept out
/// of the box — held here and said in a line with its size — so that no layout of the
/// page has to shape megabytes of text; typing in the box lets it go.
#[component]
pub fn PasteBox(props: &PasteBoxProps) -> Html {
    let w = use_lang().words();
    let area = use_node_ref();
    let held = use_state(|| None::<Held>);
    let onpaste = {
        let held = held.clone();
        Callback::from(move |e: Event| {
            let Some(data) = e
                .dyn_ref::<web_sys::ClipboardEvent>()
                .and_then(web_sys::ClipboardEvent::clipboard_data)
            else {
                return;
            };
            // The text stays a JavaScript string until it is read, in steps.
            let text = clipboard_text(&data);
            if text.length() as usize > HELD_PASTE_BYTES {
                e.prevent_default();
                let box_: HtmlTextAreaElement = e.target_unchecked_into();
                box_.set_value("");
                // Lines as a reader counts them (a last line break ends a line, starts none).
                let breaks = text.split("\n").length() as u64;
                let lines = breaks - u64::from(text.ends_with("\n", text.length() as i32));
                held.set(Some(Held { text, lines }));
            } else {
                held.set(None);
            }
        })
    };
    let oninput = {
        let held = held.clone();
        Callback::from(move |_: InputEvent| held.set(None))
    };
    let onclick = {
        let (area, held, on_use) = (area.clone(), held.clone(), props.on_use.clone());
        Callback::from(move |_: MouseEvent| match &*held {
            Some(held) => on_use.emit(held.text.clone()),
            None => {
                if let Some(area) = area.cast::<HtmlTextAreaElement>() {
                    on_use.emit(js_sys::JsString::from(area.value()));
                }
            }
        })
    };
    let forget = {
        let held = held.clone();
        Callback::from(move |_: MouseEvent| held.set(None))
    };
    html! {
        <>
            <label for={props.id}>{props.label}</label>
            <textarea id={props.id} rows="4" spellcheck="false" placeholder={props.placeholder}
                ref={area} onpaste={onpaste} oninput={oninput} />
            if let Some(held) = &*held {
                <p class="held-paste" aria-live="polite">
                    {fill(w.held_paste, &[&size_text(held.text.length() as usize), &group_thousands(held.lines)])}
                    {" "}
                    <button type="button" class="forget-paste" onclick={forget}>{w.forget_paste}</button>
                </p>
            }
            <button type="button" class={props.button_class} onclick={onclick} disabled={props.busy}>{props.button}</button>
        </>
    }
}

/// A long paste held out of its box: the text, and its line count.
#[derive(Clone, PartialEq)]
struct Held {
    text: js_sys::JsString,
    lines: u64,
}

/// `DataTransfer.getData('text/plain')` as a JavaScript string (web-sys's `get_data` copies
/// it into the module at once: megabytes in the paste's own task).
fn clipboard_text(data: &web_sys::DataTransfer) -> js_sys::JsString {
    js_sys::Reflect::get(data, &JsValue::from_str("getData"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call1(data, &JsValue::from_str("text/plain")).ok())
        .and_then(|t| t.dyn_into::<js_sys::JsString>().ok())
        .unwrap_or_default()
}

/// Copies a JavaScript string into the module a slice per step (a 15 MB text took ~130 ms
/// in one piece).
async fn text_in_steps(text: js_sys::JsString, pace: &mut Pace) -> String {
    const SLICE: u32 = 1 << 20;
    let len = text.length();
    let mut out = String::with_capacity(len as usize);
    pace.begin(len as usize);
    let mut at = 0;
    while at < len {
        let mut end = at.saturating_add(SLICE).min(len);
        // Not between the two halves of a surrogate pair.
        if end < len && (0xD800..0xDC00).contains(&(text.char_code_at(end - 1) as u32)) {
            end -= 1;
        }
        out.push_str(&String::from(text.slice(at, end)));
        pace.tick((end - at) as usize).await;
        at = end;
    }
    out
}

/// A size in bytes as people say it: `820 KB`, `14.6 MB`.
fn size_text(bytes: usize) -> String {
    if bytes >= 1024 * 1024 {
        format!(
            "{} MB",
            crate::text::Fixed(bytes as f64 / (1024.0 * 1024.0), 1)
        )
    } else {
        format!("{} KB", bytes.div_ceil(1024))
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
