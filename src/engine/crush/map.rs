//! CRUSH over a hierarchy, as Ceph 16 runs it for replicated pools: `crush_do_rule` with
//! `take`, `choose`/`chooseleaf firstn N type T` and `emit` steps (`src/crush/mapper.c`),
//! over straw2 buckets of any depth — hosts, racks, rows, as the map declares its types.
//!
//! Why a hierarchy matters: `chooseleaf firstn 0 type host` picks distinct *hosts* first
//! and one OSD under each, so a placement group's replicas never share a host (the failure
//! domain). The retries are CRUSH's own, bit for bit: a draw that lands on an OSD already
//! chosen, an out OSD (the OSD map's weight 0, or a re-weight's coin toss by `is_out`) or
//! an empty bucket is drawn again with `r + 1`, `choose_total_tries` times in all; the
//! tunables `chooseleaf_descend_once`, `chooseleaf_vary_r` and `chooseleaf_stable` change
//! how the leaf under a chosen host is searched, exactly as in the mapper.
//!
//! Not modelled (the reader refuses them, naming the line): erasure-coded (`indep`) and
//! `msr` rules, bucket algorithms other than straw2, local fallback retries (the legacy
//! tunables), weight sets (`choose_args`).

use super::{hash2, straw2_draw};

/// One bucket: its id (negative), its type's id, and its items (devices by their id ≥ 0,
/// buckets by theirs < 0) with their CRUSH weights in 16.16 fixed point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bucket {
    /// The bucket's id, below 0.
    pub id: i32,
    /// Its type's id (`type 1 host` → 1); devices are type 0.
    pub kind: i32,
    /// Its items' ids.
    pub items: Vec<i32>,
    /// Its items' weights, 16.16.
    pub weights: Vec<u32>,
}

impl Bucket {
    /// The bucket's weight: its items' weights added (as CRUSH adds them, in 32 bits).
    pub fn weight(&self) -> u32 {
        self.weights.iter().fold(0u32, |a, w| a.wrapping_add(*w))
    }

    /// `bucket_straw2_choose`: the item with the highest draw `ln(u) / weight` (the first
    /// on a tie).
    fn straw2_choose(&self, x: u32, r: u32) -> i32 {
        let mut high = (0, i64::MIN);
        for (i, (&item, &weight)) in self.items.iter().zip(&self.weights).enumerate() {
            let draw = straw2_draw(x, item as u32, r, weight);
            if i == 0 || draw > high.1 {
                high = (i, draw);
            }
        }
        self.items[high.0]
    }
}

/// The tunables that change a mapping (a map's `tunable` lines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunables {
    /// Retries in the same bucket after a collision before descending again.
    pub choose_local_tries: u32,
    /// Tries in all for one replica (the map's value; the mapper adds one).
    pub choose_total_tries: u32,
    /// A `chooseleaf` under a chosen bucket tries once (else as many times as the choice).
    pub chooseleaf_descend_once: bool,
    /// The leaf search's `r` follows the outer choice's (`r >> (vary_r - 1)`; 0: `r = 0`).
    pub chooseleaf_vary_r: u32,
    /// The leaf search starts at replica 0 for every replica, so adding a replica moves
    /// no other.
    pub chooseleaf_stable: bool,
}

impl Tunables {
    /// Ceph's `optimal` profile since jewel, what a cluster made today has.
    pub const JEWEL: Tunables = Tunables {
        choose_local_tries: 0,
        choose_total_tries: 50,
        chooseleaf_descend_once: true,
        chooseleaf_vary_r: 1,
        chooseleaf_stable: true,
    };
}

/// One step of a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `take ITEM`: start from this bucket (or device).
    Take(i32),
    /// `choose firstn N type T` (`leaf`: `chooseleaf`, one device under each): `count` ≤ 0
    /// is relative to the pool's size (`0`: as many as the pool has replicas).
    Choose {
        /// How many, or fewer than the pool's size by its absolute value.
        count: i32,
        /// The type chosen.
        kind: i32,
        /// `chooseleaf`: a device under each chosen item.
        leaf: bool,
    },
    /// `emit`: the chosen items join the result.
    Emit,
    /// `set_choose_tries N`.
    SetChooseTries(i32),
    /// `set_chooseleaf_tries N`.
    SetChooseleafTries(i32),
    /// `set_choose_local_tries N`.
    SetChooseLocalTries(i32),
    /// `set_chooseleaf_vary_r N`.
    SetChooseleafVaryR(i32),
    /// `set_chooseleaf_stable N`.
    SetChooseleafStable(i32),
}

/// A rule: its id (what a pool names), name and steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The rule's id.
    pub id: i32,
    /// The rule's name.
    pub name: String,
    /// Its steps, in order.
    pub steps: Vec<Step>,
}

