//! The shape of a language's catalog: [`Words`], every sentence of the page as a field
//! (a text, a template or a function), which `en.rs` and `zh_cn.rs` each fill in whole —
//! kept apart from the language list (`i18n`) so the catalogs import only this.

use crate::facts::Facts;
use crate::problem::Problem;

/// What is wrong, in `w`'s language.
pub fn reason(w: &Words, problem: &Problem) -> String {
    (w.problem)(problem)
}

/// A step's narration: sentences made from what is on screen.
pub type Narration = fn(&Facts) -> String;

/// A step that tells the picture on screen and the followed key's walk on it, in the
/// catalog's words ([`Facts::picture`]): the same in every language.
fn told(f: &Facts) -> String {
    f.picture.clone()
}

/// The decides tour's narrations: the first step's `lead` (which tells its picture too),
/// then each later step's picture, told ([`told`]).
pub(super) const fn decides(lead: Narration) -> [Narration; 7] {
    [lead, told, told, told, told, told, told]
}

/// One tour's words: its title and one narration per step.
pub struct TourWords {
    /// The tour's title.
    pub title: &'static str,
    /// The narration of each step, in order.
    pub steps: &'static [Narration],
}

/// Every sentence of the page in one language.
pub struct Words {
    // The page.
    /// The page title (the browser tab).
    pub page_title: &'static str,
    /// Under the name in the header.
    pub tagline: &'static str,
    /// The language switch's label.
    pub language: &'static str,
    /// The ring section's label.
    pub ring_section: &'static str,
    /// Closes the error message.
    pub dismiss: &'static str,

    // The server table and its form.
    /// The table's caption.
    pub keys_per_server: &'static str,
    /// Column: the server.
    pub col_server: &'static str,
    /// Column: its weight.
    pub col_weight: &'static str,
    /// Column: its virtual nodes.
    pub col_vnodes: &'static str,
    /// Column: its keys.
    pub col_keys: &'static str,
    /// Column: its share of the keys or the ring.
    pub col_share: &'static str,
    /// Column: the ideal share.
    pub col_ideal: &'static str,
    /// The badge on a failed server.
    pub badge_down: &'static str,
    /// The weight field's label.
    pub weight_of: &'static str,
    /// The fail button.
    pub fail: &'static str,
    /// The recover button.
    pub recover: &'static str,
    /// The fail button's label for a screen reader.
    pub fail_server: &'static str,
    /// The recover button's label for a screen reader.
    pub recover_server: &'static str,
    /// What failing does.
    pub fail_hint: &'static str,
    /// What recovering does.
    pub recover_hint: &'static str,
    /// The first line of the actions' fail-or-recover menu (it does nothing).
    pub fail_pick: &'static str,
    /// The remove button's label.
    pub remove_server_named: &'static str,
    /// The new server name field's label.
    pub new_server_name: &'static str,
    /// The add button.
    pub add_server: &'static str,
    /// The add button's hint.
    pub add_server_hint: &'static str,
    /// Ceph over a CRUSH hierarchy, in place of the algorithm's sentence: {0} the type the
    /// rule spreads copies over (`host`).
    pub intro_crush: &'static str,
    /// Ceph over a hierarchy: the add button's word and hint (a host of OSDs joins).
    pub add_host: &'static str,
    /// Its hint.
    pub add_host_hint: &'static str,
    /// Ceph over a hierarchy: the remove button's word (the last host leaves).
    pub remove_host: &'static str,
    /// Its hint.
    pub remove_host_hint: &'static str,
    /// The remove-last button.
    pub remove_server: &'static str,
    /// The remove-last button's hint.
    pub remove_server_hint: &'static str,

    // The scenario settings.
    /// The settings' heading.
    pub scenario: &'static str,
    /// The algorithm menu.
    pub algorithm: &'static str,
    /// The hash menu.
    pub hash: &'static str,
    /// The vnodes field.
    pub virtual_nodes: &'static str,
    /// Multi-probe's probes field.
    pub probes: &'static str,
    /// Maglev's table size field.
    pub table_size: &'static str,
    /// Bounded loads' balance factor field.
    pub balance: &'static str,
    /// The vnodes slider's label.
    pub vnodes_slider: &'static str,
    /// The keys field.
    pub keys: &'static str,
    /// The key count field's label, with the limit.
    pub key_count_label: &'static str,
    /// The key pattern field's label.
    pub key_pattern_label: &'static str,
    /// Applies the keys form.
    pub set: &'static str,
    /// The seed field.
    pub seed: &'static str,
    /// The animation row.
    pub animation: &'static str,
    /// The play button.
    pub play: &'static str,
    /// The pause button.
    pub pause: &'static str,
    /// The play button's hint.
    pub play_hint: &'static str,
    /// The speed menu's label.
    pub speed: &'static str,

