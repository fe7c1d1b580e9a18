//! Images: the finished image atom, and each distinct path resolved once and stored under a
//! unique file name.

use std::collections::HashSet;

use super::{PendingImage, Reader, State};
use crate::ast::Inline;
use crate::report::WarningKind;

impl Reader<'_, '_, '_> {
    pub(super) fn finish_image(&mut self, st: &mut State) {
        let Some(buf) = self.current_buf(st) else {
            return;
        };
        let Some(img) = buf.image.take() else {
            return;
        };
        let atom = self.image_atom(img);
        self.push_atom(st, atom);
    }

    pub(super) fn image_atom(&mut self, img: PendingImage) -> Inline {
        let media = self.media_name(&img.dest);
        let alt = img.alt.trim().to_string();
        Inline::Image {
            media,
            caption: (!img.title.is_empty()).then_some(img.title),
            alt: (!alt.is_empty()).then_some(alt),
        }
    }

    /// The media name for an image path: resolved once, stored under its file name.
    fn media_name(&mut self, path: &str) -> String {
        if let Some(name) = self.media_by_path.get(path) {
            return name.clone();
        }
        let file = file_name(path);
        let name = unique(&file, &mut self.taken);
        match (self.resolve)(path) {
            Some(bytes) => {
                self.media.add(name.clone(), bytes);
            }
            None => self.warn(
                WarningKind::MissingMedia,
                format!("image {path:?} could not be resolved; kept as {name:?} without bytes"),
            ),
        }
        self.media_by_path.insert(path.to_string(), name.clone());
        name
    }
}

/// The file name part of an image path or URL: after the last `/`, without query or fragment.
fn file_name(path: &str) -> String {
    let path = path.split(['?', '#']).next().unwrap_or("");
    let name = path.rsplit(['/', '\\']).next().unwrap_or("");
    if name.is_empty() || name == "." || name == ".." {
        "image".into()
    } else {
        name.to_string()
    }
}

/// `name`, or `name-2`, `name-3`, … before the extension, unique in `taken` ignoring case.
fn unique(name: &str, taken: &mut HashSet<String>) -> String {
    let (stem, ext) = match name.rfind('.') {
        Some(i) if i > 0 => (&name[..i], &name[i..]),
        _ => (name, ""),
    };
    let mut candidate = name.to_string();
    let mut n = 2u32;
    while !taken.insert(candidate.to_lowercase()) {
        candidate = format!("{stem}-{n}{ext}");
        n += 1;
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_come_from_the_last_path_part() {
        assert_eq!(file_name("images/cat.png?x=1#y"), "cat.png");
        assert_eq!(file_name("https://a.b/"), "image");
        assert_eq!(file_name("..\\x.gif"), "x.gif");
        let mut taken = HashSet::new();
        assert_eq!(unique("a.png", &mut taken), "a.png");
        assert_eq!(unique("A.png", &mut taken), "A-2.png");
    }
}