/// A CRUSH map's hierarchy and tunables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrushMap {
    /// Bucket `id` at index `-1 - id`.
    buckets: Vec<Option<Bucket>>,
    /// One past the highest device id.
    max_devices: i32,
    /// The map's tunables.
    pub tunables: Tunables,
}

/// How one `crush_choose_firstn` call searches (its arguments that stay fixed below it).
#[derive(Clone, Copy)]
struct Search {
    tries: u32,
    recurse_tries: u32,
    local_retries: u32,
    recurse_to_leaf: bool,
    vary_r: u32,
    stable: bool,
}

impl CrushMap {
    /// A map of `buckets` over devices `0..max_devices`; refused when two buckets share an
    /// id or an item is neither a device nor a bucket.
    pub fn new(
        buckets: Vec<Bucket>,
        max_devices: i32,
        tunables: Tunables,
    ) -> Result<CrushMap, String> {
        let mut slots: Vec<Option<Bucket>> = Vec::new();
        for bucket in buckets {
            if bucket.id >= 0 {
                return Err(format!("bucket id {} is not below 0", bucket.id));
            }
            let at = (-1 - i64::from(bucket.id)) as usize;
            if slots.len() <= at {
                slots.resize(at + 1, None);
            }
            if slots[at].is_some() {
                return Err(format!("bucket id {} is given twice", bucket.id));
            }
            slots[at] = Some(bucket);
        }
        let map = CrushMap {
            buckets: slots,
            max_devices,
            tunables,
        };
        for bucket in map.buckets.iter().flatten() {
            for &item in &bucket.items {
                if item >= max_devices || (item < 0 && map.bucket(item).is_none()) {
                    return Err(format!(
                        "bucket {} holds item {item}, which is neither a device nor a bucket",
                        bucket.id
                    ));
                }
            }
        }
        Ok(map)
    }

    /// The bucket of `id`, if there is one.
    pub fn bucket(&self, id: i32) -> Option<&Bucket> {
        let at = usize::try_from(-1 - i64::from(id)).ok()?;
        self.buckets.get(at)?.as_ref()
    }

    /// Every bucket, in id order (-1, -2, …).
    pub fn buckets(&self) -> impl Iterator<Item = &Bucket> {
        self.buckets.iter().flatten()
    }

    /// `crush_do_rule`: the items `steps` choose for input `x`, at most `result_max` (the
    /// pool's size), with `reweights` the OSD map's weight of each device (16.16: 0x10000
    /// in, 0 out, between a re-weight; a device past its end is out).
    pub fn do_rule(
        &self,
        steps: &[Step],
        x: u32,
        result_max: usize,
        reweights: &[u32],
    ) -> Vec<i32> {
        let t = self.tunables;
        // The map's choose_total_tries counted retries, not tries: the mapper adds one.
        let mut choose_tries = t.choose_total_tries + 1;
        let mut choose_leaf_tries = 0;
        let mut local_retries = t.choose_local_tries;
        let mut vary_r = t.chooseleaf_vary_r;
        let mut stable = t.chooseleaf_stable;
        let mut result = Vec::with_capacity(result_max);
        let mut working: Vec<i32> = Vec::new();
        let positive = |n: i32| u32::try_from(n).ok();
        for step in steps {
            match *step {
                Step::Take(item) => {
                    if (0..self.max_devices).contains(&item) || self.bucket(item).is_some() {
                        working = vec![item];
                    }
                }
                Step::SetChooseTries(n) => {
                    choose_tries = positive(n).filter(|&n| n > 0).unwrap_or(choose_tries);
                }
                Step::SetChooseleafTries(n) => {
                    choose_leaf_tries = positive(n).filter(|&n| n > 0).unwrap_or(choose_leaf_tries);
                }
                Step::SetChooseLocalTries(n) => {
                    local_retries = positive(n).unwrap_or(local_retries)
                }
                Step::SetChooseleafVaryR(n) => vary_r = positive(n).unwrap_or(vary_r),
                Step::SetChooseleafStable(n) => {
                    stable = positive(n).map_or(stable, |n| n != 0);
                }
                Step::Choose { count, kind, leaf } => {
                    if working.is_empty() {
                        continue;
                    }
                    let mut out = vec![0; result_max];
                    let mut leaves = vec![0; result_max];
                    let mut size = 0;
                    for &from in &working {
                        let mut numrep = count;
                        if numrep <= 0 {
                            numrep += result_max as i32;
                            if numrep <= 0 {
                                continue;
                            }
                        }
                        let Some(bucket) = self.bucket(from) else {
                            continue;
                        };
                        let recurse_tries = if choose_leaf_tries > 0 {
                            choose_leaf_tries
                        } else if t.chooseleaf_descend_once {
                            1
                        } else {
                            choose_tries
                        };
                        let search = Search {
                            tries: choose_tries,
                            recurse_tries,
                            local_retries,
                            recurse_to_leaf: leaf,
                            vary_r,
                            stable,
                        };
                        size += self.choose_firstn(
                            x,
                            reweights,
                            bucket,
                            numrep,
                            kind,
                            (&mut out[size..], 0),
                            result_max - size,
                            search,
                            Some(&mut leaves[size..]),
                            0,
                        );
                    }
                    let chosen = if leaf { &leaves } else { &out };
                    working = chosen[..size].to_vec();
                }
                Step::Emit => {
                    let room = result_max - result.len();
                    result.extend(working.iter().take(room));
                    working.clear();
                }
            }
        }
        result
    }

