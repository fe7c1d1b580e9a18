//! The document's attributes (`smashdoc@id`, `@version`), its `meta` children and the
//! `indexes` tree.

use quick_xml::events::BytesStart;

use super::attrs;
use super::frame::Frame;
use super::parser::Parser;

impl Parser<'_> {
    pub(super) fn smashdoc_attrs(&mut self, e: &BytesStart<'_>) {
        let mut id = None;
        let mut version = None;
        self.each_attr(e, "smashdoc", |_, k, v| {
            match k {
                "id" => id = attrs::non_empty(v),
                "version" => version = attrs::non_empty(v),
                _ => return false,
            }
            true
        });
        self.doc.meta.id = id;
        self.doc.meta.generator = version;
    }

    pub(super) fn meta_child(&mut self, e: &BytesStart<'_>, name: &str) {
        use super::frame::TextTarget as T;
        let target = match name {
            "title" => T::Title,
            "filename" => T::Filename,
            "subtitle" => T::Subtitle,
            "description" => T::Description,
            "footer" => T::Footer,
            "creator" => T::Creator,
            "grid-indentation-enabled" => T::GridIndentation,
            "spellcheck-lang" => T::SpellcheckLang,
            "language" => {
                let mut value = None;
                self.each_attr(e, "language", |_, k, v| {
                    (k == "value")
                        .then(|| value = attrs::non_empty(v))
                        .is_some()
                });
                self.doc.meta.language = value;
                self.frames.push(Frame::Skip {
                    name: std::borrow::Cow::Borrowed("language"),
                    nested: 0,
                    chars: 0,
                    reported: false,
                });
                return;
            }
            "tags" => {
                self.no_attrs(e, "tags");
                self.frames.push(Frame::Tags);
                return;
            }
            "grid" => {
                self.no_attrs(e, "grid");
                self.frames.push(Frame::Grid);
                return;
            }
            "word-export-presets" => {
                self.presets_start(e);
                return;
            }
            _ => {
                self.skip_unknown(name);
                return;
            }
        };
        self.no_attrs(e, target.name());
        self.frames.push(Frame::Text {
            target,
            buf: String::new(),
            nested: 0,
        });
    }

    fn presets_start(&mut self, e: &BytesStart<'_>) {
        let mut p = crate::ast::WordExportPresets::default();
        self.each_attr(e, "word-export-presets", |parser, k, v| {
            let slot = match k {
                "template_id" => {
                    p.template_id = v.into_owned();
                    return true;
                }
                "language" => {
                    p.language = v.into_owned();
                    return true;
                }
                "toc_text" => &mut p.toc_text,
                "toc_image" => &mut p.toc_image,
                "toc_table" => &mut p.toc_table,
                "caption_image" => &mut p.caption_image,
                "caption_table" => &mut p.caption_table,
                _ => return false,
            };
            *slot = attrs::flag(&v).unwrap_or_else(|| {
                parser.bad_value("word-export-presets", k, &v, "0");
                false
            });
            true
        });
        self.doc.meta.word_export_presets = Some(p);
        self.frames.push(Frame::Presets);
    }

    pub(super) fn index_node_start(&mut self, e: &BytesStart<'_>) {
        let mut node = crate::ast::IndexNode::default();
        let mut has_id = false;
        let mut has_title = false;
        self.each_attr(e, "index-node", |_, k, v| {
            match k {
                "id" => {
                    has_id = true;
                    node.id = v.into_owned();
                }
                "title" => {
                    has_title = true;
                    node.title = v.into_owned();
                }
                "target-reference-id" => node.target = attrs::non_empty(v),
                "description" => node.description = attrs::non_empty(v),
                "sorting-key" => node.sorting_key = attrs::non_empty(v),
                _ => return false,
            }
            true
        });
        if !has_id {
            self.bad_value("index-node", "id", "", "an empty id");
        }
        if !has_title {
            self.bad_value("index-node", "title", "", "an empty title");
        }
        self.frames.push(Frame::IndexNode(Box::new(node)));
    }
}
