//! Browser tests (wasm-bindgen-test in headless Chromium): the app mounts into a page,
//! paints the ring, and shows the scenario's numbers; render geometry holds in wasm too.
#![allow(clippy::unwrap_used)] // A test that cannot go on fails loudly, where it stopped.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use hashring_lab::render::{circular_distance, RingGeometry};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlCanvasElement;

wasm_bindgen_test_configure!(run_in_browser);

/// Polls `condition` every animation-ish tick until it holds (at most ~5 s).
async fn wait_until(mut condition: impl FnMut() -> bool) -> bool {
    for _ in 0..250 {
        if condition() {
            return true;
        }
        TimeoutFuture::new(20).await;
    }
    condition()
}

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn painted_pixels(canvas: &HtmlCanvasElement) -> usize {
    let ctx: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let data = ctx
        .get_image_data(
            0.0,
            0.0,
            f64::from(canvas.width()),
            f64::from(canvas.height()),
        )
        .unwrap()
        .data();
    let (r0, g0, b0) = (data[0], data[1], data[2]);
    data.chunks_exact(4)
        .filter(|p| {
            p[0].abs_diff(r0) as u32 + p[1].abs_diff(g0) as u32 + p[2].abs_diff(b0) as u32 > 30
        })
        .count()
}

#[wasm_bindgen_test]
async fn app_mounts_paints_the_ring_and_lists_every_key() {
    let root = document().create_element("div").unwrap();
    root.set_attribute("style", "width:800px").unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<hashring_lab::ui::App>::with_root(root.clone()).render();

    let canvas = || {
        root.query_selector("canvas.ring")
            .unwrap()
            .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok())
    };
    assert!(
        wait_until(|| canvas().is_some_and(|c| c.width() > 0 && painted_pixels(&c) > 5_000)).await,
        "ring not painted"
    );

    // The tables below the ring come in the task after the ring's first painted frame.
    let rows = || root.query_selector_all("table.counts tbody tr").unwrap();
    assert!(
        wait_until(|| rows().length() > 0).await,
        "the table of servers never came"
    );
    let rows = rows();
    assert_eq!(rows.length(), 4, "four servers in the default scenario");
    let total: u64 = (0..rows.length())
        .map(|i| {
            let row: web_sys::Element = rows.item(i).unwrap().dyn_into().unwrap();
            row.query_selector("td.count")
                .unwrap()
                .unwrap()
                .text_content()
                .unwrap()
                .parse::<u64>()
                .unwrap()
        })
        .sum();
    assert_eq!(total, 1000, "counts sum to the default 1,000 keys");
}

#[wasm_bindgen_test]
fn geometry_round_trips_in_wasm() {
    let g = RingGeometry::fit(600.0, 600.0);
    for p in [0u32, 1 << 30, 1 << 31, 3 << 30, 0x1234_5678] {
        let (x, y) = g.point(p, g.radius);
        let (back, r) = g.position_at(x, y);
        assert!(circular_distance(back, p) < 4096, "{p} -> {back}");
        assert!((r - g.radius).abs() < 1e-6);
    }
    // 0 is at 12 o'clock: straight above the centre.
    let (x, y) = g.point(0, 100.0);
    assert!((x - g.cx).abs() < 1e-9 && (y - (g.cy - 100.0)).abs() < 1e-9);
}

#[wasm_bindgen_test]
async fn app_mounts_the_scenario_in_the_url() {
    let window = web_sys::window().unwrap();
    let history = window.history().unwrap();
    let original = window.location().href().unwrap();
    history
        .replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some("?nodes=X,Y,Z&keys=0..300&algo=modn&hash=identity"),
        )
        .unwrap();
    let root = document().create_element("div").unwrap();
    root.set_attribute("style", "width:600px").unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<hashring_lab::ui::App>::with_root(root.clone()).render();
    let names = || -> Vec<String> {
        let rows = root.query_selector_all("table.counts tbody tr th").unwrap();
        (0..rows.length())
            .map(|i| rows.item(i).unwrap().text_content().unwrap())
            .collect()
    };
    assert!(
        wait_until(|| names().len() == 3).await,
        "three servers from the URL"
    );
    assert_eq!(names(), ["X", "Y", "Z"]);
    // identity keys 0..300 mod 3: exactly 100 each.
    let counts = root.query_selector_all("table.counts td.count").unwrap();
    for i in 0..counts.length() {
        assert_eq!(counts.item(i).unwrap().text_content().unwrap(), "100");
    }
    history
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&original))
        .unwrap();
}

/// CARP's four-at-once MD5 runs in SIMD128 lanes only in WebAssembly: every digest equals
/// the one-at-a-time digest (and RFC 1321's), for names of every length up to one block
/// and beyond it.
#[wasm_bindgen_test]
fn four_digests_at_once_equal_one_at_a_time() {
    let abc = short_md5::md5_concat4([
        (b"a", b"bc"),
        (b"", b""),
        (b"message ", b"digest"),
        (b"", b"a"),
    ]);
    let hex: Vec<String> = abc
        .iter()
        .map(|d| d.iter().map(|b| format!("{b:02x}")).collect())
        .collect();
    assert_eq!(
        hex,
        [
            "900150983cd24fb0d6963f7d28e17f72",
            "d41d8cd98f00b204e9800998ecf8427e",
            "f96b697d7cb7938d525a2f31aaf161d0",
            "0cc175b9c0f1b6a831c399e269772661"
        ]
    );
    let text: Vec<u8> = (0..120u32).map(|i| b'a' + (i * 7 % 26) as u8).collect();
    for len in 0..60 {
        let pairs: [(&[u8], &[u8]); 4] = std::array::from_fn(|lane| {
            let start = lane * 3;
            (
                &text[start..start + lane],
                &text[start + lane..start + lane + len],
            )
        });
        assert_eq!(
            short_md5::md5_concat4(pairs),
            pairs.map(|(a, b)| short_md5::md5_concat(a, b)),
            "length {len}"
        );
    }
}
