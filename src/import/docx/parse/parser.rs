//! The streaming parser of stage one: [`BodyParser`], the state one part's parse shares
//! (reader, relationships, warnings, [`Facts`], open fields and bookmarks, its [`Half`] of a
//! main part read in two), with the helpers every step uses (warnings, the end of input), and
//! what the steps hand each other ([`Ctx`] for `mc:AlternateContent`, [`DrawingState`]).
//!
//! The steps each add their methods to [`BodyParser`] in their own file and import it from
//! here: blocks and paragraph content in [`super::body`], runs in [`super::runs`], tables in
//! [`super::tables`], pictures and text boxes in [`super::drawing`]; [`super::halves`] starts
//! and joins two parsers. This file imports none of them, so the imports run one way (the
//! parser used to live in `body`, which imported `halves` and `drawing` for the [`Half`] and
//! [`DrawingState`] it names while they imported the parser from it).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};

use quick_xml::events::BytesStart;

use super::model::{Block, Item, Para, Run};
use super::props::Section;
use super::rels::Relationships;
use super::scratch::Scratch;
use crate::limits::Limits;
use crate::report::{Location, Report, WarningKind};
use crate::xml::XmlReader;

/// Facts collected while parsing that stage two needs before it meets them in order.
#[derive(Debug, Default, Clone)]
pub struct Facts {
    /// Every bookmark name seen (targets `REF` fields and internal links may name).
    pub bookmarks: HashSet<String>,
    /// Comment ids that have a `w:commentRangeStart`.
    pub comment_ranges: HashSet<String>,
    /// Open complex fields (`w:fldChar` begin minus end) at the end of the part.
    pub field_depth: i64,
    /// A field end came without an open field.
    pub field_underflow: bool,
    /// Bookmarks ending right after a `SEQ` field: a caption's label and number, what Word's
    /// "Only label and number" cross-references (and our writer's) point at, so a plain
    /// `REF` to one shows a number.
    pub number_bookmarks: HashSet<String>,
    /// Bookmarks around a whole caption (label, `SEQ` number and text): a plain `REF` to one
    /// shows all of it, label and number included.
    pub caption_bookmarks: HashSet<String>,
}

