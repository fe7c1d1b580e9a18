//! Room kept from one use to the next: a string or list built anew for every paragraph (its
//! plain text, its Word properties, its layout tokens) reuses the buffer of the one before
//! instead of growing a fresh one by doubling. A buffer that grew past its cap for one huge
//! paragraph is let go, so that its room is not held to the end.

/// A buffer that can be emptied with its room kept.
pub(crate) trait Buffer: Default {
    /// Empties it, keeping its room.
    fn clear(&mut self);
    /// Its room, in the unit of the cap (bytes or items).
    fn capacity(&self) -> usize;
}

impl Buffer for String {
    fn clear(&mut self) {
        String::clear(self);
    }
    fn capacity(&self) -> usize {
        String::capacity(self)
    }
}

impl<T> Buffer for Vec<T> {
    fn clear(&mut self) {
        Vec::clear(self);
    }
    fn capacity(&self) -> usize {
        Vec::capacity(self)
    }
}

/// One kept buffer, given back after each use; `MAX` is the most room it keeps.
#[derive(Debug, Default)]
pub(crate) struct Room<B, const MAX: usize> {
    spare: B,
}

impl<B: Buffer, const MAX: usize> Room<B, MAX> {
    /// An empty buffer with the room of the last one given back.
    pub(crate) fn take(&mut self) -> B {
        std::mem::take(&mut self.spare)
    }

    /// Keeps `b`'s room for the next [`Room::take`], emptied now (what it held is dropped
    /// here, not at the next use), unless it is over `MAX`.
    pub(crate) fn give_back(&mut self, mut b: B) {
        if b.capacity() <= MAX {
            b.clear();
            self.spare = b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_is_reused_empty_and_let_go_past_its_cap() {
        let mut room: Room<String, 64> = Room::default();
        let mut s = room.take();
        s.push_str("first paragraph");
        let kept = s.capacity();
        room.give_back(s);
        let s = room.take();
        assert!(s.is_empty());
        assert_eq!(s.capacity(), kept);
        room.give_back(String::with_capacity(1000));
        assert!(room.take().capacity() < 1000);
        let mut list: Room<Vec<u32>, 8> = Room::default();
        list.give_back(vec![1, 2, 3]);
        let v = list.take();
        assert!(v.is_empty() && v.capacity() >= 3);
    }
}
