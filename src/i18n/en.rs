//! English: every sentence of the page. A translator copies this file and changes only
//! the text; the structure is checked by the compiler.

use super::words::{decides, TourWords, Words};
use crate::facts::Facts;
use crate::text::{Fixed, Shortest};

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The English catalog.
pub static WORDS: Words = Words {
    page_title: "hashring-lab — consistent hashing, visualised",
    tagline: "Consistent hashing on the 0‥2³² ring — see exactly which keys move.",
    language: "Language",
    ring_section: "Hash ring",
    dismiss: "Dismiss",

    keys_per_server: "Keys per server",
    col_server: "Server",
    col_weight: "Weight",
    col_vnodes: "Vnodes",
    col_keys: "Keys",
    col_share: "Share",
    col_ideal: "Ideal",
    badge_down: "down",
    weight_of: "Weight of {0}",
    fail: "fail",
    recover: "recover",
    fail_server: "Fail {0}",
    recover_server: "Recover {0}",

    fail_hint: "Fail: its keys go elsewhere until it recovers",
    recover_hint: "Recover: it takes its keys back",
    fail_pick: "Fail…",
    remove_server_named: "Remove {0}",
    new_server_name: "New server name",
    add_server: "Add server",
    add_server_hint: "Add server (A)",
    intro_crush: "Ceph with your CRUSH map: an object's name hashes (rjenkins) to one of pg_num placement groups, and CRUSH descends the map by straw2 draws — a different {0} for each copy, then an OSD in it — so a group's 3 copies never share a {0}. The inner ring is the map: OSDs grouped by {0}. Bit for bit osdmaptool 16.2.",
    add_host: "Add host",
    add_host_hint: "Add a host of OSDs, like the others (A)",
    remove_host: "Remove host",
    remove_host_hint: "Remove the last host and its OSDs (R)",
    remove_server: "Remove server",
    remove_server_hint: "Remove the last server (R)",

    scenario: "Scenario",
    algorithm: "Algorithm",
    hash: "Hash",
    virtual_nodes: "Virtual nodes",
    probes: "Probes per key",
    table_size: "Table size M (prime)",
    balance: "Balance factor c",
    vnodes_slider: "Virtual nodes per server (slider)",
    keys: "Keys",
    key_count_label: "Number of keys (up to {0})",
    key_pattern_label: "Key name pattern with {i}",
    set: "Set",
    seed: "Seed",
    animation: "Animation",
    play: "▶ Play",
    pause: "❚❚ Pause",
    play_hint: "Play or pause the walking keys (Space)",
    speed: "Animation speed",

    lookup_label: "Key to look up",
    lookup_placeholder: "Look up a key, e.g. user:42",
    look_up: "Look up",
    scores_caption: "Score of each server for this key",
    wins: "← wins",

    load_heading: "Load per server",
    load_chart_label: "Bar chart of keys per server; outlines show the counts before the last change; the dashed line is the mean",
    mean: "mean",
    stddev: "std dev",
    peak_mean: "peak / mean",
    moved_ideal: "moved (ideal)",
    stayed: "stayed",
    add_short: "Add",
    remove_short: "Remove",
    open_full_short: "Full page ↗",
    embed_idle: "Add or remove a server: see which keys move",
    moved_short: |moved, keys, ideal, between| {
        let ideal = ideal.map_or(String::new(), |ideal| format!(" — ideal {ideal}"));
        let between = between.map_or(String::new(), |n| format!("; {n} between survivors"));
        format!("{moved} of {keys} moved{ideal}{between}")
    },
    readout_heading: "What moved",
    readout_idle: "Add, remove or fail a server: this panel then shows how many keys moved, against the ideal, and from which server to which.",
    readout_moved: "{0} of {1} keys moved ({2})",
    readout_ideal: "ideal {0} ({1})",

    readout_between: "between servers the change left alone: {0}",
    readout_groups: "placement groups remapped: {0} of {1} · copies moved: {2} of {3} · primaries changed: {4}",
    mark_moved: "Mark the moved keys on the ring",
    flows_caption: "Keys moved, from → to",
    flows_corner: "from ╲ to",
    flows_corner_transposed: "to ╲ from",
    flows_others: |n| if n == 1 { "1 other".to_owned() } else { format!("{n} others") },
    flow_words: "{0} → {1}: {2}",

    flow_between_hint: "moved between two servers the change left alone",
    share_heading: "Share of the ring",
    share_chart_label: "Bar chart of each server's share of the ring; the dashed line is an equal share",
    share_caption: "Ring share per server",
    no_arcs: "This algorithm has no ring arcs: each key is placed on its own, so only the key counts above apply.",

    ring_label: |algorithm, servers, keys| {
        format!("{algorithm}: {servers} servers, {keys} keys. Scroll or pinch to zoom, drag to pan.")
    },
    pic_ranges: "Bands inside the buckets: the ranges a key is drawn in ({}).",
    pic_stack: "The grid: the anchor's {} buckets; the numbered ones are its removal stack, 1 comes back first (buckets {}). The others are shaded by how often the first keys' lookups passed them.",
    pic_replacements: "Arrows: each removed bucket to the bucket that replaced it ({}).",
    pic_grid: "The grid: the array of {} buckets; the coloured ones work, the others are shaded by how often the first keys' lookups drew them.",
    pic_jumps: "Curves inside the buckets: the jumps the first keys' lookups made, wider where more keys made them.",
    pic_capacity: "Bars: the keys each server holds; the line is the capacity, {0} keys — {1} keys found their server full and walked on.",
    pic_forwarded: "capacity {0} · {1} keys forwarded",
    pic_residues: "The slices: hash mod {0} picks the slice of that number, and slice i is live server i ({1}).",
    pic_scores: "The table: every live server scores each of the first keys, and the {1} score wins ({0}).",
    pic_score_caption: "each server scores the key · {0} wins",
    pic_best: ["highest", "lowest"],
    loupe: [
        "×{0}: the first point clockwise takes the key",
        "×{0}: the first point clockwise, by 64-bit hash",
        "×{0}: the nearer point, either side, takes it",
        "×{0}: the last point at or below the key takes it",
        "×{0}: both sides are one server's: the next point takes it",
    ],
    pic_hints: [
        "On the picture, a followed key's lookup hops from bucket to bucket (numbered discs) to the one that keeps it.",
        "On the picture, a followed key's probes each reach a server's point; the nearest (solid) wins.",
        "On the picture, each server's score for a followed key is a bar; the winner's is marked.",
        "On the picture, a followed key's hash mod the number of servers points at the server with that number.",
        "On the picture, the cell of the lookup table a followed key's hash picks is outlined; the servers filled the cells, each in the order of its own permutation.",
        "On the picture, each cell is a placement group in the colour of the OSD CRUSH gave it; the group a followed key's name hashes to is outlined.",
    ],
    pic_told: "{0}: {1}",
    zoom: "Zoom",
    zoom_in: "Zoom in (+)",
    zoom_out: "Zoom out (−)",
    zoom_reset: "Reset zoom (0)",
    down_label: "{0} ✕ down",
    centre_ring: |servers, vnodes, keys| format!("{servers} servers · {vnodes} vnodes · {keys} keys"),
    centre_summed: "each arc: one server’s share · zoom in for its vnodes",
    centre_clustered: "the keys bunch up: this hash spreads similar names unevenly",
    centre_slots: |masters, keys| format!("{masters} masters · 16,384 slots · {keys} keys"),
    centre_other: |servers, keys| format!("{servers} servers · {keys} keys"),
    hover_position: |grouped, p| format!("position {grouped} (0x{p:08x})"),
    hover_slots: |last, name| format!("Slots ending at {last} → {name}"),
    hover_cell: |cell, name| format!("Table cell {cell} → {name}"),
    hover_server: "server {0}",

    hover_share: |share| format!("owns {}% of the ring", Fixed(share * 100.0, 3)),
    hover_key: "key {0}",
    hover_owner: "owner {0}",

    nobody: "nobody (no server is up)",

    // One entry per registered algorithm, by id: its title and a one-sentence intro.
    algorithms: |id| match id {
        "ring" => (
            "Consistent-hash ring",
            "Each key walks clockwise to the first virtual node at or after its hash. Add, remove or fail a server to see which arcs and keys move.",
        ),
        "modn" => (
            "hash mod N",
            "Each key goes to server number hash(key) mod N. Add or remove a server to change N and watch almost every key move.",
        ),
        "rendezvous" => (
            "Rendezvous (HRW)",
            "Each key scores every server with hash(server + key) and goes to the highest; a new server takes only the keys it now wins.",
        ),
        "carp" => (
            "CARP (MD5, min)",
            "CARP (as in the Redis-cache post on SegmentFault): each key goes to the server whose MD5(server + key) is smallest; a new server takes about 1/(N+1) of the keys.",
        ),
        "slots" => (
            "Redis Cluster slots",
            "Redis Cluster: a key's slot is CRC16(key) mod 16384 and each master serves contiguous slot ranges; adding a master moves whole slots to it.",
        ),
        "jump" => (
            "Jump hash (2014)",
            "Jump hash (Lamping & Veach): a few steps of a random walk pick the key's bucket among the N servers in list order; adding server N+1 takes 1/(N+1) of the keys, and no memory is needed — but only the last server can leave cheaply.",
        ),
        "multiprobe" => (
            "Multi-probe (2015)",
            "Multi-probe (Appleton & O'Reilly): one point per server; each key probes the ring 21 times and the probe nearest to a server point wins — balance like 100 vnodes with one point each.",
        ),
        "maglev" => (
            "Maglev (2016)",
            "Maglev (Google): each server fills cells of a prime-sized lookup table in the order of its own permutation; a key's owner is table[hash(key) mod M]. Near-perfect balance, few moves.",
        ),
        "jumpback" => (
            "JumpBack hash (2024)",
            "JumpBack (Ertl): like jump, the key's bucket depends only on its hash and N, and a new server takes 1/(N+1) of the keys — with integer arithmetic only, walking back from the top bucket range.",
        ),
        "binomial" => (
            "Binomial hash (2024)",
            "BinomialHash (Coluzzi et al.): the buckets are the leaves of a binary tree; a key takes a leaf from its hash, shuffled within its level, rehashing a few times past the last bucket — constant time, no memory, and a new server takes 1/(N+1) of the keys.",
        ),
        "bounded" => (
            "Bounded loads (2018)",
            "Bounded loads (Mirrokni, Thorup & Zadimoghaddam): the ring with virtual nodes, but no server takes more than ⌈c × keys / servers⌉; keys arrive in order and walk clockwise past full servers. The peak is capped — at the price of more keys moving.",
        ),
        "anchor" => (
            "Anchor hash (2020)",
            "AnchorHash (Mendelson et al.): a fixed anchor of buckets; a key on a removed bucket rehashes among the buckets that were left when it was removed. Any server can leave and only its keys move; it comes back to the same keys.",
        ),
        "memento" => (
            "Memento hash (2023)",
            "MementoHash (Coluzzi et al.): jump hash plus a small memory of removed buckets and who replaced them; a key on a removed bucket rehashes and follows the replacements. Any server can leave, and memory grows only with removals.",
        ),
        "dx" => (
            "Dx hash (2021)",
            "DxHash (Dong & Wang): each key draws buckets from a pseudo-random sequence seeded by its hash until it hits a working one. Any server can leave and only its keys move; a lookup costs about capacity ÷ working draws.",
        ),
        "flip" => (
            "Flip hash (2024)",
            "FlipHash (Masson & Lee): a key's bucket comes from its hash bits, with the bits below the top one flipped by a second hash — constant time, no memory, and a new server takes 1/(N+1) of the keys; like jump, only the last server leaves cheaply.",
        ),
        "power" => (
            "Power hash (2023)",
            "Power consistent hashing (Leu): a key picks a bucket in the enclosing power of two, and a jump-like walk settles the ones past the last bucket — constant expected time, no memory, 1/(N+1) of the keys to a new server; only the last server leaves cheaply.",
        ),
        "guava" => (
            "Guava consistentHash",
            "Guava's Hashing.consistentHash: jump hash as Google's Java library writes it (its generator divides where the paper multiplies) — the same buckets as jump, so adding server N+1 takes 1/(N+1) of the keys; only the last server leaves cheaply.",
        ),
        "nginx" => (
            "nginx hash consistent",
            "nginx's hash $key consistent: each server line, as written (host:port), puts 160 × weight points on the ring by chained CRC32; a key goes to the first point at or after crc32(key). Bit for bit nginx 1.22; a server marked down sends its keys on to the next point.",
        ),
        "ketama" => (
            "ketama (libmemcached, weighted)",
            "memcached's ketama as libmemcached weights it (the continuum twemproxy builds too): each server gets MD5 digests in proportion to its weight, four points a digest, and a key goes to the first point at or after MD5(key). Unequal weights or an added server re-count every server's points a little, so keys move between servers nobody touched. Bit for bit libmemcached 1.1.",
        ),
        "haproxy" => (
            "HAProxy hash-type consistent",
            "HAProxy's hash-type consistent: servers are numbered from 1 in declaration order; a server of weight w has 16 × w points at full_hash(id × 4096 + n); a key hashes with sdbm then full_hash, and goes to the nearer of the points before and after it. Inserting a server anywhere but at the end renumbers the ones after it, and their keys move. Bit for bit HAProxy 2.6.",
        ),
        "envoy-ring" => (
            "Envoy ring_hash",
            "Envoy's ring_hash: the ring has a fixed total size (at least 1,024 points by default); each host gets its weight's share of XXH64(name_i) points, and a request goes to the first point at or after XXH64(value). Adding a host shrinks every old host's share, so keys move between hosts nobody touched. Bit for bit the ring and answers of Envoy's own tests.",
        ),
        "cassandra" => (
            "Cassandra Murmur3 tokens",
            "Cassandra's Murmur3Partitioner: a partition key's token is MurmurHash3's first 64 bits (tail bytes sign-extended, as Java does), owned by the node with the first token at or after it. Each node has vnodes tokens: a pasted nodetool ring gives the cluster's own; otherwise they are drawn from each node's name and the seed (real allocators pick others): the ownership rule is exact, drawn tokens are a model.",
        ),
        "envoy-maglev" => (
            "Envoy maglev",
            "Envoy's Maglev: hosts sorted by name, each with an XXH64 permutation of a prime-sized table, fill cells in weighted rounds (a host of half the largest weight fills one every other round); a request goes to cell XXH64(value) mod M. Bit for bit the tables of Envoy's own tests.",
        ),
        "groupcache" => (
            "groupcache consistenthash",
            "Go's groupcache consistenthash: each server puts vnodes points at crc32(index + name) — the index before the name — the server added last winning a shared point; a key goes to the first point at or after crc32(key). As groupcache's own test says.",
        ),
        "ingress-nginx" => (
            "ingress-nginx upstream-hash-by",
            "ingress-nginx's upstream-hash-by (OpenResty's lua-resty-balancer): it looks like nginx and is not — each server's chain of 160 × weight points starts from the finalized CRC32 of its name, and a key goes to the largest point at or below crc32(key), the first point when it is below them all, with no wrap. As lua-resty-balancer's own test says.",
        ),
        "ceph" => (
            "Ceph CRUSH (straw2)",
            "Ceph: an object's name hashes (rjenkins) to one of pg_num placement groups (ceph_stable_mod), and CRUSH's straw2 gives each group an OSD: every OSD draws ln(u) / weight, the highest wins; an OSD that is down (out) is drawn again. Only the groups of a changed OSD move. Bit for bit osdmaptool 16.2.",
        ),
        "twemproxy" => (
            "twemproxy ketama (fnv1a_64)",
            "twemproxy's distribution: ketama with its default hash: fnv1a_64 — the same weighted MD5 continuum as libmemcached (a server named by its name when the config gives one), but keys are placed by FNV-1a cut to 32 bits, so twemproxy and an MD5 ketama client disagree on most keys, and similar keys (key-1, key-2…) land close together. Bit for bit nutcracker 0.5.",
        ),
        _ => ("", ""),
    },

    phases: ["Hashing keys", "Placing virtual nodes", "Placing keys", "Filling the lookup table"],
    progress: "{0}: {1} of {2}…",
    added: "Added {0}",

    removed: "Removed {0}",
    failed: "{0} failed",

    recovered: "{0} recovered",
    weight_set: |n, w| format!("Weight of {n} set to {}", Shortest(w)),
    vnodes_set: |v| format!("Virtual nodes set to {v}"),
    keys_set: "Keys set to {0}",

    keys_list: "your {0} keys ({1})",
    algorithm_set: "Switched to {0}",

    hash_set: "Hash switched to {0}",
    host_added: "Added host {0} with {1} OSDs",
    host_removed: "Removed host {0} and its OSDs",
    pg_num_set: "pg_num set to {0}",
    moved_of: "{0}: {1} of {2} keys moved ({3}",

    ideal: "; ideal {0}",
    moved_from: " — from {0}",

    moved_to: " — to {0}",
    renumbered: ". Jump-like algorithms only shrink from the end: the servers after {0} were renumbered, so keys also moved between servers that stayed",

    list_separator: ", ",
    close_paren: ")",

    explain_ring: |hash, key, pos, vnode, at, server| {
        format!("{hash} of \"{key}\" = 0x{pos:08x}; the first virtual node clockwise is {vnode} at 0x{at:08x} → server {server}")
    },
    explain_nearest: |hash, key, pos, point, at, server| {
        format!("{hash} of \"{key}\" = 0x{pos:08x}; the nearer of the points around it, before or after, is {point} at 0x{at:08x} → server {server}")
    },
    explain_below: |hash, key, pos, point, at, server| {
        format!("{hash} of \"{key}\" = 0x{pos:08x}; the largest point at or below it (or the first, below them all) is {point} at 0x{at:08x} → server {server}")
    },
    explain_nobody: |hash, key, pos| {
        format!("{hash} of \"{key}\" = 0x{pos:08x}, but no server is up, so no server owns it")
    },
    explain_tag: " (hash tag \"{0}\")",
    explain_slot: |key, tag, slot, served| format!("CRC16(\"{key}\"){tag} mod 16384 = slot {slot}; {served}"),
    slot_served: |slot, master| format!("slot {slot} is served by {master}"),
    slot_failover: |slot, master, by| {
        format!("slot {slot}'s master {master} is down, so the next live range clockwise serves it: {by}")
    },
    slot_nobody: |slot, master| {
        format!("slot {slot}'s master {master} is down and no server is up, so no server owns it")
    },
    explain_modulo: |hash, key, value, n, i, server| {
        format!("{hash} of \"{key}\" = {value}; {value} mod {n} = {i} → server number {i} of the {n} that are up: {server}")
    },
    explain_modulo_nobody: |hash, key, value| {
        format!("{hash} of \"{key}\" = {value}, but no server is up, so no server owns it")
    },
    explain_scores_nobody: |key| {
        format!("\"{key}\" would be scored by every server, but no server is up, so no server owns it")
    },
    explain_scores: |what, highest, owner| {
        let rule = if highest { "highest" } else { "smallest" };
        format!("every server scores the key with {what}; the {rule} score wins → {owner}")
    },
    explain_jump: |digest, key, value, path, n, server| {
        format!("{digest} of \"{key}\" = 0x{value:016x}; jump over {n} buckets visits {path}; the last is its bucket → {server}")
    },
    explain_bucket: |algo, digest, key, value, n, bucket, server| {
        format!("{digest} of \"{key}\" = 0x{value:016x}; {algo} over {n} buckets picks bucket {bucket} → {server}")
    },
    explain_probes: |k, key, probe, label, at, distance, server| {
        format!("{k} probes of \"{key}\"; the nearest, at 0x{probe:08x}, reaches {label}'s point at 0x{at:08x} (distance {distance}) → {server}")
    },
    explain_pg: |key, hash, pg, pg_num, rejected, server, replicas| {
        let again = if rejected.is_empty() { String::new() } else { format!("; {rejected} won but is out: drawn again with r + 1") };
        let acting = if replicas.is_empty() { server.to_string() } else { format!("{server}, {replicas}") };
        format!("rjenkins(\"{key}\") = 0x{hash:08x}; ceph_stable_mod(·, {pg_num}) = placement group 1.{pg:x}; CRUSH straw2 (every OSD draws ln(u) / weight, the highest wins{again}) gives the acting set [{acting}] of a pool of 3 → primary {server}")
    },
    explain_pg_hierarchy: |key, hash, pg, pg_num, kind, copies, server| {
        format!("rjenkins(\"{key}\") = 0x{hash:08x}; ceph_stable_mod(·, {pg_num}) = placement group 1.{pg:x}; CRUSH descends the map's hierarchy by straw2 draws, one copy per {kind}: the acting set [{copies}] of a pool of 3 → primary {server}")
    },
    explain_cell: |digest, key, cell, size, server| {
        format!("{digest} of \"{key}\" mod {size} = cell {cell} of the lookup table → {server}")
    },
    explain_chain: |algo, digest, key, value, path, bucket, server| {
        format!("{digest} of \"{key}\" = 0x{value:016x}; {algo} visits buckets {path} (✗ = removed); bucket {bucket} works → {server}")
    },
    explain_bounded: |hash, key, position, capacity, first, skipped, server| {
        if skipped.is_empty() {
            format!("{hash}(\"{key}\") = 0x{position:08x}; the first point clockwise is {first}'s, which had room (capacity {capacity} keys) → {server}")
        } else {
            format!("{hash}(\"{key}\") = 0x{position:08x}; walking clockwise it passed {skipped}, already full (capacity {capacity} keys each) → {server}")
        }
    },
    explain_no_bucket: "\"{0}\" has no bucket: no server is up",
    weighted_score: |score, hash, weight| format!("{} (hash 0x{hash:08x}, weight {})", Fixed(score, 6), Shortest(weight)),

    link_not_loaded: |reasons| {
        format!("This link's scenario was not loaded: {reasons}. Showing the default scenario instead; the address bar keeps your link until you change something.")
    },
    link_problem: "This link has a problem: {0}.",
    busy: |n| {
        format!(
            "Still placing keys for the previous step; {} ignored so far. Wait for the progress bar to finish.",
            plural(n, "action", "actions")
        )
    },
    ignored: |n| {
        format!(
            "{} came while keys were still being placed and {} ignored; try again now.",
            plural(n, "action", "actions"),
            if n == 1 { "was" } else { "were" }
        )
    },
    not_applied: |reason| reason.to_owned(),

    to_light: "☀ Light",
    to_dark: "☾ Dark",
    present: "Present",
    present_hint: "Presentation mode: large type for a projector (F: full screen)",
    end_present: "End presentation",
    share: "Share and embed",
    copy_link: "Copy link",
    copy_embed: "Copy embed code",
    copied: "Copied",
    link_field: "Link to this view",
    embed_field: "Embed code (an iframe for a documentation page)",
    embed_title: |algo, servers, keys| format!("hashring-lab: {algo}, {servers} servers, {keys} keys"),
    open_full: "Open full page ↗",
    shortcuts: "Keyboard shortcuts",
    shortcut_list: [
        ("A", "add a server"),
        ("R", "remove the last server"),
        ("Space", "play or pause the walking keys"),
        ("+  −  0", "zoom in, zoom out, reset"),
        ("← →", "previous / next tour step (also Page Up / Page Down)"),
        ("F", "full screen"),
        ("P", "presentation mode"),
        ("Q", "the link as a QR code"),
        ("?", "this list"),
        ("Esc", "close this list"),
    ],
    close: "Close",
    export: "Export",
    png_ring: "Ring (PNG)",
    png_load: "Load chart (PNG)",
    png_share: "Share chart (PNG)",
    csv_counts: "Keys per server (CSV)",
    csv_keys: "Every key's server (CSV)",
    csv_moved: "Moved keys: {0} (CSV)",
    scenario_json: "Scenario (JSON)",
    open_scenario: "Open scenario…",
    paste_config: "Your nginx upstream, HAProxy backend, twemproxy pool, Redis CLUSTER NODES, nodetool ring or Ceph CRUSH map",
    use_config: "Use this config",
    backups_left_out: "Left out: backup server(s) {0} (the hash places keys on the primary servers; backups serve only when none is up).",
    paste_keys: "Your keys, one per line (up to 10,000)",
    use_keys: "Use these keys",
    exporting: "Writing keys: {0} of {1}…",
    reading: "Reading: {0}%…",

    held_paste: "Pasted {0} ({1} lines): kept aside, not shown in the box, so the page stays quick.",
    forget_paste: "Clear",
    bad_file: "This file was not opened: {0}. Nothing changed.",
    reason_separator: "; ",
    problem: |p| p.to_string(),

    compare_view: "Compare algorithms",
    back_to_ring: "← Back to the ring",
    compared: "Algorithms compared",
    compare_change: "The same change for every algorithm",
    compare_changes: ["Add a server", "Remove the first server", "Fail the first server"],
    compare_columns: [
        "Algorithm",
        "Keys moved",
        "Moved between survivors",
        "Peak / mean",
        "σ",
        "ns / lookup",
        "Bytes",
        "Build ms",
    ],
    comparing: |done, total| format!("Comparing: {done} of {total} algorithms…"),
    compare_verdict: |closest, pct, ideal, balanced, peak, inconsistent| {
        let left_out = match inconsistent {
            0 => String::new(),
            1 => " 1 algorithm moved keys between servers the change left alone and is left out.".to_owned(),
            n => format!(" {n} algorithms moved keys between servers the change left alone and are left out."),
        };
        format!("Nearest the ideal {ideal} without moving keys between untouched servers: {closest} ({pct}). Best balance among those: {balanced} (peak / mean {peak}).{left_out}")
    },
    compare_chart_label: "Scatter chart: each algorithm's keys moved against its peak-to-mean load; lower left is better",
    ideal_word: "ideal",
    compare_narrow: "σ, time per lookup, bytes and build time: on a wider screen",
    compare_legend: [
        "the verdict's picks",
        "weighed by the verdict",
        "left out: moves keys between untouched servers",
    ],
    compare_axes: ["→ keys moved (%)", "↑ peak / mean"],

    tours: "Guided tour",
    choose_tour: "Choose a tour…",
    step_of: |k, n| format!("Step {k} of {n}"),
    previous: "← Previous",
    next: "Next →",
    next_tour: "Next story: {0} →",
    leave_tour: "Leave tour",
    predict_add: "Predict first: when Next adds {0}, how many of the {1} keys will move?",
    predict_remove: "Predict first: when Next removes {0}, how many of the {1} keys will move?",

    predict_label: "Your guess (keys)",
    reveal: "You guessed {0}. Moved: {1} ({2}) — the ideal is {3}.",
    no_guess: "Nobody guessed this time: the answer is in the readout.",
    history_heading: "Followed: its owner after each change",
    history_pinned: "pinned on {0}",
    history_moved: "{0} → moved to {1}",

    history_stayed: "{0} → stayed on {1}",
    print_handout: "Print handout",
    print_hint: "Walks the tour and prints one page per step: the ring, the narration and what moved",
    qr_code: "QR code",
    qr_hint: "Show this view's link as a QR code, for phones in the room (Q)",
    qr_caption: "Scan to open exactly this view:",
    qr_too_long: "This link is too long for a QR code; share it as text instead.",
    qr_loopback: "Only this computer opens {0}. For phones: make serve HOST=0.0.0.0, then open the address it prints.",
    link_too_long: "This scenario's link would be longer than a browser opens (2 MB): share it as a scenario file (Export → Scenario (JSON)).",
    notes: "Speaker notes",
    notes_hint: "Opens this tour's notes in a second window (for your own screen); it follows your steps, and its buttons move both windows",
    notes_follow: "This window follows the presenting window of this browser; its ← / → and buttons move both.",
    notes_no_tour: "No tour is open. Choose one here or in the presenting window.",
    notes_point: "Point at: {0}.",
    notes_next: "Next step: {0}.",

    notes_lookup: "look up {0}",
    notes_new_scenario: "a new scenario",
    notes_same: "the same picture, the story goes on",
    notes_end: "This is the last step of the last tour.",
    focus_ring: "the ring",
    focus_readout: "the readout of what moved",
    focus_table: "the keys-per-server table",
    focus_load: "the load chart and its figures",
    focus_lookup: "the lookup and its explanation",
    focus_store: "the stored values",
    focus_sweep: "the sweep chart",
    tour_words: [
        TourWords {
            title: "hash mod N: almost every key moves",
            steps: &[
                |f| format!("Four servers numbered 0 to 3 and {} keys numbered 1 to {}. hash mod N puts each key on server number key mod 4: the lookup shows key 6 → 6 mod 4 = 2 → server {}.", f.keys, f.keys, f.owner()),
                |f| format!("Add a fifth server and N becomes 5: every key is placed again as key mod 5. Only {} of {} keys stay where they were ({}); {} move ({}), to and from every server.", f.stayed, f.keys, f.stayed_pct, f.moved, f.moved_pct),
                |f| format!("A key stays only when its number leaves the same remainder mod 4 and mod 5, like key 20: 20 mod 5 = 0, and 20 mod 4 was 0 too, so it is still on server {}. Adding a server to N keeps only about one key in N+1. Consistent hashing was invented to fix exactly this — see the ring tour.", f.owner()),
            ],
        },
        TourWords {
            title: "The ring: only the neighbours' keys move",
            steps: &[
                |f| format!("Objects and caches are hashed onto the same circle of positions 0 … 2³²−1. Each object walks clockwise to the first cache it meets and is stored there: the caches hold {}.", f.listed(", ")),
                |f| format!("Remove {}: only what it held moves — {} — all to the next cache clockwise, {}. Every other object stays where it was.", f.removed(), if f.moved == "1" { "1 object".to_owned() } else { format!("{} objects", f.moved) }, f.moved_to.join(", ")),
                |f| format!("Add {}: it takes only the objects between itself and the cache before it, counter-clockwise — {} of {}, all from {}. Nothing else moves.", f.newest(), f.moved, f.keys, f.moved_from.join(", ")),
            ],
        },
        TourWords {
            title: "Virtual nodes balance the ring",
            steps: &[
                |f| format!("The ring of the post “Consistent HASH”: four servers, one point each, hashed with Java's String.hashCode as the post does. The {} user keys are far from balanced: {} holds {} ({}), {} only {}.", f.keys, f.busiest.0, f.busiest.1, f.busiest_pct, f.quietest.0, f.quietest.1),
                |f| format!("A better hash (xxh3) does not fix it: with only four points the arcs between them are unequal, so {} holds {} keys ({}). The standard deviation of the counts is {}.", f.busiest.0, f.busiest.1, f.busiest_pct, f.stddev),
                |f| format!("Virtual nodes: each server is placed {} times, as 192.168.0.1#0, 192.168.0.1#1, …, so it owns several shorter arcs spread round the ring. The standard deviation is now {}.", f.vnodes, f.stddev),
                |f| format!("With {} virtual nodes per server (the post “Redis consistent hashing” recommends 100–200) the arcs even out: the standard deviation falls to {} and peak / mean to {}.", f.vnodes, f.stddev, f.peak_mean),
                |f| format!("Add a fifth server: it takes {} keys ({}; ideal {}) — a little from every server, since its points are spread round the ring — and no key moves between the old servers.", f.moved, f.moved_pct, f.ideal_pct),
            ],
        },
        TourWords {
            title: "How many virtual nodes? σ against vnodes",
            steps: &[
                |f| format!("The experiment of the post “Consistent hashing in Java, tested by standard deviation”: {} servers, keys key-0, key-1, …, and the standard deviation σ of the keys per server as the virtual nodes per server grow from 1 to 1,000. The measured curve falls like 1/√v (dashed) and flattens out around 100–200 vnodes: beyond that, more vnodes cost memory and buy little balance.", f.servers),
                |f| format!("The ring itself with {} virtual nodes per server: {} keys, σ = {}, peak / mean {}. The curve is near its flat end, yet the picture is lopsided: this weak hash (Hutool's FNV) puts the vnodes in clumps, and {} owns {} of the ring. More vnodes cannot fix a hash that clusters.", f.vnodes, f.keys, f.stddev, f.peak_mean, f.top_share.0, f.top_share.1),
            ],
        },
        TourWords {
            title: "The Java example of “Redis consistent hashing”, count for count",
            steps: &[
                |f| format!("The Java example of the post “Redis consistent hashing”: four servers with 200 virtual nodes each, MurmurHash64A, {} keys. The table shows exactly the counts the post prints: {}.", f.keys, f.listed(", ")),
                |f| format!("Remove {}: its {} keys go to the three others, and the counts are again the post's: {}.", f.removed(), f.moved, f.listed(", ")),
                |f| format!("Add {}: it takes {} keys from {}. The post prints {}.", f.newest(), f.moved, Facts::tags(&f.moved_from, ", "), f.listed(", ")),
                |f| format!("Add {} and double the business to {} keys: {} — the post's last table, count for count.", f.newest(), f.keys, f.listed(", ")),
            ],
        },
        TourWords {
            title: "CARP: the best score wins",
            steps: &[
                |f| format!("CARP, as the Redis-cache post on SegmentFault uses it: every server scores a key with MD5(server name + key), and the smallest digest wins. The table under the lookup shows all {} scores for user:42: {} wins.", f.servers, f.owner()),
                |f| format!("Add redis5: a key moves only where redis5's score beats the old winner's — {} of {} keys ({}; ideal {}), all of them to {}.", f.moved, f.keys, f.moved_pct, f.ideal_pct, f.moved_to.join(", ")),
            ],
        },
        TourWords {
            title: "Hash slots: Redis Cluster's 16,384, Ceph's placement groups",
            steps: &[
                |f| format!("Redis Cluster: a key's slot is CRC16(key) mod 16384, and each master serves ranges of slots. {{user1}}.following has a hash tag, so only \"user1\" is hashed: slot {}, served by {}.", f.slot.unwrap_or_default(), f.owner()),
                |f| format!("{{user1}}.followers has the same tag, so it lands in the same slot {} on the same master, {}: multi-key commands find both keys on one node.", f.slot.unwrap_or_default(), f.owner()),
                |f| format!("Add a fourth master: resharding moves whole slots — a quarter of the 16,384 — to node-7003, and with them {} keys ({}), all to {}.", f.moved, f.moved_pct, f.moved_to.join(", ")),
                |f| format!("Ceph has the same two levels but computes the second: an object's name hashes (rjenkins) to one of the pool's 256 placement groups — the cells — and CRUSH's straw2 draws each group's OSD from the OSDs and their weights, so there is no slot table to store or reshard by hand. Add osd.3: it wins about a quarter of the groups, and {} keys ({}; ideal {}) move, all to {}.", f.moved, f.moved_pct, f.ideal_pct, f.moved_to.join(", ")),
                |f| format!("A real Ceph cluster has hosts. This CRUSH map — the inner ring — holds 3 hosts of 4 OSDs, and its rule is chooseleaf firstn 0 type host: each copy of a group goes to a different host, so losing a host loses one copy at most. obj-1's group keeps its 3 copies on {}: three lines, three hosts.", f.copies_listed(", ")),
                |f| { let g = f.groups.clone().unwrap_or_default(); format!("Add a host, node-d, of 4 OSDs: CRUSH remaps {} of the {} placement groups and moves {} of the {} copies, yet only {} groups change their primary — counting primaries, as the keys above do, undercounts the data that moves. obj-1's copies are now on {}.", g[0], g[1], g[2], g[3], g[4], f.copies_listed(", ")) },
            ],
        },
        TourWords {
            title: "The stale-data defect",
            steps: &[
                |f| format!("The post “Redis consistent hashing”, §6: key2 hashes onto {}'s arc, so the write key2 = {} is stored on {}.", f.owner(), f.held("NODE2"), f.owner()),
                |f| format!("NODE2 fails. Its keys walk on clockwise, so the next write, key2 = {}, is stored on {}. NODE2 still holds the old value, {}.", f.held(f.owner()), f.owner(), f.held("NODE2")),
                |f| format!("NODE2 recovers and takes its arc back: reads of key2 go to {} again and return {}, the stale value, while NODE3 holds {}. The two copies disagree.", f.owner(), f.read_value(), f.held("NODE3")),
                |f| format!("What real systems do: when a node recovers, what was written to its arc meanwhile is migrated back to it (or its old copy is invalidated first). Migrated here: NODE2 holds {} and a read of key2 returns {}.", f.held("NODE2"), f.read_value()),
            ],
        },
        TourWords {
            title: "Why did keys move between servers I didn't touch?",
            steps: &[
                |f| format!("nginx, four upstream servers, {} keys. Add {}: {} keys move ({}), every one of them to the new server. Between the servers the change left alone: {}.", f.keys, f.newest(), f.moved, f.moved_pct, f.between),
                |f| format!("Envoy's ring_hash, the same servers and keys, the same server added: {} keys move ({}), and {} of them go between hosts nobody touched. Envoy's ring has a fixed total size, so the new host's points come out of every old host's share.", f.moved, f.moved_pct, f.between),
                |f| format!("memcached's ketama, one server of weight 2: add {} and every server's number of points is counted again from its share of the weights — {} of the {} keys that move go between servers the change left alone.", f.newest(), f.between, f.moved),
                |f| format!("HAProxy numbers servers in the order the config declares them. Remove the first: every other server's number drops by one, its points move with it, and {} of the {} keys that move go between servers that stayed.", f.between, f.moved),
            ],
        },
        TourWords {
            title: "How each one decides",
            steps: &decides(|f| format!("One key, seven rules, the same five servers: each picture draws how its rule decides. {}", f.picture)),
        },
    ],
    stored_values: "What each server stores for {0}",
    col_value: "Stored value",
    read_returns: "A read of {0} goes to {1} and returns {2}.",
    nothing_stored: "—",
    sweep_heading: "Vnode sweep",
    sweep_chart_label: "Line chart of the standard deviation of keys per server against virtual nodes per server, with the 1/√v trend dashed",
    sweep_x: "virtual nodes per server",
    sweep_y: "σ of keys per server",
    sweep_measured: "measured σ",
    sweep_trend: "σ(1)/√v",
    sweep_run: "Run the sweep",
    sweep_setup: |servers, keys| format!("{servers} servers, {keys} keys, vnodes 1 → 1,000"),
};
