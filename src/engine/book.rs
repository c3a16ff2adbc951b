//! The bucket book: which server holds each bucket of AnchorHash, MementoHash and DxHash,
//! and the order in which buckets were removed.
//!
//! Those three let any server leave, but their state depends on history: a removed bucket
//! is replaced by one that depends on what was removed before, and buckets come back in the
//! reverse order of their removal (a stack). The book records exactly that history — and
//! nothing else — so the simulation carries it from change to change the way a real
//! cluster would, and each placement is rebuilt from it by replaying the removals, which
//! gives the same state an engine updated in place would have (a property test checks it).
//!
//! A server that fails or is removed gives up its bucket; a server that is added or
//! recovers takes the last removed bucket (or a new one at the end): under Anchor and
//! Memento that bucket's keys come home to it, whoever it belonged to before.

use std::rc::Rc;

use super::contract::{Explanation, How, Placement, Structure};
use super::hash::key_digest;
use super::hash::HashFn;
use super::ring::{ServerId, NO_OWNER};

/// What Anchor, Memento and Dx share: a key's digest walks from bucket to bucket (each
/// removed one sending it on) until a working one.
pub trait BucketChain {
    /// The working bucket of a key with this digest, calling `visit` with every bucket on
    /// the way, the working one last. Needs a working bucket.
    fn walk(&self, digest: u64, visit: impl FnMut(u32)) -> u32;
    /// True when some bucket works.
    fn any_working(&self) -> bool;
    /// Bucket cells to draw (Anchor's and Dx's capacity, Memento's array).
    fn cells(&self) -> u32;
    /// Bytes of the engine's state.
    fn memory_bytes(&self) -> usize;
    /// The engine's own structure, to draw (Anchor's stack, Memento's replacements).
    fn structure(&self) -> Structure {
        Structure::None
    }
}

/// A bucket-book algorithm as a placement: bucket `b` is served by `holders[b]`.
pub struct BookPlacement<E> {
    /// The engine, its removals replayed from the book.
    pub engine: E,
    /// Who holds each bucket (`NO_OWNER` for a removed one).
    pub holders: Vec<ServerId>,
    /// Which digest the keys get.
    pub hash: HashFn,
}

impl BucketBook {
    /// `engine` (built for this book's buckets, its removals replayed) as a placement.
    pub fn placement<E: BucketChain + 'static>(
        &self,
        engine: E,
        hash: HashFn,
    ) -> Rc<dyn Placement> {
        Rc::new(BookPlacement {
            engine,
            holders: self.holders().to_vec(),
            hash,
        })
    }
}

impl<E: BucketChain> Placement for BookPlacement<E> {
    fn owner(&self, key: &str, position: u32) -> ServerId {
        self.owner_of_value(key_digest(self.hash, key), position)
    }

    fn owner_of_value(&self, digest: u64, _position: u32) -> ServerId {
        if !self.engine.any_working() {
            return NO_OWNER;
        }
        self.holders[self.engine.walk(digest, |_| {}) as usize]
    }

    fn explain(&self, key: &str, position: u32) -> Explanation {
        let digest = key_digest(self.hash, key);
        let mut path = Vec::new();
        if self.engine.any_working() {
            self.engine.walk(digest, |b| path.push(b));
        }
        Explanation {
            position,
            owner: path.last().map_or(NO_OWNER, |&b| self.holders[b as usize]),
            how: How::Chain {
                digest,
                path,
                holders: self.holders.clone(),
            },
        }
    }

    fn buckets(&self) -> Option<(&[ServerId], u32)> {
        Some((&self.holders, self.engine.cells()))
    }

    fn structure(&self) -> Structure {
        self.engine.structure()
    }

    fn memory_bytes(&self) -> usize {
        self.engine.memory_bytes() + self.holders.len() * std::mem::size_of::<ServerId>()
    }
}

/// The least capacity a book has: the page's limit of servers, so that Anchor's anchor
/// and Dx's array have room for every server a page can add.
pub const MIN_CAPACITY: u32 = 100;

/// Bucket holders and removal order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BucketBook {
    /// Bucket → server ([`NO_OWNER`] for a removed bucket).
    holders: Vec<ServerId>,
    /// Removed buckets, the last removed last.
    removed: Vec<u32>,
    /// How many buckets Anchor's anchor and Dx's array have.
    capacity: u32,
}

