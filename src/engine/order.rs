//! Every sort in the crate, through two small routines.
//!
//! Why not `slice::sort*`: each call of std's sorts with its own element type or closure
//! compiles its own copy of ipnsort/driftsort, 2–5 KB of wasm each — twenty copies were
//! 64 KB of the page. Here a sort either has a `u64` key per item (`sort_by_key`: one
//! instance of radsort's stable radix sort on `(key, index)` pairs, linear, what the big
//! sorts need) or a comparison (`sort_by`: one non-generic merge sort on indices, for
//! the few sorts of names). Both are stable; each applies the order it found with one
//! small generic permutation.

use std::cmp::Ordering;

/// Sorts `items` by `key`, stably (equal keys keep their order).
pub fn sort_by_key<T>(items: &mut [T], key: impl Fn(&T) -> u64) {
    if items.len() < 2 {
        return;
    }
    let mut keyed: Vec<(u64, u32)> = items
        .iter()
        .enumerate()
        .map(|(i, t)| (key(t), i as u32))
        .collect();
    radix(&mut keyed);
    let order: Vec<u32> = keyed.into_iter().map(|(_, i)| i).collect();
    permute(items, &order);
}

/// Sorts integers (anything that widens to `u64`) in increasing order.
pub fn sort<T: Copy + Into<u64>>(items: &mut [T]) {
    sort_by_key(items, |&t| t.into());
}

/// Sorts `items` by the comparison `cmp`, stably.
pub fn sort_by<T>(items: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let order = merge_order(items.len(), &|a, b| cmp(&items[a], &items[b]));
    permute(items, &order);
}

/// The one instance of the radix sort (stable, by the first field).
#[inline(never)]
fn radix(keyed: &mut [(u64, u32)]) {
    radsort::sort_by_key(keyed, |p| p.0);
}

/// The order of `0..n` sorted by `cmp` on indices: a bottom-up merge sort, stable.
#[inline(never)]
fn merge_order(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<u32> {
    let mut from: Vec<u32> = (0..n as u32).collect();
    let mut to = vec![0u32; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j) = (start, mid);
            for slot in &mut to[start..end] {
                // Take from the right run only when it is strictly smaller: stable.
                let right = j < end
                    && (i >= mid || cmp(from[j] as usize, from[i] as usize) == Ordering::Less);
                if right {
                    *slot = from[j];
                    j += 1;
                } else {
                    *slot = from[i];
                    i += 1;
                }
            }
            start = end;
        }
        std::mem::swap(&mut from, &mut to);
        width *= 2;
    }
    from
}

/// Rearranges `items` so that position `k` holds what was at `order[k]`, following each
/// cycle of the permutation with swaps.
fn permute<T>(items: &mut [T], order: &[u32]) {
    let mut done = vec![false; items.len()];
    for start in 0..items.len() {
        if done[start] {
            continue;
        }
        let mut k = start;
        loop {
            done[k] = true;
            let source = order[k] as usize;
            if source == start {
                break;
            }
            items.swap(k, source);
            k = source;
        }
    }
}

/// Where values given more than once repeat first: for each such value, the index of its
/// second occurrence, in index order. A sort, not a hash set: the page carries one sort for
/// everything (a list can hold 100,000 names).
pub fn first_repeats(values: &[&str]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    // Stable: equal values keep their index order.
    sort_by(&mut order, |&a, &b| values[a].cmp(values[b]));
    let mut repeats: Vec<usize> = Vec::new();
    for (k, pair) in order.windows(2).enumerate() {
        let same = values[pair[0]] == values[pair[1]];
        let starts_group = k == 0 || values[order[k - 1]] != values[pair[0]];
        if same && starts_group {
            repeats.push(pair[1]);
        }
    }
    sort_by_key(&mut repeats, |&i| i as u64);
    repeats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_repeats_name_each_repeated_value_once_where_it_repeats() {
        assert_eq!(first_repeats(&["a", "b", "a", "c", "b", "a", "b"]), [2, 4]);
        assert_eq!(first_repeats(&["x", "y", "z"]), Vec::<usize>::new());
        assert_eq!(first_repeats(&["z", "y", "y", "z"]), [2, 3]);
    }

    /// A small deterministic generator, so the tests need no crate.
    fn numbers(n: usize, seed: u64, modulo: u64) -> Vec<u64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 33) % modulo
            })
            .collect()
    }

    #[test]
    fn sort_by_key_equals_std_stable_sort_with_many_ties() {
        for n in [0, 1, 2, 3, 7, 64, 1000, 4097] {
            let keys = numbers(n, n as u64, 17);
            let mut mine: Vec<(u64, usize)> = keys.iter().copied().zip(0..).collect();
            let mut std_sorted = mine.clone();
            sort_by_key(&mut mine, |p| p.0);
            std_sorted.sort_by_key(|p| p.0);
            assert_eq!(mine, std_sorted, "n = {n}");
        }
    }

    #[test]
    fn sort_by_equals_std_stable_sort_by() {
        for n in [0, 1, 2, 5, 31, 100, 1025] {
            let names: Vec<(String, usize)> = numbers(n, 7 + n as u64, 40)
                .into_iter()
                .map(|v| format!("h{v}"))
                .zip(0..)
                .collect();
            let mut mine = names.clone();
            let mut std_sorted = names;
            sort_by(&mut mine, |a, b| a.0.cmp(&b.0));
            std_sorted.sort_by(|a, b| a.0.cmp(&b.0));
            assert_eq!(mine, std_sorted, "n = {n}");
        }
    }

    #[test]
    fn sort_orders_full_range_integers() {
        let mut v: Vec<u64> = vec![u64::MAX, 0, 5, u64::MAX - 1, 5, 1 << 40];
        sort(&mut v);
        assert_eq!(v, [0, 5, 5, 1 << 40, u64::MAX - 1, u64::MAX]);
        let mut small: Vec<u16> = vec![9, 3, 65535, 0];
        sort(&mut small);
        assert_eq!(small, [0, 3, 9, 65535]);
    }
}
