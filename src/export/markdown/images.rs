//! Images: `![alt](images/name)` with the caption on the line under it as the HTML shows it
//! (`*Figure 3: caption*`, one paragraph with the image, which the reader takes back as the
//! caption), an inline image's caption as its title; and the files they refer to, named
//! uniquely.

use std::collections::HashSet;

use super::links::destination;
use super::render::Render;
use super::{Ctx, Writer};
use crate::ast::numbering::BlockNumber;
use crate::ast::{Align, Image};
use crate::report::WarningKind;

impl Writer<'_> {
    pub(super) fn image_lines(&mut self, img: &Image, n: &BlockNumber) -> Vec<String> {
        if img.width_percent.is_some() || img.extent.is_some() || img.align != Align::Left {
            self.warn_once(
                "image-size",
                WarningKind::Lossy,
                "image width, size and alignment are not written",
            );
        }
        let mut r = Render::new(Ctx::Para);
        self.image(&mut r, &img.media, img.alt.as_deref(), None);
        let mut lines = vec![r.finish()];
        let figure = self.lang.figure();
        if let Some(caption) = caption_text(figure, img.caption.as_deref(), n.caption) {
            // Emphasis cannot start or end at white space; the caption's edges are not text.
            let mut r = Render::new(Ctx::Para);
            r.raw("*");
            r.text(caption.trim());
            r.raw("*");
            lines.push(r.finish());
        }
        lines
    }

    pub(super) fn image(
        &mut self,
        r: &mut Render,
        media: &str,
        alt: Option<&str>,
        caption: Option<&str>,
    ) {
        let path = self.image_path(media);
        r.raw("![");
        // The reader trims alt text (white space at its edges is not part of the description):
        // trimmed here too, the text reads back as written.
        if let Some(alt) = alt.map(str::trim) {
            r.text(alt);
        }
        r.raw("](");
        r.raw(&destination(&path));
        if let Some(c) = caption.filter(|c| !c.is_empty()) {
            r.raw(" \"");
            let mut escaped = String::new();
            for ch in c.chars() {
                match ch {
                    // `|` too: in a table cell it would end the cell even inside a title.
                    '"' | '\\' | '|' => {
                        escaped.push('\\');
                        escaped.push(ch);
                    }
                    '&' => escaped.push_str("\\&"),
                    '\n' | '\r' => escaped.push(' '),
                    _ => escaped.push(ch),
                }
            }
            r.raw(&escaped);
            r.raw("\"");
        }
        r.raw(")");
    }

    /// `images/<file>` for media `name`, registering the bytes for [`super::MarkdownOutput::files`].
    pub(super) fn image_path(&mut self, media: &str) -> String {
        if let Some(name) = self.image_names.get(media) {
            return format!("images/{name}");
        }
        let name = unique_file_name(media, &mut self.taken);
        match self.doc.media.get(media) {
            // Read when the files are written, in parallel (a broken one is warned there).
            Some(item) => {
                self.files.insert(format!("images/{name}"), item.clone());
            }
            None => self.warn(
                WarningKind::MissingMedia,
                format!("image {media:?} is not in the media store; referenced without a file"),
            ),
        }
        self.image_names.insert(media.to_string(), name.clone());
        format!("images/{name}")
    }
}

/// A caption as the HTML shows it: `Figure 3: text`, `Figure 3` for a numbered caption with
/// no text, the text alone when unnumbered; `None` when there is nothing to show. `word` is
/// the localised `Figure` or `Table`.
pub(super) fn caption_text(
    word: &str,
    caption: Option<&str>,
    number: Option<u32>,
) -> Option<String> {
    let caption = caption?;
    match number {
        Some(n) if caption.trim().is_empty() => Some(format!("{word} {n}")),
        Some(n) => Some(format!("{word} {n}: {caption}")),
        None if caption.trim().is_empty() => None,
        None => Some(caption.to_string()),
    }
}

/// A file name safe to write next to the Markdown, unique ignoring case.
fn unique_file_name(media: &str, taken: &mut HashSet<String>) -> String {
    let base: String = media
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or("")
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let base = if base.is_empty() || base.chars().all(|c| c == '.') {
        "image".to_string()
    } else {
        base
    };
    let (stem, ext) = match base.rfind('.') {
        Some(i) if i > 0 => (&base[..i], &base[i..]),
        _ => (base.as_str(), ""),
    };
    let mut candidate = base.clone();
    let mut n = 2u32;
    while !taken.insert(candidate.to_lowercase()) {
        candidate = format!("{stem}-{n}{ext}");
        n += 1;
    }
    candidate
}
