//! The answer to "what moved?" after a change, as one value the page lays out beside the
//! ring: moved against total and against the ideal, the moves between servers nobody
//! touched, and the from → to table (rows: the old owners that lost keys; columns: the new
//! owners that gained them). Built from the engine's [`Movement`] alone, so the page, the
//! tours and the tests read the same numbers as the status line and `compare`.
//!
//! A table wider or taller than [`MAX_SIDE`] keeps the largest senders and receivers and
//! folds the rest into one "others" row or column, so its sums stay exact. Columns of
//! long names (`10.0.0.1:11211`) are folded at [`MAX_LONG_COLUMNS`]: five of them do not fit
//! the card beside the ring, and the largest receiver — the new server, after an add — must
//! stay in view.

use crate::engine::ring::{ServerId, NO_OWNER};
use crate::engine::sim::{Flow, Movement};
use crate::i18n::Words;
use crate::text::fill;
use crate::text::{escape, fit_names};
use crate::words::{group_thousands, name_in_text};

/// The most named rows or columns of the from → to table; the rest are folded into one.
pub const MAX_SIDE: usize = 5;

/// The most named columns when a receiver's name is longer than [`SHORT_NAME`] characters.
pub const MAX_LONG_COLUMNS: usize = 4;

/// The longest name that keeps a column narrow.
const SHORT_NAME: usize = 4;

/// One row or column of the from → to table.
#[derive(Clone, Debug, PartialEq)]
pub enum Party {
    /// A server (present, or taken away by the change).
    Server {
        /// Its id (its colour).
        id: ServerId,
        /// Its name.
        name: String,
        /// The change left it alone (up before and after, same weight).
        survivor: bool,
    },
    /// Keys that had no owner before (new keys), or have none after.
    Nobody,
    /// The servers folded together: how many.
    Others(usize),
}

impl Party {
    fn survivor(&self) -> bool {
        matches!(self, Party::Server { survivor: true, .. })
    }

    /// The server's name, when the party is one server.
    pub fn server_name(&self) -> Option<&str> {
        match self {
            Party::Server { name, .. } => Some(name),
            _ => None,
        }
    }
}

/// What moved in the last change.
#[derive(Clone, Debug, PartialEq)]
pub struct Readout {
    /// Keys whose owner changed.
    pub moved: u64,
    /// Keys after the change.
    pub keys: u64,
    /// What a minimally disruptive, balanced scheme would move (keys), when defined.
    pub ideal: Option<u64>,
    /// The same as a fraction of the keys.
    pub ideal_fraction: Option<f64>,
    /// Keys that moved between two servers up before and after the change.
    pub between_survivors: u64,
    /// Rows: who gave keys.
    pub from: Vec<Party>,
    /// Columns: who received keys.
    pub to: Vec<Party>,
    /// Row-major counts, `from.len() × to.len()`.
    pub cells: Vec<u64>,
}