impl BucketBook {
    /// Servers `(id, up)` in list order get buckets `0, 1, …`; the down ones are then removed
    /// in list order. The capacity is [`MIN_CAPACITY`], or twice the list for a larger one.
    pub fn new(servers: &[(ServerId, bool)]) -> BucketBook {
        let n = servers.len() as u32;
        let mut book = BucketBook {
            holders: servers.iter().map(|s| s.0).collect(),
            removed: Vec::new(),
            capacity: MIN_CAPACITY.max(2 * n),
        };
        for &(id, up) in servers {
            if !up {
                book.give_up(id);
            }
        }
        book
    }

    /// Who holds each bucket.
    pub fn holders(&self) -> &[ServerId] {
        &self.holders
    }

    /// Removed buckets, in the order they were removed.
    pub fn removed(&self) -> &[u32] {
        &self.removed
    }

    /// The anchor size / array capacity.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// The bucket `id` holds.
    pub fn bucket_of(&self, id: ServerId) -> Option<u32> {
        self.holders.iter().position(|&h| h == id).map(|b| b as u32)
    }

    /// Server `id` (failed or removed) gives up its bucket; nothing when it holds none.
    pub fn give_up(&mut self, id: ServerId) {
        if let Some(b) = self.bucket_of(id) {
            self.holders[b as usize] = NO_OWNER;
            self.removed.push(b);
        }
    }

    /// Server `id` (added or recovered) takes the last removed bucket, or a new one; the
    /// capacity doubles when the buckets outgrow it.
    pub fn take(&mut self, id: ServerId) -> u32 {
        let b = match self.removed.pop() {
            Some(b) => b,
            None => {
                self.holders.push(NO_OWNER);
                self.holders.len() as u32 - 1
            }
        };
        self.holders[b as usize] = id;
        while self.holders.len() as u32 > self.capacity {
            self.capacity *= 2;
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::algorithms::anchor::Anchor;
    use crate::engine::algorithms::memento::Memento;
    use proptest::prelude::*;

    proptest! {
        /// Replaying the book's removals gives the state an engine updated in place has.
        #[test]
        fn replaying_the_book_equals_updating_in_place(ops in proptest::collection::vec((any::<bool>(), 0u16..12), 1..40)) {
            let start: Vec<(ServerId, bool)> = (0..6).map(|i| (i, true)).collect();
            let mut book = BucketBook::new(&start);
            let mut anchor = Anchor::new(book.capacity(), 6);
            let mut memento = Memento::new(6);
            let mut up: Vec<ServerId> = (0..6).collect();
            let mut next_id = 6;
            for (add, pick) in ops {
                if add || up.len() < 2 {
                    let b = book.take(next_id);
                    prop_assert_eq!(anchor.restore(), Some(b));
                    prop_assert_eq!(memento.restore(), b);
                    up.push(next_id);
                    next_id += 1;
                } else {
                    let id = up.remove(usize::from(pick) % up.len());
                    let b = book.bucket_of(id).unwrap();
                    book.give_up(id);
                    anchor.remove(b);
                    memento.remove(b);
                }
            }
            let n = book.holders().len() as u32;
            let mut replayed = Anchor::new(book.capacity(), n);
            let mut replayed_memento = Memento::new(n);
            for &b in book.removed() {
                replayed.remove(b);
                replayed_memento.remove(b);
            }
            for key in [1u64, 42, 0xDEAD_BEEF, u64::MAX / 3] {
                prop_assert_eq!(replayed.bucket(key, 0), anchor.bucket(key, 0));
                prop_assert_eq!(replayed_memento.bucket(key), memento.bucket(key));
            }
            prop_assert_eq!(replayed_memento.size(), memento.size());
        }
    }

    #[test]
    fn buckets_come_back_last_removed_first() {
        let mut book = BucketBook::new(&[(0, true), (1, false), (2, true), (3, true)]);
        assert_eq!(book.holders(), &[0, NO_OWNER, 2, 3]);
        book.give_up(3);
        book.give_up(0);
        assert_eq!(book.removed(), &[1, 3, 0]);
        assert_eq!(book.take(7), 0);
        assert_eq!(book.take(1), 3);
        assert_eq!(book.take(9), 1);
        assert_eq!(book.take(4), 4);
        assert_eq!(book.holders(), &[7, 9, 2, 1, 4]);
        assert_eq!(book.capacity(), MIN_CAPACITY);
    }
}
