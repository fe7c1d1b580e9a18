//! Lists whose length is known only once their element ends (a paragraph's items, a cell's
//! blocks), built in reused room and then copied out at their exact size.
//!
//! Grown by doubling, such a list reallocates and copies its items at 4, 8, 16, … (an item is
//! 200 bytes, a block almost 300) and then shrinks, which reallocates once more, because the
//! whole body is parsed before any of it becomes the tree and spare room would be held until
//! then. Built in a list kept from the last element of its kind, it is allocated once, at its
//! size, when it ends: one allocation and one copy per paragraph or cell, whatever its length.

/// How many spare lists a [`Scratch`] keeps: one per level of nesting (a paragraph in a text box
/// in a paragraph, a cell in a table in a cell); deeper levels allocate their own.
const KEPT: usize = 8;

/// The most room (in items) a spare list keeps. A list that grew past it for one huge element
/// is let go, so that element's room is not held beside its content until the parse ends.
const MAX_ROOM: usize = 1024;

/// Spare lists, emptied but with their room, for elements of one kind.
#[derive(Debug)]
pub struct Scratch<T> {
    spare: Vec<Vec<T>>,
}

impl<T> Default for Scratch<T> {
    fn default() -> Self {
        Scratch { spare: Vec::new() }
    }
}

impl<T> Scratch<T> {
    /// An empty list to build an element's content in (with the room of an earlier one).
    pub fn take(&mut self) -> Vec<T> {
        self.spare.pop().unwrap_or_default()
    }

    /// The content built in `list` (from [`Scratch::take`]), moved into a list of its exact
    /// size; `list`'s room is kept for the next element.
    pub fn finish(&mut self, mut list: Vec<T>) -> Vec<T> {
        // Allocated once, at the content's size (not at all when it is empty); `append` moves
        // the items and leaves `list` empty with its room.
        let mut exact = Vec::with_capacity(list.len());
        exact.append(&mut list);
        if self.spare.len() < KEPT && list.capacity() <= MAX_ROOM {
            self.spare.push(list);
        }
        exact
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_comes_out_whole_and_exact_while_room_is_kept() {
        let mut s: Scratch<String> = Scratch::default();
        let mut outer = s.take();
        outer.push("a".to_string());
        // A nested element takes a list of its own while the outer one is open.
        let mut inner = s.take();
        inner.extend((0..100).map(|i| i.to_string()));
        let inner = s.finish(inner);
        assert_eq!(inner.len(), 100);
        assert_eq!(inner.capacity(), 100);
        assert_eq!(inner[99], "99");
        outer.push("b".to_string());
        let outer = s.finish(outer);
        assert_eq!(outer, ["a", "b"]);
        assert_eq!(outer.capacity(), 2);
        // The next element reuses room, and starts empty.
        let next = s.take();
        assert!(next.is_empty());
        assert!(next.capacity() >= 2);
        assert_eq!(s.finish(next).capacity(), 0);
    }

    #[test]
    fn spare_lists_are_bounded() {
        let mut s: Scratch<u8> = Scratch::default();
        let open: Vec<Vec<u8>> = (0..3 * KEPT).map(|_| vec![1]).collect();
        for list in open {
            s.finish(list);
        }
        assert_eq!(s.spare.len(), KEPT);
    }

    #[test]
    fn room_grown_for_a_huge_element_is_not_kept() {
        let mut s: Scratch<u8> = Scratch::default();
        let mut list = s.take();
        list.resize(MAX_ROOM + 1, 7);
        assert_eq!(s.finish(list).len(), MAX_ROOM + 1);
        assert!(s.spare.is_empty());
        let mut list = s.take();
        list.resize(MAX_ROOM / 2, 7);
        s.finish(list);
        assert_eq!(s.spare.len(), 1);
    }
}
