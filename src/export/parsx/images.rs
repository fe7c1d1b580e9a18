//! Images: `bild` with `abbildung` and `legende`, and the files in `images/` they refer to.

use super::Writer;
use super::ids::{safe_file_name, unique_name};
use super::markup::yes_no;
use crate::ast::numbering::BlockNumber;
use crate::ast::{Align, Image};
use crate::report::WarningKind;

impl Writer<'_> {
    pub(super) fn image(&mut self, img: &Image, n: &BlockNumber) {
        let caption = img.caption.as_deref().filter(|c| !c.is_empty());
        if img.width_percent.is_some() || img.extent.is_some() || img.align != Align::Left {
            self.warn_once(
                "image-size",
                WarningKind::Lossy,
                "image width, size and alignment are not written to parsX",
            );
        }
        self.warn_indent(img.indent);
        let Some(path) = self.image_path(&img.media) else {
            self.warn(
                WarningKind::MissingMedia,
                format!(
                    "image {:?} is not in the media store; only its caption is written",
                    img.media
                ),
            );
            if let Some(c) = caption {
                self.text_element("abs", c);
            }
            return;
        };
        let id = self.block_ids.get(&self.path).cloned();
        let mut attrs: Vec<(&str, &str)> = Vec::new();
        if let Some(id) = id.as_deref() {
            attrs.push(("id", id));
        }
        attrs.push(("nummeriert", yes_no(n.caption.is_some())));
        self.open("bild", &attrs);
        let mut a: Vec<(&str, &str)> = vec![("quelle", &path)];
        if let Some(alt) = img.alt.as_deref() {
            a.push(("ersatztext", alt));
        }
        self.newline();
        self.start_tag("abbildung", &a, true);
        if let Some(c) = caption {
            self.open("legende", &[]);
            self.text_element("abs", c);
            self.close("legende");
        }
        self.close("bild");
    }

    /// The `quelle` of media `name` (`images/…`), registering its bytes; `None` when missing.
    pub(super) fn image_path(&mut self, media: &str) -> Option<String> {
        if let Some(name) = self.image_names.get(media) {
            return Some(format!("images/{name}"));
        }
        let item = self.doc.media.get(media)?;
        let name = unique_name(&safe_file_name(media), &mut self.taken_image_names, true);
        if name != media {
            self.warn(
                WarningKind::Repaired,
                format!("image {media:?} is stored as images/{name}"),
            );
        }
        self.images.insert(name.clone(), item.clone());
        self.image_names.insert(media.to_string(), name.clone());
        Some(format!("images/{name}"))
    }
}