    // The lookup.
    /// The lookup field's label.
    pub lookup_label: &'static str,
    /// The lookup field's example.
    pub lookup_placeholder: &'static str,
    /// The lookup button.
    pub look_up: &'static str,
    /// The scores table's caption.
    pub scores_caption: &'static str,
    /// Marks the winning score.
    pub wins: &'static str,

    // The charts.
    /// The load chart's heading.
    pub load_heading: &'static str,
    /// The load chart's description.
    pub load_chart_label: &'static str,
    /// Figure: mean keys per server.
    pub mean: &'static str,
    /// Figure: standard deviation.
    pub stddev: &'static str,
    /// Figure: peak over mean.
    pub peak_mean: &'static str,
    /// Figure: moved keys and the ideal.
    pub moved_ideal: &'static str,
    /// Figure: keys that stayed.
    pub stayed: &'static str,
    /// A small embed's button words: add a server, remove the last one, open the full page.
    pub add_short: &'static str,
    /// See [`add_short`](Self::add_short).
    pub remove_short: &'static str,
    /// See [`add_short`](Self::add_short).
    pub open_full_short: &'static str,
    /// A small embed's one line before any change: what to do.
    pub embed_idle: &'static str,
    /// A small embed's line after a change: moved, keys, the ideal if defined and the keys
    /// moved between survivors if any ("1,204 of 5,000 moved — ideal 1,000").
    pub moved_short: fn(&str, &str, Option<&str>, Option<&str>) -> String,
    /// The readout's heading: what the last change moved.
    pub readout_heading: &'static str,
    /// Before any change: what the readout will show.
    pub readout_idle: &'static str,
    /// The big line: moved, keys, percent ("11,229 of 100,000 keys moved (11.2%)").
    pub readout_moved: &'static str,
    /// Against the ideal: keys, percent.
    pub readout_ideal: &'static str,
    /// Keys moved between servers the change left alone.
    pub readout_between: &'static str,
    /// Ceph over a hierarchy: {0} groups remapped of {1}, {2} copies moved of {3}, {4}
    /// primaries changed.
    pub readout_groups: &'static str,
    /// The switch that keeps the moved keys marked on the ring until the next change.
    pub mark_moved: &'static str,
    /// The from → to table's caption.
    pub flows_caption: &'static str,
    /// The corner cell: rows are old owners, columns new owners.
    pub flows_corner: &'static str,
    /// The corner cell when the table is turned: after a removal, every receiver a row.
    pub flows_corner_transposed: &'static str,
    /// A folded row or column: this many other servers.
    pub flows_others: fn(usize) -> String,
    /// One cell in words, for screen readers: from, to, keys.
    pub flow_words: &'static str,
    /// A cell that counts moves between untouched servers.
    pub flow_between_hint: &'static str,
    /// The share chart's heading.
    pub share_heading: &'static str,
    /// The share chart's description.
    pub share_chart_label: &'static str,
    /// The share table's caption.
    pub share_caption: &'static str,
    /// Why an algorithm has no share chart.
    pub no_arcs: &'static str,