impl Readout {
    /// The readout of movement `m`; `name` names a server id (also one the change took
    /// away).
    pub fn new(m: &Movement, name: &dyn Fn(ServerId) -> String) -> Readout {
        let totals = |pick: fn(&Flow) -> ServerId| {
            let mut sums: Vec<(ServerId, u64)> = Vec::new();
            for f in &m.flows {
                let id = pick(f);
                match sums.iter_mut().find(|(i, _)| *i == id) {
                    Some(s) => s.1 += f.keys,
                    None => sums.push((id, f.keys)),
                }
            }
            // Largest first; ties by id, so the table is the same every time.
            crate::engine::order::sort_by_key(&mut sums, |s| u64::from(s.0));
            crate::engine::order::sort_by_key(&mut sums, |s| u64::MAX - s.1);
            sums
        };
        let senders = totals(|f| f.from);
        let receivers = totals(|f| f.to);
        let side = |sums: &[(ServerId, u64)], most: usize| -> (Vec<Party>, Vec<ServerId>) {
            let fold = sums.len() > most;
            let shown = if fold { most - 1 } else { sums.len() };
            let mut ids: Vec<ServerId> = sums[..shown].iter().map(|s| s.0).collect();
            crate::engine::order::sort(&mut ids);
            let mut parties: Vec<Party> = ids
                .iter()
                .map(|&id| {
                    if id == NO_OWNER {
                        Party::Nobody
                    } else {
                        Party::Server {
                            id,
                            name: name(id),
                            survivor: m.survives(id),
                        }
                    }
                })
                .collect();
            if fold {
                parties.push(Party::Others(sums.len() - shown));
            }
            (parties, ids)
        };
        let long = receivers
            .iter()
            .any(|&(id, _)| id != NO_OWNER && name(id).chars().count() > SHORT_NAME);
        let columns = if long { MAX_LONG_COLUMNS } else { MAX_SIDE };
        let (from, from_ids) = side(&senders, MAX_SIDE);
        let (to, to_ids) = side(&receivers, columns);
        let index =
            |ids: &[ServerId], id: ServerId| ids.iter().position(|&i| i == id).unwrap_or(ids.len());
        let mut cells = vec![0; from.len() * to.len()];
        for f in &m.flows {
            let (r, c) = (index(&from_ids, f.from), index(&to_ids, f.to));
            cells[r * to.len() + c] += f.keys;
        }
        Readout {
            moved: m.moved,
            keys: m.keys,
            ideal: m.ideal_keys(),
            ideal_fraction: m.ideal_fraction,
            between_survivors: m.between_survivors,
            from,
            to,
            cells,
        }
    }

    /// The count of row `r`, column `c`.
    pub fn cell(&self, r: usize, c: usize) -> u64 {
        self.cells[r * self.to.len() + c]
    }

    /// Whether cell (`r`, `c`) counts keys that moved between two untouched servers.
    pub fn between(&self, r: usize, c: usize) -> bool {
        self.from[r].survivor() && self.to[c].survivor()
    }

    /// Moved keys as a fraction of all keys.
    pub fn fraction(&self) -> f64 {
        if self.keys == 0 {
            0.0
        } else {
            self.moved as f64 / self.keys as f64
        }
    }
}