/// Where the content of a chosen `mc:AlternateContent` branch goes.
pub enum Ctx<'x> {
    Blocks(&'x mut Vec<Block>),
    Inline(&'x mut Para),
    Run(&'x mut Run, &'x mut Para),
    Drawing(&'x mut DrawingState, &'x mut Para),
}

/// How many open bookmarks a parser keeps (a hostile part can open millions).
pub const MAX_OPEN_BOOKMARKS: usize = 10_000;

/// The streaming parser of one part.
pub struct BodyParser<'a, 'c> {
    pub r: XmlReader<'a>,
    pub part: String,
    pub rels: &'c Relationships,
    pub report: &'c mut Report,
    pub facts: &'c mut Facts,
    warned: HashSet<String>,
    pub(super) final_section: Option<Section>,
    /// Instructions of the complex fields open here, innermost last.
    pub(super) field_instrs: Vec<String>,
    /// Nothing but anchors came since a `SEQ` field ended.
    pub(super) after_seq: bool,
    /// Open bookmarks: `w:id` → name.
    pub(super) open_bookmarks: HashMap<String, String>,
    /// Ids of open bookmarks a `SEQ` field ended inside.
    pub(super) seq_inside: HashSet<String>,
    /// Tables being read: more than one means a nested table.
    pub table_depth: usize,
    /// Which half of a main part this parser reads, when the part is read in two
    /// (`parse/halves.rs`): all the parser knows of the split is this value's four calls.
    pub half: Half<'c>,
    /// The body's blocks stopped where the other half starts (or, for the second half, where
    /// its work is no longer wanted).
    pub(super) stopped: bool,
    /// Which `w:body` of the part this is (only the first is split).
    pub(super) bodies: usize,
    /// Room for the items of the paragraphs being read.
    pub(super) item_lists: Scratch<Item>,
    /// Room for the blocks of the cells being read.
    pub(super) block_lists: Scratch<Block>,
}

pub fn is_seq(instr: &str) -> bool {
    instr.split_whitespace().next() == Some("SEQ")
}

/// Elements skipped without a word: bookkeeping that carries no content.
pub fn ignorable(name: &str) -> bool {
    matches!(
        name,
        "bookmarkEnd"
            | "proofErr"
            | "permStart"
            | "permEnd"
            | "moveFromRangeStart"
            | "moveFromRangeEnd"
            | "moveToRangeStart"
            | "moveToRangeEnd"
            | "customXmlInsRangeStart"
            | "customXmlInsRangeEnd"
            | "customXmlDelRangeStart"
            | "customXmlDelRangeEnd"
            | "customXmlMoveFromRangeStart"
            | "customXmlMoveFromRangeEnd"
            | "customXmlMoveToRangeStart"
            | "customXmlMoveToRangeEnd"
            | "sdtPr"
            | "sdtEndPr"
            | "customXmlPr"
            | "smartTagPr"
            | "background"
            | "rsid"
            | "tblPrEx"
    )
}

impl<'a, 'c> BodyParser<'a, 'c> {
    /// A parser over `text`, the part `part` whose relationships are `rels`.
    pub fn new(
        text: &'a str,
        part: &str,
        rels: &'c Relationships,
        limits: &Limits,
        report: &'c mut Report,
        facts: &'c mut Facts,
    ) -> Self {
        BodyParser {
            r: XmlReader::new(text, part, limits),
            part: part.to_string(),
            rels,
            report,
            facts,
            warned: HashSet::new(),
            final_section: None,
            field_instrs: Vec::new(),
            after_seq: false,
            open_bookmarks: HashMap::new(),
            seq_inside: HashSet::new(),
            table_depth: 0,
            half: Half::Whole,
            stopped: false,
            bodies: 0,
            item_lists: Scratch::default(),
            block_lists: Scratch::default(),
        }
    }

    /// The body's blocks stopped where the other half takes over.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// A `SEQ` field just ended: the open bookmarks hold a caption number.
    pub(super) fn seq_ended(&mut self) {
        let open: Vec<String> = self.open_bookmarks.keys().cloned().collect();
        self.seq_inside.extend(open);
    }

    /// The bookmarks open now: `w:id` → name.
    pub fn open_bookmarks(&self) -> &HashMap<String, String> {
        &self.open_bookmarks
    }

    /// Whether a warning was given once for `key` ([`BodyParser::warn_once`]).
    pub fn warned_about(&self, key: &str) -> bool {
        self.warned.contains(key)
    }

    pub fn warn(&mut self, kind: WarningKind, message: impl Into<String>, element: &str) {
        self.report.warn(
            kind,
            message,
            Location::part(&self.part).element(element.to_string()),
        );
    }

    /// Warns once per element name that an unknown element was read through or skipped.
    pub(super) fn unknown(&mut self, e: &BytesStart<'_>, kept: bool) {
        let name = e.name().as_ref().to_string();
        let what = if kept {
            "read through, its text kept"
        } else {
            "skipped"
        };
        self.warn_once(&name, WarningKind::UnknownElement, &name, || {
            format!("unknown element <{name}> {what}")
        });
    }

    /// Warns once per `key`.
    pub(super) fn warn_once(
        &mut self,
        key: &str,
        kind: WarningKind,
        element: &str,
        message: impl FnOnce() -> String,
    ) {
        if !self.warned.contains(key) {
            self.warned.insert(key.to_string());
            self.half.warned_once(key, self.report.warnings().len());
            self.warn(kind, message(), element);
        }
    }

    pub(super) fn eof(&self) -> crate::error::Error {
        self.r.invalid("the part ends inside an element")
    }
}

/// A VML picture: relationship id, the enclosing shape's size, its title.
pub(super) type VmlImage = (String, Option<(u64, u64)>, Option<String>);

/// What a drawing or VML picture holds, gathered while walking it (`super::drawing`). It is
/// here, not there, because [`Ctx::Drawing`] names it: the parser's dispatch of
/// `mc:AlternateContent` hands it on.
#[derive(Debug, Default)]
pub struct DrawingState {
    pub(super) anchored: bool,
    pub(super) extent: Option<(u64, u64)>,
    pub(super) alt: Option<String>,
    /// `wp:docPr@title`.
    pub(super) title: Option<String>,
    /// DrawingML pictures: (`r:embed`, `r:link`).
    pub(super) blips: Vec<(Option<String>, Option<String>)>,
    /// VML pictures: (relationship id, size of the enclosing shape, title).
    pub(super) vml: Vec<VmlImage>,
    pub(super) shape_extent: Option<(u64, u64)>,
    pub(super) textbox: bool,
    pub(super) chart: bool,
    /// The chart's relationship id (`c:chart@r:id`).
    pub(super) chart_rel: Option<String>,
    pub(super) ole: bool,
    /// WordArt text (`v:textpath@string`).
    pub(super) text: String,
    /// A group or canvas (`wpg:wgp`, `wpc:wpc`, VML `v:group`) was met.
    pub(super) group: bool,
    /// Shapes being read: the depth of their start and whether text or a picture came.
    pub(super) shapes: Vec<(usize, bool)>,
    /// Shapes inside a group that held neither text nor a picture.
    pub(super) bare_shapes: usize,
    /// The offset (`a:off`, VML `left`/`top`) of the shape read last: where a text box sits.
    pub(super) offset: (i64, i64),
    /// A SmartArt diagram's data part relationship (`dgm:relIds@r:dm`).
    pub(super) diagram: Option<String>,
    /// Text boxes with the offset of their shape, to be put in reading order.
    pub(super) boxes: Vec<((i64, i64), Vec<super::model::Block>)>,
}

impl DrawingState {
    /// Text or a picture came: the shapes being read are not bare.
    pub(super) fn filled(&mut self) {
        for s in &mut self.shapes {
            s.1 = true;
        }
    }
}

/// Where the two halves of a main part meet ([`super::halves::parse_main`]).
pub struct Meeting {
    /// Where the second half starts, once found (`u64::MAX` until then, or for good).
    pub(super) split_at: AtomicU64,
    /// How far the first half is at body level (`u64::MAX` once it is done).
    pub(super) first_at: AtomicU64,
}

/// What the second half of a main part hands the first beyond its blocks, facts and warnings.
pub struct Handover {
    /// Keys warned about once, with their warning's index.
    pub(super) once: Vec<(String, usize)>,
    /// Bookmark ends of ids the second half did not open, each id's first only, and whether a
    /// `SEQ` field had just ended: the first half may have opened them.
    pub(super) unknown_ends: Vec<(String, bool)>,
    /// The most bookmarks the second half had open at once (`usize::MAX`: it gave up, and the
    /// first half reads on alone).
    pub(super) most_open: usize,
}

/// The second half's parser's side of the meeting: what it hands over, and what it has settled.
pub struct SecondHalf<'c> {
    /// Where the halves meet.
    meeting: &'c Meeting,
    /// Ids whose first-half bookmark (if any) is ended or replaced by now.
    settled_ids: HashSet<String>,
    /// What the first half gets.
    pub(super) handed: Handover,
}