    // The ring.
    /// The picture's accessible name: the algorithm's title, servers, keys.
    pub ring_label: fn(&str, usize, &str) -> String,
    /// The bucket algorithms' pictures in words, each `{}` filled in order
    /// ([`crate::words::fill`]): the ranges (their list), Anchor's grid and stack (the
    /// capacity, the stack's top), Memento's arrows (removed → replacer), Dx's grid (the
    /// capacity).
    pub pic_ranges: &'static str,
    /// See [`Words::pic_ranges`].
    pub pic_stack: &'static str,
    /// See [`Words::pic_ranges`].
    pub pic_replacements: &'static str,
    /// See [`Words::pic_ranges`].
    pub pic_grid: &'static str,
    /// Jump's and Guava's picture: the first keys' jumps.
    pub pic_jumps: &'static str,
    /// Bounded loads' bars and capacity line (`{0}`: the capacity; `{1}`: the keys that found
    /// their first server full and walked on).
    pub pic_capacity: &'static str,
    /// Over bounded loads' capacity line: the capacity (`{0}`) and how many keys were
    /// forwarded past a full server (`{1}`).
    pub pic_forwarded: &'static str,
    /// mod-N's slices: `{0}` the live servers' count, `{1}` them in list order.
    pub pic_residues: &'static str,
    /// Rendezvous' and CARP's score table: `{0}` each shown key with its winner, `{1}` the
    /// end that wins ([`Words::pic_best`]).
    pub pic_scores: &'static str,
    /// Under the score table: `{0}` the end that wins.
    pub pic_score_caption: &'static str,
    /// The end of the scores that wins: highest, lowest.
    pub pic_best: [&'static str; 2],
    /// The loupe's caption, by its rule (first point clockwise, the same on Envoy's 64-bit
    /// hashes, HAProxy's nearer point, ingress-nginx's point at or below, HAProxy's next
    /// point when both neighbours are one server's): `{0}` how many times it magnifies.
    pub loupe: [&'static str; 5],
    /// How to read a followed key's walk on the picture, by the walk's kind: hops over
    /// buckets, probes, scores, `h mod N`, a table cell, a placement group.
    pub pic_hints: [&'static str; 6],
    /// A tour's telling of a picture: the algorithm {0}, then the picture's words {1}.
    pub pic_told: &'static str,
    /// The zoom buttons' group.
    pub zoom: &'static str,
    /// Zoom in.
    pub zoom_in: &'static str,
    /// Zoom out.
    pub zoom_out: &'static str,
    /// Reset the zoom.
    pub zoom_reset: &'static str,
    /// A failed server's label on the ring.
    pub down_label: &'static str,
    /// The centre line of a ring: servers, vnodes, keys.
    pub centre_ring: fn(usize, &str, &str) -> String,
    /// Under the centre's counts when the band sums each server's vnodes into one arc.
    pub centre_summed: &'static str,
    /// The ring's centre, when the keys bunch up on the ring (the hash, not the picture).
    pub centre_clustered: &'static str,
    /// The centre line of Redis slots: masters, keys.
    pub centre_slots: fn(usize, &str) -> String,
    /// The centre line otherwise: servers, keys.
    pub centre_other: fn(usize, &str) -> String,
    /// Hover card: a position on the ring (grouped decimal, hex).
    pub hover_position: fn(&str, u32) -> String,
    /// Hover card: a slot range's title (last slot, master).
    pub hover_slots: fn(u32, &str) -> String,
    /// Hover card: a Maglev table cell's title (cell, server).
    pub hover_cell: fn(u32, &str) -> String,
    /// Hover card: the point's server.
    pub hover_server: &'static str,
    /// Hover card: the share of the ring ending at the point.
    pub hover_share: fn(f64) -> String,
    /// Hover card: a key's title.
    pub hover_key: &'static str,
    /// Hover card: a key's owner.
    pub hover_owner: &'static str,
    /// "nobody", when no server is up.
    pub nobody: &'static str,

    // Algorithms.
    /// Each registered algorithm's title and one-sentence intro (how it places a key, what
    /// a change will do), by id; `("", "")` for an id without words, which a test forbids.
    pub algorithms: fn(&str) -> (&'static str, &'static str),

    // Progress and changes.
    /// Progress: hashing keys, placing vnodes, placing keys, filling Maglev's table.
    pub phases: [&'static str; 4],
    /// Progress: "{phase}: {done} of {total}…".
    pub progress: &'static str,
    /// A change: added NAME.
    pub added: &'static str,
    /// A change: removed NAME.
    pub removed: &'static str,
    /// A change: NAME failed.
    pub failed: &'static str,
    /// A change: NAME recovered.
    pub recovered: &'static str,
    /// A change: weight of NAME set to W.
    pub weight_set: fn(&str, f64) -> String,
    /// A change: vnodes set to V.
    pub vnodes_set: fn(u32) -> String,
    /// A change: keys set to SPEC.
    pub keys_set: &'static str,
    /// A list of the user's own keys: how many, and the first few.
    pub keys_list: &'static str,
    /// A change: switched to ALGORITHM.
    pub algorithm_set: &'static str,
    /// A change: hash switched to HASH.
    pub hash_set: &'static str,
    /// A host added to a Ceph cluster: its name, its OSDs' count.
    pub host_added: &'static str,
    /// Ceph: a host taken out of the map with its OSDs ({0}).
    pub host_removed: &'static str,
    /// Ceph: the pool's placement groups set to {0}.
    pub pg_num_set: &'static str,
    /// "{what}: {moved} of {keys} keys moved ({percent}".
    pub moved_of: &'static str,
    /// "; ideal {percent}".
    pub ideal: &'static str,
    /// " — from {list}".
    pub moved_from: &'static str,
    /// " — to {list}".
    pub moved_to: &'static str,
    /// After removing a server that was not the last under jump: its name.
    pub renumbered: &'static str,
    /// Joins list items.
    pub list_separator: &'static str,
    /// Closes the bracket `moved_of` opened.
    pub close_paren: &'static str,

    // Lookups.
    /// Ring: hash, key, position, vnode label, vnode position, server.
    pub explain_ring: fn(&str, &str, u32, &str, u32, &str) -> String,
    /// HAProxy: hash, key, position, point label, point position, server (the nearer of
    /// the points around the key).
    pub explain_nearest: fn(&str, &str, u32, &str, u32, &str) -> String,
    /// ingress-nginx: hash, key, position, point label, point position, server (the largest
    /// point at or below the key).
    pub explain_below: fn(&str, &str, u32, &str, u32, &str) -> String,
    /// Nobody is up: hash, key, position.
    pub explain_nobody: fn(&str, &str, u32) -> String,
    /// Slots: the hash tag.
    pub explain_tag: &'static str,
    /// Slots: key, tag part, slot, and who serves it.
    pub explain_slot: fn(&str, &str, u16, &str) -> String,
    /// Slots: slot served by its master.
    pub slot_served: fn(u16, &str) -> String,
    /// Slots: master down, served by the next range.
    pub slot_failover: fn(u16, &str, &str) -> String,
    /// Slots: master down, nobody up.
    pub slot_nobody: fn(u16, &str) -> String,
    /// Mod N: hash, key, value, n, index, server.
    pub explain_modulo: fn(&str, &str, u32, usize, usize, &str) -> String,
    /// Mod N, nobody up: hash, key, value.
    pub explain_modulo_nobody: fn(&str, &str, u32) -> String,
    /// Scores, nobody up: key.
    pub explain_scores_nobody: fn(&str) -> String,
    /// Scores: what is scored, whether the highest wins, owner.
    pub explain_scores: fn(&str, bool, &str) -> String,
    /// Jump: digest name, key, digest, buckets visited, buckets, server.
    pub explain_jump: fn(&str, &str, u64, &str, usize, &str) -> String,
    /// Bucket algorithms other than jump: algorithm, digest name, key, digest, buckets,
    /// bucket, server.
    pub explain_bucket: fn(&str, &str, &str, u64, usize, u32, &str) -> String,
    /// Multi-probe: probes, key, the winning probe's position, the point's label, its
    /// position, the distance, server.
    pub explain_probes: fn(usize, &str, u32, &str, u32, &str, &str) -> String,
    /// Maglev: digest name, key, cell, table size, server.
    pub explain_cell: fn(&str, &str, u32, u32, &str) -> String,
    /// Ceph: key, its name hash, its placement group, pg_num, the out OSDs that won a
    /// try (joined, may be empty), the OSD, the replicas' OSDs (joined).
    pub explain_pg: fn(&str, u32, u32, u32, &str, &str, &str) -> String,
    /// A placement group's acting set over a CRUSH hierarchy: key, hash, group, groups,
    /// the failure domain's type, the copies with their domains, the primary.
    pub explain_pg_hierarchy: fn(&str, u32, u32, u32, &str, &str, &str) -> String,
    /// Anchor, Memento, Dx: algorithm, digest name, key, digest, buckets visited (a removed
    /// one marked ✗), the bucket, server.
    pub explain_chain: fn(&str, &str, &str, u64, &str, u32, &str) -> String,
    /// Bounded loads: hash, key, position, capacity, the first point's server, the full
    /// servers passed (comma separated, may be empty), server.
    pub explain_bounded: fn(&str, &str, u32, u32, &str, &str, &str) -> String,
    /// A bucket or table algorithm with no server up: key.
    pub explain_no_bucket: &'static str,
    /// A weighted score: score, hash, weight.
    pub weighted_score: fn(f64, u32, f64) -> String,

    // Messages.
    /// The link's scenario could not be loaded: reasons.
    pub link_not_loaded: fn(&str) -> String,
    /// The link has a problem, the scenario loaded: reasons.
    pub link_problem: &'static str,
    /// Actions refused while work ran: how many.
    pub busy: fn(u32) -> String,
    /// Actions that came during the work, reported after: how many.
    pub ignored: fn(u32) -> String,
    /// A scenario was rejected: the reason.
    pub not_applied: fn(&str) -> String,

    // Page tools.
    /// The theme button when dark (switches to light).
    pub to_light: &'static str,
    /// The theme button when light (switches to dark).
    pub to_dark: &'static str,
    /// The presentation button.
    pub present: &'static str,
    /// The presentation button's hint.
    pub present_hint: &'static str,
    /// Leaves presentation mode.
    pub end_present: &'static str,
    /// The share card's heading.
    pub share: &'static str,
    /// Copies the link.
    pub copy_link: &'static str,
    /// Copies the embed code.
    pub copy_embed: &'static str,
    /// After copying.
    pub copied: &'static str,
    /// The link field's label.
    pub link_field: &'static str,
    /// The embed code field's label.
    pub embed_field: &'static str,
    /// The iframe's title: algorithm, servers, keys.
    pub embed_title: fn(&str, usize, &str) -> String,
    /// The embed view's link to the full page.
    pub open_full: &'static str,
    /// The shortcuts button and dialog title.
    pub shortcuts: &'static str,
    /// (keys, what they do), in order.
    pub shortcut_list: [(&'static str, &'static str); 10],
    /// Closes a dialog.
    pub close: &'static str,
    /// The export card's heading.
    pub export: &'static str,
    /// Export: the ring as PNG.
    pub png_ring: &'static str,
    /// Export: the load chart as PNG.
    pub png_load: &'static str,
    /// Export: the share chart as PNG.
    pub png_share: &'static str,
    /// Export: counts as CSV.
    pub csv_counts: &'static str,
    /// Export: every key's server as CSV.
    pub csv_keys: &'static str,
    /// The migration list's button, with how many keys the last change moved.
    pub csv_moved: &'static str,
    /// Export: the scenario as JSON.
    pub scenario_json: &'static str,
    /// Opens a scenario file.
    pub open_scenario: &'static str,
    /// The box for a system's own config (nginx upstream, HAProxy backend, twemproxy pool,
    /// Redis `CLUSTER NODES`).
    pub paste_config: &'static str,
    /// Loads the pasted config.
    pub use_config: &'static str,
    /// The backup servers (quoted, comma-separated) a loaded nginx config leaves out.
    pub backups_left_out: &'static str,
    /// Label of the box for the user's own keys, one per line.
    pub paste_keys: &'static str,
    /// Button that replaces the key set with the pasted keys.
    pub use_keys: &'static str,
    /// Progress of the key export: done, total.
    pub exporting: &'static str,
    /// The progress line while a pasted text or an opened file is read (percent of the
    /// pass under way).
    pub reading: &'static str,
    /// A long paste held by the page, not shown in its box: its size and line count.
    pub held_paste: &'static str,
    /// Drops a held paste.
    pub forget_paste: &'static str,
    /// A scenario file was refused: the reasons.
    pub bad_file: &'static str,
    /// Joins the reasons of one message.
    pub reason_separator: &'static str,
    /// What is wrong with an input, in this language.
    pub problem: fn(&Problem) -> String,

    // The compare view.
    /// The button that opens the compare view.
    pub compare_view: &'static str,
    /// The button that goes back to the ring.
    pub back_to_ring: &'static str,
    /// The compare table's caption.
    pub compared: &'static str,
    /// The change menu's label.
    pub compare_change: &'static str,
    /// The changes: add, remove the first, fail the first.
    pub compare_changes: [&'static str; 3],
    /// Column headings: algorithm, moved (the ideal is written under it), between
    /// survivors, peak/mean, σ,
    /// ns/lookup, bytes, build ms.
    pub compare_columns: [&'static str; 8],
    /// Progress: done, total.
    pub comparing: fn(usize, usize) -> String,
    /// The verdict: the consistent algorithm nearest the ideal (algorithm, moved percent,
    /// ideal percent), the best balanced of those (algorithm, peak/mean), and how many
    /// moved keys between untouched servers.
    pub compare_verdict: fn(&str, &str, &str, &str, &str, usize) -> String,
    /// The compare chart's description.
    pub compare_chart_label: &'static str,
    /// The word by the compare chart's line at the ideal share moved.
    pub ideal_word: &'static str,
    /// The compare chart's axes: x, y.
    pub compare_axes: [&'static str; 2],
    /// The scatter's legend: the verdict's picks, the others it weighs, those it leaves out.
    pub compare_legend: [&'static str; 3],
    /// Under the compare table on a phone: the columns it leaves to wider screens.
    pub compare_narrow: &'static str,

    // Tours.
    /// The tour menu's label.
    pub tours: &'static str,
    /// The tour menu's first entry.
    pub choose_tour: &'static str,
    /// Step K of N.
    pub step_of: fn(usize, usize) -> String,
    /// Previous step.
    pub previous: &'static str,
    /// Next step.
    pub next: &'static str,
    /// Next, at a tour's last step: the next tour's title.
    pub next_tour: &'static str,
    /// Leave the tour, keep the state.
    pub leave_tour: &'static str,
    /// Before a predicted step: how many of TOTAL keys will adding NAME move?
    pub predict_add: &'static str,
    /// Before a predicted step: how many of TOTAL keys will removing NAME move?
    pub predict_remove: &'static str,
    /// The guess field's label.
    pub predict_label: &'static str,
    /// At a predicted step: the guess, the keys moved, their percentage, and the ideal.
    pub reveal: &'static str,
    /// At a predicted step without a guess: nothing to compare.
    pub no_guess: &'static str,
    /// A pinned key's history: its heading.
    pub history_heading: &'static str,
    /// … where it was pinned: on OWNER.
    pub history_pinned: &'static str,
    /// … after CHANGE it moved to OWNER.
    pub history_moved: &'static str,
    /// … after CHANGE it stayed on OWNER.
    pub history_stayed: &'static str,
    /// The print-handout button.
    pub print_handout: &'static str,
    /// Its tooltip.
    pub print_hint: &'static str,
    /// The QR code button and dialog title.
    pub qr_code: &'static str,
    /// The QR code button's tooltip.
    pub qr_hint: &'static str,
    /// Under the QR code: what it opens.
    pub qr_caption: &'static str,
    /// The link is too long for a QR code.
    pub qr_too_long: &'static str,
    /// The QR code's link points at this machine only (its host).
    pub qr_loopback: &'static str,
    /// The scenario's link would be longer than a browser opens.
    pub link_too_long: &'static str,
    /// The speaker-notes button and the notes window's heading.
    pub notes: &'static str,
    /// The speaker-notes button's tooltip.
    pub notes_hint: &'static str,
    /// The notes window: how it follows the presenting window.
    pub notes_follow: &'static str,
    /// The notes window without a tour.
    pub notes_no_tour: &'static str,
    /// Point at WHAT.
    pub notes_point: &'static str,
    /// The next step does WHAT.
    pub notes_next: &'static str,
    /// The next step looks up KEY.
    pub notes_lookup: &'static str,
    /// The next step loads another scenario.
    pub notes_new_scenario: &'static str,
    /// The next step changes nothing on screen (only the text goes on).
    pub notes_same: &'static str,
    /// The last step of the last tour.
    pub notes_end: &'static str,
    /// What a tour step points at, in the notes: the ring.
    pub focus_ring: &'static str,
    /// … the readout.
    pub focus_readout: &'static str,
    /// … the keys-per-server table.
    pub focus_table: &'static str,
    /// … the load chart.
    pub focus_load: &'static str,
    /// … the lookup.
    pub focus_lookup: &'static str,
    /// … the stored values.
    pub focus_store: &'static str,
    /// … the sweep chart.
    pub focus_sweep: &'static str,
    /// The tours, in [`crate::tour::TourId::ALL`] order.
    pub tour_words: [TourWords; 10],
    /// The stale-data table: caption for a key.
    pub stored_values: &'static str,
    /// The stale-data table: column of stored values.
    pub col_value: &'static str,
    /// The stale-data table: a read of KEY goes to SERVER and returns VALUE.
    pub read_returns: &'static str,
    /// "nothing stored".
    pub nothing_stored: &'static str,
    /// The vnode sweep chart's heading.
    pub sweep_heading: &'static str,
    /// The sweep chart's description.
    pub sweep_chart_label: &'static str,
    /// The sweep chart's x axis.
    pub sweep_x: &'static str,
    /// The sweep chart's y axis.
    pub sweep_y: &'static str,
    /// The sweep's measured line.
    pub sweep_measured: &'static str,
    /// The sweep's 1/√v trend line.
    pub sweep_trend: &'static str,
    /// The sweep button.
    pub sweep_run: &'static str,
    /// The sweep's description: servers, keys.
    pub sweep_setup: fn(usize, &str) -> String,
}