    /// `is_out`: whether a device the draw landed on is rejected for input `x` — out (weight
    /// 0 or past the vector), or re-weighted and losing the coin toss.
    fn is_out(reweights: &[u32], item: i32, x: u32) -> bool {
        let Some(&weight) = usize::try_from(item).ok().and_then(|i| reweights.get(i)) else {
            return true;
        };
        if weight >= 0x10000 {
            return false;
        }
        if weight == 0 {
            return true;
        }
        (hash2(x, item as u32) & 0xffff) >= weight
    }

    /// `crush_choose_firstn`: `numrep` distinct items of type `kind` under `bucket` into
    /// `out` from position `outpos` (with `chooseleaf`, a device under each into `leaves`);
    /// returns the position after the last chosen.
    #[allow(clippy::too_many_arguments)]
    fn choose_firstn(
        &self,
        x: u32,
        reweights: &[u32],
        bucket: &Bucket,
        numrep: i32,
        kind: i32,
        (out, mut outpos): (&mut [i32], usize),
        mut count: usize,
        search: Search,
        mut leaves: Option<&mut [i32]>,
        parent_r: i32,
    ) -> usize {
        let mut rep = if search.stable { 0 } else { outpos as i32 };
        while rep < numrep && count > 0 {
            let mut ftotal: u32 = 0;
            let mut skip_rep = false;
            let mut item = 0;
            'descent: loop {
                let mut current = bucket;
                let mut flocal: u32 = 0;
                loop {
                    let r = rep + parent_r + ftotal as i32;
                    let mut collide = false;
                    let reject = if current.items.is_empty() {
                        true
                    } else {
                        item = current.straw2_choose(x, r as u32);
                        if item >= self.max_devices {
                            skip_rep = true;
                            break 'descent;
                        }
                        let item_kind = if item < 0 {
                            match self.bucket(item) {
                                Some(b) => b.kind,
                                None => {
                                    skip_rep = true;
                                    break 'descent;
                                }
                            }
                        } else {
                            0
                        };
                        if item_kind != kind {
                            match self.bucket(item) {
                                Some(child) if item < 0 => {
                                    current = child;
                                    continue;
                                }
                                _ => {
                                    skip_rep = true;
                                    break 'descent;
                                }
                            }
                        }
                        collide = out[..outpos].contains(&item);
                        let mut reject = false;
                        if !collide && search.recurse_to_leaf {
                            let leaves =
                                leaves.as_deref_mut().expect("chooseleaf has a leaf vector");
                            reject = !self.find_leaf(
                                x,
                                reweights,
                                item,
                                r,
                                (leaves, outpos),
                                count,
                                search,
                            );
                        }
                        if !reject && item_kind == 0 {
                            reject = Self::is_out(reweights, item, x);
                        }
                        reject
                    };
                    if !(reject || collide) {
                        break 'descent;
                    }
                    ftotal += 1;
                    flocal += 1;
                    if collide && flocal <= search.local_retries {
                        // Retry in the same bucket.
                        continue;
                    }
                    if ftotal < search.tries {
                        continue 'descent;
                    }
                    skip_rep = true;
                    break 'descent;
                }
            }
            if !skip_rep {
                out[outpos] = item;
                outpos += 1;
                count -= 1;
            }
            rep += 1;
        }
        outpos
    }

    /// With `chooseleaf`: a device under the chosen `item` (drawn with `r`) into `leaves` at
    /// `outpos` — a search of its own, with the leaf tries and the tunables' `r` — or the
    /// item itself when it is a device. False when no device was found.
    #[allow(clippy::too_many_arguments)]
    fn find_leaf(
        &self,
        x: u32,
        reweights: &[u32],
        item: i32,
        r: i32,
        (leaves, outpos): (&mut [i32], usize),
        count: usize,
        search: Search,
    ) -> bool {
        let Some(child) = self.bucket(item) else {
            leaves[outpos] = item;
            return true;
        };
        let sub_r = if search.vary_r > 0 {
            r >> (search.vary_r - 1)
        } else {
            0
        };
        let inner = Search {
            tries: search.recurse_tries,
            recurse_tries: 0,
            recurse_to_leaf: false,
            ..search
        };
        let numrep = if search.stable { 1 } else { outpos as i32 + 1 };
        let got = self.choose_firstn(
            x,
            reweights,
            child,
            numrep,
            0,
            (leaves, outpos),
            count,
            inner,
            None,
            sub_r,
        );
        got > outpos
    }
}