impl<'c> SecondHalf<'c> {
    pub(super) fn new(meeting: &'c Meeting) -> Self {
        SecondHalf {
            meeting,
            settled_ids: HashSet::new(),
            handed: Handover {
                once: Vec::new(),
                unknown_ends: Vec::new(),
                most_open: 0,
            },
        }
    }
}

/// Which half of a main part a [`BodyParser`] reads: all the parser knows of the split (so it
/// lives with the parser; `super::halves` starts, meets and joins the halves). It
/// tells its half where it is at body level, which bookmarks it opens, which bookmark ends it
/// cannot match, and which warnings it gives once.
#[derive(Default)]
pub enum Half<'c> {
    /// The whole part: nothing to share.
    #[default]
    Whole,
    /// The first half: it stops where the second starts, if nothing it read carries over.
    First(&'c Meeting),
    /// The second half, with what it hands the first.
    Second(Box<SecondHalf<'c>>),
}

impl Half<'_> {
    /// At body level, before what starts at byte `here`; `ready`: nothing read so far carries
    /// over (the first body, no loose content, no open field). Whether to stop here.
    pub fn stop_before(&mut self, here: u64, ready: bool) -> bool {
        match self {
            Half::Whole => false,
            Half::First(meeting) => {
                meeting.first_at.store(here, Ordering::Release);
                let at = meeting.split_at.load(Ordering::Acquire);
                if here < at {
                    return false;
                }
                if here == at && ready {
                    return true;
                }
                // Reading on alone: the second half's work is no longer wanted.
                meeting.first_at.store(u64::MAX, Ordering::Release);
                *self = Half::Whole;
                false
            }
            Half::Second(h) => {
                if h.meeting.first_at.load(Ordering::Relaxed) == u64::MAX
                    || h.settled_ids.len() >= MAX_OPEN_BOOKMARKS
                {
                    // Dropped anyway, or past what is worth handing over: stop.
                    h.handed.most_open = usize::MAX;
                    return true;
                }
                false
            }
        }
    }

    /// A bookmark `id` opened; `open` bookmarks are open with it.
    pub fn opened(&mut self, id: &str, open: usize) {
        if let Half::Second(h) = self {
            // Replaces a first-half bookmark of this id, as one parser would.
            h.settled_ids.insert(id.to_string());
            h.handed.most_open = h.handed.most_open.max(open);
        }
    }

    /// A bookmark end of an id this parser did not open; `after_seq`: a `SEQ` field had just
    /// ended. The first half may have opened it.
    pub fn unknown_end(&mut self, id: &str, after_seq: bool) {
        if let Half::Second(h) = self {
            if !h.settled_ids.contains(id) {
                h.settled_ids.insert(id.to_string());
                h.handed.unknown_ends.push((id.to_string(), after_seq));
            }
        }
    }

    /// A warning given once for `key`, at `index` in the parser's report: the second half's
    /// warnings of a key the first half warned about already are left out.
    pub fn warned_once(&mut self, key: &str, index: usize) {
        if let Half::Second(h) = self {
            h.handed.once.push((key.to_string(), index));
        }
    }
}