/// The from → to table of `r` as markup (`div.flows-wrap` with `table.flows`, then the
/// flows in words for screen readers): display only, so written as text like the compare
/// table, and tested natively as the very markup the page shows (for a table this small
/// the bytes saved are few: 122 B gzip). `colour` gives a server's swatch colour; the
/// swatch is the same markup as `ui::controls::swatch` draws. Names are shortened by the page's one
/// rule ([`fit_names`]) where the table is narrow, the whole name kept in the cell's title
/// and for screen readers; a flow between two servers the change left alone is marked.
pub fn flows_markup(w: &Words, r: &Readout, colour: &dyn Fn(ServerId) -> String) -> String {
    let names: Vec<&str> = r
        .from
        .iter()
        .chain(&r.to)
        .filter_map(Party::server_name)
        .collect();
    let room = if r.to.len() > 4 { 6 } else { 8 };
    let short = fit_names(&names, room);
    let name_of = |p: &Party| match p {
        Party::Server { name, .. } => name.clone(),
        Party::Nobody => w.nobody.to_owned(),
        Party::Others(n) => (w.flows_others)(*n),
    };
    let head = |p: &Party, scope: &str| {
        let name = name_of(p);
        let swatch = match p {
            Party::Server { id, .. } => format!(
                r#"<svg class="swatch" viewBox="0 0 14 14" aria-hidden="true"><rect width="14" height="14" rx="4" fill="{}"></rect></svg>"#,
                colour(*id)
            ),
            _ => String::new(),
        };
        let visible = names
            .iter()
            .position(|n| *n == name)
            .map_or(name.as_str(), |i| short[i].as_str());
        let (name_e, visible_e) = (escape(&name), escape(visible));
        let text = if visible == name {
            format!(r#"<span class="name-text">{name_e}</span>"#)
        } else {
            format!(
                r#"<span class="name-text" aria-hidden="true">{visible_e}</span><span class="visually-hidden">{name_e}</span>"#
            )
        };
        format!(r#"<th scope="{scope}" title="{name_e}">{swatch}{text}</th>"#)
    };
    let cell = |row: usize, col: usize| {
        let n = r.cell(row, col);
        let between = n > 0 && r.between(row, col);
        format!(
            r#"<td class="num{}{}"{}>{}</td>"#,
            if n == 0 { " zero" } else { "" },
            if between { " between" } else { "" },
            if between {
                format!(r#" title="{}""#, escape(w.flow_between_hint))
            } else {
                String::new()
            },
            if n == 0 {
                "·".to_owned()
            } else {
                group_thousands(n)
            }
        )
    };
    let transposed = r.from.len() == 1 && r.to.len() > 1;
    let (corner, heads, rows) = if transposed {
        let rows: String =
            r.to.iter()
                .enumerate()
                .map(|(col, p)| format!("<tr>{}{}</tr>", head(p, "row"), cell(0, col)))
                .collect();
        (w.flows_corner_transposed, head(&r.from[0], "col"), rows)
    } else {
        let heads: String = r.to.iter().map(|p| head(p, "col")).collect();
        let rows: String = r
            .from
            .iter()
            .enumerate()
            .map(|(row, p)| {
                let cells: String = (0..r.to.len()).map(|col| cell(row, col)).collect();
                format!("<tr>{}{cells}</tr>", head(p, "row"))
            })
            .collect();
        (w.flows_corner, heads, rows)
    };
    let mut spoken = Vec::new();
    for (row, from) in r.from.iter().enumerate() {
        for (col, to) in r.to.iter().enumerate() {
            let n = r.cell(row, col);
            if n > 0 {
                spoken.push(fill(
                    w.flow_words,
                    &[
                        &name_in_text(&name_of(from)),
                        &name_in_text(&name_of(to)),
                        &group_thousands(n),
                    ],
                ));
            }
        }
    }
    format!(
        r#"<div class="flows-wrap"><table class="flows{}"><caption>{}</caption><thead><tr><td class="corner">{}</td>{heads}</tr></thead><tbody>{rows}</tbody></table></div><p class="visually-hidden">{}</p>"#,
        if transposed { " transposed" } else { "" },
        escape(w.flows_caption),
        escape(corner),
        escape(&spoken.join(w.list_separator))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn movement(flows: &[(ServerId, ServerId, u64)], survivors: &[ServerId]) -> Movement {
        Movement {
            moved: flows.iter().map(|f| f.2).sum(),
            keys: 1000,
            flows: flows
                .iter()
                .map(|&(from, to, keys)| Flow { from, to, keys })
                .collect(),
            ideal_fraction: Some(0.2),
            survivors: survivors.to_vec(),
            between_survivors: 7,
            ..Movement::default()
        }
    }

    fn names(id: ServerId) -> String {
        ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"][usize::from(id)].to_owned()
    }

    /// The table as the page shows it: an add is one column, a row per sender (a removal,
    /// one sender, is written transposed), each cell's number, a flow between untouched servers marked, the
    /// swatches in the servers' colours, names escaped, and every flow said in words.
    #[test]
    fn the_flows_table_markup_is_what_the_readout_holds() {
        let m = movement(&[(0, 4, 50), (1, 4, 1200), (3, 4, 80)], &[0, 1, 2, 3]);
        let r = Readout::new(&m, &names);
        let colour = |id: ServerId| format!("#00000{id}");
        let html = flows_markup(&crate::i18n::EN, &r, &colour);
        assert!(html.starts_with(r#"<div class="flows-wrap"><table class="flows">"#));
        assert_eq!(
            html.matches("<tr>").count(),
            1 + 3,
            "a head row and one per sender"
        );
        assert!(html.contains(r#"<td class="num">1,200</td>"#), "{html}");
        assert!(
            html.contains(r##"fill="#000004""##),
            "E's swatch in E's colour"
        );
        assert!(html.contains(r#"<th scope="row" title="A">"#));
        assert_eq!(html.matches("<p class=\"visually-hidden\">").count(), 1);
        let removal = movement(&[(2, 0, 5), (2, 1, 6)], &[0, 1]);
        let html = flows_markup(&crate::i18n::EN, &Readout::new(&removal, &names), &colour);
        assert!(
            html.contains(r#"<table class="flows transposed">"#),
            "{html}"
        );
        // Between two survivors: marked, with its hint.
        let m = movement(&[(0, 1, 5)], &[0, 1]);
        let html = flows_markup(&crate::i18n::EN, &Readout::new(&m, &names), &colour);
        assert!(html.contains(r#"<td class="num between" title="#), "{html}");
        // A name that is markup is shown as text.
        let odd = |_: ServerId| "<b>&".to_owned();
        let html = flows_markup(&crate::i18n::EN, &Readout::new(&m, &odd), &colour);
        assert!(
            html.contains("&lt;b&gt;&amp;") && !html.contains("<b>"),
            "{html}"
        );
    }

    #[test]
    fn an_add_is_one_column_with_each_sender_a_row() {
        let m = movement(&[(0, 4, 50), (1, 4, 70), (3, 4, 80)], &[0, 1, 2, 3]);
        let r = Readout::new(&m, &names);
        let row_names: Vec<_> = r
            .from
            .iter()
            .map(|p| match p {
                Party::Server { name, .. } => name.clone(),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(row_names, ["A", "B", "D"], "rows in server order");
        assert_eq!(r.to.len(), 1);
        assert_eq!(
            (r.cell(0, 0), r.cell(1, 0), r.cell(2, 0)),
            (50, 70, 80),
            "each sender's keys to E"
        );
        assert_eq!((r.moved, r.ideal, r.between_survivors), (200, Some(200), 7));
        assert!(
            !r.between(0, 0),
            "to the new server is not between survivors"
        );
    }

    #[test]
    fn a_wide_table_folds_the_smallest_into_others_and_keeps_the_sums() {
        // Mod-N-like: every server sends to every other.
        let mut flows = Vec::new();
        for from in 0..9u16 {
            for to in 0..9u16 {
                if from != to {
                    flows.push((from, to, u64::from(from * 10 + to + 1)));
                }
            }
        }
        let m = movement(&flows, &[0, 1, 2, 3, 4, 5, 6, 7, 8]);
        let r = Readout::new(&m, &names);
        assert_eq!((r.from.len(), r.to.len()), (MAX_SIDE, MAX_SIDE));
        assert_eq!(r.from[MAX_SIDE - 1], Party::Others(9 - (MAX_SIDE - 1)));
        assert_eq!(
            r.cells.iter().sum::<u64>(),
            m.moved,
            "folding keeps every key"
        );
        // The biggest senders (the highest ids here, up to 8) are named, in id order.
        let first = (9 - (MAX_SIDE - 1)) as ServerId;
        assert!(
            matches!(r.from[0], Party::Server { id, .. } if id == first),
            "{:?}",
            r.from
        );
        assert!(r.between(0, 0));
        assert!(!r.between(MAX_SIDE - 1, 0), "others are not one server");
        // Long names: four columns, the largest receivers kept (rows stay five).
        let long = |id: ServerId| format!("10.0.0.{id}:11211");
        let r = Readout::new(&m, &long);
        assert_eq!((r.from.len(), r.to.len()), (MAX_SIDE, MAX_LONG_COLUMNS));
        assert_eq!(
            r.to[MAX_LONG_COLUMNS - 1],
            Party::Others(9 - (MAX_LONG_COLUMNS - 1))
        );
        assert_eq!(r.cells.iter().sum::<u64>(), m.moved);
        // (a receiver gets 368 − 2 × its id here: the lowest ids are the largest)
        assert!(r.to[..3]
            .iter()
            .all(|p| matches!(p, Party::Server { id, .. } if *id <= 2)));
    }

    #[test]
    fn new_keys_come_from_nobody() {
        let m = movement(&[(NO_OWNER, 0, 5), (1, 0, 3)], &[0, 1]);
        let r = Readout::new(&m, &names);
        assert_eq!(r.from[1], Party::Nobody);
        assert_eq!(r.cell(1, 0), 5);
    }
}
