//! Stage two: languages and directions.
//!
//! Word gives each run three languages (`w:lang`: `w:val`, `w:eastAsia`, `w:bidi`) and picks one
//! by the script of each character, or the complex-script one for a right-to-left run
//! (`w:rtl`); paragraphs have a direction (`w:bidi`), tables a column order (`w:bidiVisual`).
//! The tree says a language once, where it changes: the document's, a paragraph's where it
//! differs, a run's ([`ast::Inline::Lang`]) where it differs from its paragraph's.
//!
//! That needs the whole body first, so it runs in two steps:
//! 1. while runs are converted, [`Converter::run_lang`] gives each text run a provisional
//!    [`Mark::Lang`] holding its effective language (by the script of most of its characters;
//!    for digits, spaces and punctuation only the language the run itself names) and its
//!    `w:rtl` as read; a paragraph keeps
//!    `Rtl` for `w:bidi` and its mark's language, a table `Rtl` for `w:bidiVisual`;
//! 2. [`settle`] counts the characters of each language over the body text (notes and comments
//!    left out) and the directions of its paragraphs, takes the most common as the document's,
//!    and rewrites every paragraph, table and run relative to what it inherits.

use std::collections::HashMap;

use compact_str::CompactString;
use foldhash::fast::RandomState as FastHash;

use rayon::prelude::*;

use super::converter::Converter;
use super::paragraphs::ParaInfo;
use crate::ast::inline::{LangKey, Leaf, Mark, canonical_marks, from_runs, into_runs};
use crate::ast::{self, Block, Direction, Document, Inline};
use crate::import::docx::parse::model::RunItem;
use crate::import::docx::parse::props::{LangSlots, RunProps};
use crate::lang_tag::{Slot, SlotCounts, letter_count, normalize, same_language, slot_of_language};

impl Converter<'_> {
    /// The provisional language mark of a run (step 1 above); `None` when the run has neither
    /// a language for its script nor a direction.
    pub(super) fn run_lang(
        &self,
        info: &ParaInfo<'_>,
        rp: &RunProps,
        content: &[RunItem],
    ) -> Option<Mark> {
        let styles = self.src.styles;
        let char_style = rp
            .style
            .as_deref()
            .and_then(|s| styles.get(s))
            .and_then(|s| styles.resolved(&s.id))
            .map(|r| &r.rpr);
        let levels = [Some(rp), char_style, info.lang_rpr, Some(&styles.doc_rpr)];
        let rtl = levels.iter().flatten().find_map(|r| r.rtl);
        // A right-to-left run is formatted with its complex-script properties whatever its
        // characters (ECMA-376 §17.3.2.30); otherwise the script of most characters decides.
        let slot = if rtl == Some(true) {
            Some(Slot::Complex)
        } else {
            majority_slot(content)
        };
        let lang = match slot {
            Some(slot) => levels
                .iter()
                .flatten()
                .find_map(|r| r.lang.get(slot))
                .or_else(|| self.theme_lang.get(slot))
                .map(str::to_string),
            // A run without letters (digits, a break) has the language it says itself, if any:
            // no script picks one of the three.
            None => rp.lang.any().map(str::to_string),
        };
        let dir = rtl.map(|r| if r { Direction::Rtl } else { Direction::Ltr });
        (lang.is_some() || dir.is_some()).then_some(Mark::Lang(LangKey { lang, dir }))
    }
}

/// The slot of most of a run's letters; `None` for a run without letters.
fn majority_slot(content: &[RunItem]) -> Option<Slot> {
    let mut counts = SlotCounts::default();
    for item in content {
        match item {
            RunItem::Text(t) => counts.add(t),
            RunItem::Ruby(base, _) => counts.add(base),
            _ => {}
        }
    }
    counts.majority()
}

/// What the document turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    /// The most common language of the body text (BCP 47).
    pub language: Option<String>,
    /// The document's direction.
    pub direction: Direction,
}

/// What paragraphs and runs are compared with when the body has no letters to count: the
/// core properties' language (`dc:language`), which is then the tree's (`super::meta::merge`),
/// spelled as the document defaults spell it in its slot when they name the same language
/// (`en-US` for `en`: what the runs in it are read as); without one, the defaults' `w:val`.
///
/// Comparing with the defaults' `w:val` alone said the text relative to another language than
/// the tree's own where the document's is not in `w:val` (Japanese in `w:eastAsia`): written
/// again relative to the tree's language, it read back different.
pub fn fallback_lang(defaults: &LangSlots, core: Option<&str>) -> Option<String> {
    match core.and_then(normalize) {
        Some(tag) => {
            let spelled = defaults
                .get(slot_of_language(&tag))
                .filter(|d| same_language(d, &tag));
            Some(spelled.map_or(tag.clone(), str::to_string))
        }
        None => defaults.val.clone(),
    }
}

/// Step 2 (see the module header). `default_bidi` is the document defaults' `w:bidi`
/// (`w:pPrDefault`): when said, it is the document's direction, else most paragraphs decide.
/// `default_lang` ([`fallback_lang`]) is what paragraphs and runs are compared with when the
/// body has no letters to count.
pub fn settle(
    doc: &mut Document,
    default_bidi: Option<bool>,
    default_lang: Option<&str>,
) -> Settled {
    // One count per paragraph, and one rewrite. A paragraph with a language of its own (most:
    // one with letters, or with a language in its mark) is made relative to it in the same
    // task that counts it, while its content is still in the cache; only the tally, added up
    // in the body's order afterwards (so "the first to appear among equals" is the same),
    // waits for every count. Both passes run on all cores.
    let mut paras = doc.paragraphs_mut();
    let counted: Vec<Counted> = paras
        .par_iter_mut()
        .with_min_len(PARAGRAPHS_PER_TASK)
        .map(|p| {
            let counted = Counted::of(p);
            if let Some(lang) = counted.own_name() {
                let dir = p.dir.unwrap_or(Direction::Ltr);
                p.content = relative_owned(std::mem::take(&mut p.content), Some(lang), dir);
            }
            counted
        })
        .collect();
    let mut tally = Tally::default();
    let own: Vec<Option<usize>> = counted.into_iter().map(|c| tally.add(c)).collect();
    let language = tally.language().map(str::to_string);
    let direction = match default_bidi {
        Some(true) => Direction::Rtl,
        Some(false) => Direction::Ltr,
        None if tally.rtl > tally.ltr => Direction::Rtl,
        None => Direction::Ltr,
    };
    let settled = Settled {
        language,
        direction,
    };
    // Without letters to count, runs and paragraphs are compared with the defaults' language
    // (the document's is then the core properties' or the caller's: `super::meta`).
    let doc_lang = settled.language.as_deref().or(default_lang);
    paras
        .par_iter_mut()
        .zip(own)
        .with_min_len(PARAGRAPHS_PER_TASK)
        .for_each(|(p, own)| {
            let dir = p.dir.unwrap_or(Direction::Ltr);
            let lang = match own.and_then(|i| tally.name(i)) {
                Some(lang) => Some(lang),
                // A paragraph without letters or a language of its own is in the document's:
                // made relative to it only now.
                None => {
                    p.content = relative_owned(std::mem::take(&mut p.content), doc_lang, dir);
                    doc_lang
                }
            };
            p.lang = lang.filter(|l| Some(*l) != doc_lang).map(str::to_string);
            p.dir = (dir != direction).then_some(dir);
        });
    // Tables are few, and their cells were rewritten above: a walk over the blocks alone.
    doc.walk_blocks_mut(&mut |_, b| {
        if let Block::Table(t) = b {
            let dir = t.dir.unwrap_or(Direction::Ltr);
            t.dir = (dir != direction).then_some(dir);
        }
    });
    for c in &mut doc.comments {
        c.content = relative_owned(std::mem::take(&mut c.content), doc_lang, direction);
    }
    settled
}

/// Paragraphs per task of the pool: a paragraph takes about a microsecond to count or rewrite,
/// so smaller tasks would cost more to hand out than they save.
const PARAGRAPHS_PER_TASK: usize = 64;

/// Characters per language and paragraphs per direction over the body.
#[derive(Default)]
struct Tally {
    /// The languages in order of first appearance, with their characters.
    chars: Vec<(String, usize)>,
    /// Language → its place in `chars` (a hostile file can name thousands). Looked up for every
    /// paragraph, so hashed with foldhash (seeded per process) instead of SipHash.
    places: HashMap<String, usize, FastHash>,
    /// The place last looked up.
    last: usize,
    rtl: usize,
    ltr: usize,
}

/// One paragraph's part of the [`Tally`], counted on its own. It owns its language names: the
/// rewrite that follows the count drops the marks they were read from.
struct Counted {
    rtl: bool,
    /// Characters per language, in order of first appearance.
    /// (A name inline up to 24 bytes, as nearly every language tag is: no allocation per
    /// paragraph.)
    counts: smallvec::SmallVec<[(CompactString, usize); 2]>,
    /// The paragraph's own language (the most common among its text, else its mark's), as its
    /// place in `counts`.
    own: Option<usize>,
}

impl Counted {
    fn of(p: &ast::Paragraph) -> Self {
        let mut counts = Counts::default();
        count_chars(&p.content, None, &mut counts);
        let list = counts.list;
        let (counts, own) = match most_common(&list) {
            Some(own) => (
                list.iter()
                    .map(|(l, n)| (CompactString::from(*l), *n))
                    .collect(),
                list.iter().position(|(l, _)| *l == own),
            ),
            // A paragraph without text says its language in its mark, which counts once.
            None => match &p.lang {
                Some(l) => (
                    smallvec::smallvec![(CompactString::from(l.as_str()), 1)],
                    Some(0),
                ),
                None => (smallvec::SmallVec::new(), None),
            },
        };
        Counted {
            rtl: p.dir == Some(Direction::Rtl),
            counts,
            own,
        }
    }

    /// The paragraph's own language.
    fn own_name(&self) -> Option<&str> {
        self.own
            .and_then(|i| self.counts.get(i))
            .map(|(l, _)| l.as_str())
    }
}

impl Tally {
    /// Adds a paragraph's count; returns its own language as an index for [`Tally::name`].
    fn add(&mut self, count: Counted) -> Option<usize> {
        if count.rtl {
            self.rtl += 1;
        } else {
            self.ltr += 1;
        }
        let mut own = None;
        for (i, (lang, n)) in count.counts.into_iter().enumerate() {
            let at = self.place(lang);
            if let Some((_, c)) = self.chars.get_mut(at) {
                *c += n;
            }
            if count.own == Some(i) {
                own = Some(at);
            }
        }
        own
    }

    /// The place of `lang` in `chars`, listed with no characters if new. Most paragraphs are
    /// in the language of the one before: that one is compared first, without hashing.
    fn place(&mut self, lang: CompactString) -> usize {
        if let Some((l, _)) = self.chars.get(self.last) {
            if *l == lang {
                return self.last;
            }
        }
        let at = match self.places.get(lang.as_str()) {
            Some(&at) => at,
            None => {
                let lang = lang.into_string();
                self.places.insert(lang.clone(), self.chars.len());
                self.chars.push((lang, 0));
                self.chars.len() - 1
            }
        };
        self.last = at;
        at
    }

    /// The language at `index`.
    fn name(&self, index: usize) -> Option<&str> {
        self.chars.get(index).map(|(l, _)| l.as_str())
    }

    /// The most common language, the first to appear among equals.
    fn language(&self) -> Option<&str> {
        self.chars
            .iter()
            .enumerate()
            .max_by_key(|(i, (_, n))| (*n, std::cmp::Reverse(*i)))
            .map(|(_, (l, _))| l.as_str())
    }
}

/// Characters per language, in order of first appearance: a paragraph has one or two
/// languages, held without an allocation of their own.
type LangList<'c> = smallvec::SmallVec<[(&'c str, usize); 2]>;

/// One paragraph's characters per language, in order of first appearance.
#[derive(Default)]
struct Counts<'c> {
    list: LangList<'c>,
    /// Language → place in `list`, made once the list is past [`Counts::FEW`]: a paragraph has
    /// one or two languages, but a hostile one can have a language per run, and searching the
    /// list for each would take time growing with the square of its runs.
    places: HashMap<&'c str, usize>,
}

impl<'c> Counts<'c> {
    /// How long a list is searched from end to end.
    const FEW: usize = 8;

    /// Adds `n` characters of `lang` (a language first met with none is not listed).
    fn add(&mut self, lang: &'c str, n: usize) {
        let at = if self.list.len() <= Self::FEW {
            self.list.iter().position(|(k, _)| *k == lang)
        } else {
            if self.places.is_empty() {
                self.places = self
                    .list
                    .iter()
                    .enumerate()
                    .map(|(i, (k, _))| (*k, i))
                    .collect();
            }
            self.places.get(lang).copied()
        };
        match at.and_then(|i| self.list.get_mut(i)) {
            Some((_, c)) => *c += n,
            None if n > 0 => {
                if !self.places.is_empty() {
                    self.places.insert(lang, self.list.len());
                }
                self.list.push((lang, n));
            }
            None => {}
        }
    }
}

/// Adds the characters of each language in `content` (notes left out) to `counts`.
fn count_chars<'c>(content: &'c [Inline], lang: Option<&'c str>, counts: &mut Counts<'c>) {
    for inline in content {
        match inline {
            Inline::Text { text } => {
                if let Some(l) = lang {
                    counts.add(l, letter_count(text));
                }
            }
            Inline::Lang {
                lang: inner,
                children,
                ..
            } => count_chars(children, inner.as_deref().or(lang), counts),
            Inline::Note { .. } => {}
            other => {
                if let Some(children) = other.children() {
                    count_chars(children, lang, counts);
                }
            }
        }
    }
}

/// The language of most characters in `counts`, the first among equals.
fn most_common<'c>(counts: &[(&'c str, usize)]) -> Option<&'c str> {
    counts
        .iter()
        .enumerate()
        .max_by_key(|(i, (_, n))| (*n, std::cmp::Reverse(*i)))
        .map(|(_, (l, _))| *l)
}

/// [`relative`] for content the caller gives up. Most paragraphs are in one language with no
/// run in another: every language mark in them says the paragraph's language (or none) and no
/// other direction, so each would be dropped. [`relative`] would flatten such content into runs
/// and nest it again only to drop those marks; here they are unwrapped in place
/// ([`ast::inline::unwrap_marks`]). (Debug builds check that both ways give the same content,
/// so every test that reads a Word file checks this shortcut.)
fn relative_owned(content: Vec<Inline>, lang: Option<&str>, dir: Direction) -> Vec<Inline> {
    let opposite = match dir {
        Direction::Ltr => Direction::Rtl,
        Direction::Rtl => Direction::Ltr,
    };
    // A mark that says the paragraph's language or none, and not the other direction, says
    // nothing relative to the paragraph (nor does a neutral run that would take its language).
    let says_nothing = |l: &Option<String>, d: &Option<Direction>| {
        (l.is_none() || l.as_deref() == lang) && *d != Some(opposite)
    };
    match marks_say(&content, &says_nothing) {
        Marks::None => content,
        Marks::Nothing => {
            #[cfg(debug_assertions)]
            let slow = relative(content.clone(), lang, dir);
            let kept = ast::inline::unwrap_marks(content, &|i| matches!(i, Inline::Lang { .. }));
            #[cfg(debug_assertions)]
            debug_assert_eq!(kept, slow, "the shortcut of `relative` changed the content");
            kept
        }
        Marks::Something => relative(content, lang, dir),
    }
}

/// What the language marks of some content say, for [`relative_owned`].
enum Marks {
    /// There are none (and no notes).
    None,
    /// Every one says nothing relative to the paragraph (and there are no notes).
    Nothing,
    /// One says something, or a note is inside (its content is made relative on its own).
    Something,
}

/// Whether `content` holds language marks or notes at any depth, and whether every language
/// mark `says_nothing`.
fn marks_say(
    content: &[Inline],
    says_nothing: &impl Fn(&Option<String>, &Option<Direction>) -> bool,
) -> Marks {
    let mut found = Marks::None;
    for inline in content {
        let inner = match inline {
            Inline::Note { .. } => return Marks::Something,
            Inline::Lang { lang, dir, .. } if !says_nothing(lang, dir) => return Marks::Something,
            Inline::Lang { children, .. } => {
                found = Marks::Nothing;
                marks_say(children, says_nothing)
            }
            other => match other.children() {
                Some(children) => marks_say(children, says_nothing),
                None => continue,
            },
        };
        match inner {
            Marks::Something => return Marks::Something,
            Marks::Nothing => found = Marks::Nothing,
            Marks::None => {}
        }
    }
    found
}

/// `content` with its provisional language marks made relative to a paragraph of `lang` and
/// `dir`: a run's language only where it differs, its direction only where it differs (`w:rtl`
/// in a left-to-right paragraph, `w:rtl w:val="0"` in a right-to-left one). A run without
/// letters (digits, spaces, a line break) takes the language of the run before it when both
/// have the same direction, else of the run after it, so one foreign phrase stays one span.
/// Notes inside are made relative too.
pub fn relative(content: Vec<Inline>, lang: Option<&str>, dir: Direction) -> Vec<Inline> {
    /// A text or break run's relative key, and whether it is a neutral run still looking for
    /// its language.
    struct Slot {
        key: LangKey,
        open: bool,
    }
    let mut runs = into_runs(content);
    let mut keys: Vec<Option<Slot>> = Vec::with_capacity(runs.len());
    for run in &mut runs {
        let neutral = match &mut run.leaf {
            Leaf::Text(t) => SlotCounts::of(t).is_none(),
            Leaf::LineBreak => true,
            Leaf::Atom(Inline::Note { content, .. }) => {
                *content = relative_owned(std::mem::take(content), lang, dir);
                keys.push(None);
                continue;
            }
            Leaf::Atom(_) => {
                keys.push(None);
                continue;
            }
        };
        let key = match run.marks.iter().position(|m| matches!(m, Mark::Lang(_))) {
            Some(at) => match run.marks.remove(at) {
                Mark::Lang(k) => k,
                _ => LangKey::default(),
            },
            None => LangKey::default(),
        };
        let run_dir = match (dir, key.dir) {
            (Direction::Ltr, Some(Direction::Rtl)) => Some(Direction::Rtl),
            (Direction::Rtl, Some(Direction::Ltr)) => Some(Direction::Ltr),
            _ => None,
        };
        keys.push(Some(Slot {
            open: neutral && key.lang.is_none(),
            key: LangKey {
                lang: key.lang.filter(|l| Some(l.as_str()) != lang),
                dir: run_dir,
            },
        }));
    }
    // Neutral runs: the language of the run before (same direction), else of the run after.
    for forward in [true, false] {
        let mut near: Option<LangKey> = None;
        let order: Box<dyn Iterator<Item = &mut Option<Slot>>> = if forward {
            Box::new(keys.iter_mut())
        } else {
            Box::new(keys.iter_mut().rev())
        };
        for slot in order.flatten() {
            if !slot.open {
                near = Some(slot.key.clone());
            } else if let Some(n) = near.as_ref().filter(|n| n.dir == slot.key.dir) {
                slot.key.lang.clone_from(&n.lang);
                slot.open = false;
            }
        }
    }
    for (run, slot) in runs.iter_mut().zip(keys) {
        if let Some(slot) = slot.filter(|s| !s.key.is_empty()) {
            run.marks.push(Mark::Lang(slot.key));
            canonical_marks(&mut run.marks);
        }
    }
    from_runs(runs)
}

/// Says every paragraph's language again relative to a document language `to` instead of
/// `from` (the caller named another one than the body's).
pub fn rebase(doc: &mut Document, from: Option<&str>, to: Option<&str>) {
    doc.walk_blocks_mut(&mut |_, b| {
        if let Block::Paragraph(p) = b {
            let own = p.lang.take().or_else(|| from.map(str::to_string));
            p.lang = own.filter(|l| Some(l.as_str()) != to);
        }
    });
}

/// Whether a paragraph would be the default one but for provisional language fields (the
/// empty paragraph Word puts after a nested table).
pub fn is_empty_default(p: &ast::Paragraph) -> bool {
    *p == ast::Paragraph {
        lang: p.lang.clone(),
        dir: p.dir,
        ..ast::Paragraph::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang(l: Option<&str>, dir: Option<Direction>, children: Vec<Inline>) -> Inline {
        Inline::Lang {
            lang: l.map(str::to_string),
            dir,
            children,
        }
    }

    #[test]
    fn counts_keep_the_order_of_first_appearance_past_the_few_a_list_searches() {
        let names: Vec<String> = (0..40).map(|i| format!("x-l{i}")).collect();
        let mut counts = Counts::default();
        for round in 1..=3 {
            for name in &names {
                counts.add(name, round);
            }
            counts.add("none", 0);
        }
        counts.add("x-l39", 1);
        let expected: Vec<(&str, usize)> = names
            .iter()
            .map(|n| (n.as_str(), if n == "x-l39" { 7 } else { 6 }))
            .collect();
        assert_eq!(counts.list.as_slice(), expected.as_slice());
        assert_eq!(most_common(&counts.list), Some("x-l39"));
    }

    #[test]
    fn runs_become_relative_to_their_paragraph() {
        let rtl = Some(Direction::Rtl);
        // An English paragraph with an Arabic phrase (rtl), a space between two of its words.
        let content = vec![
            lang(Some("en-US"), None, vec![Inline::text("Peace is ")]),
            lang(Some("ar-SA"), rtl, vec![Inline::text("سلام")]),
            lang(None, rtl, vec![Inline::text(" ")]),
            lang(Some("ar-SA"), rtl, vec![Inline::text("عليكم")]),
            lang(Some("en-US"), None, vec![Inline::text(" in 2019.")]),
        ];
        assert_eq!(
            relative(content, Some("en-US"), Direction::Ltr),
            vec![
                Inline::text("Peace is "),
                lang(Some("ar-SA"), rtl, vec![Inline::text("سلام عليكم")]),
                Inline::text(" in 2019."),
            ]
        );
        // In an Arabic paragraph the rtl runs are plain, the English word keeps its language.
        let content = vec![
            lang(Some("ar-SA"), rtl, vec![Inline::text("لغة ")]),
            lang(Some("en-US"), None, vec![Inline::text("Python")]),
            lang(None, None, vec![Inline::text(" 3.12")]),
        ];
        assert_eq!(
            relative(content, Some("ar-SA"), Direction::Rtl),
            vec![
                Inline::text("لغة "),
                lang(Some("en-US"), None, vec![Inline::text("Python 3.12")]),
            ]
        );
    }

    #[test]
    fn without_letters_the_core_language_is_the_documents() {
        let defaults = LangSlots {
            val: Some("en-US".to_string()),
            east_asia: Some("en-US".to_string()),
            bidi: Some("ar-SA".to_string()),
        };
        // In the defaults' spelling where they name it in its slot, else as a tag.
        assert_eq!(
            fallback_lang(&defaults, Some("en")).as_deref(),
            Some("en-US")
        );
        assert_eq!(
            fallback_lang(&defaults, Some("ja_JP")).as_deref(),
            Some("ja-JP")
        );
        assert_eq!(
            fallback_lang(&defaults, Some("ar")).as_deref(),
            Some("ar-SA")
        );
        for none in [None, Some("not a tag")] {
            assert_eq!(fallback_lang(&defaults, none).as_deref(), Some("en-US"));
        }
    }

    #[test]
    fn the_most_common_language_and_direction_win() {
        let rtl = Some(Direction::Rtl);
        let para = |l: &str, dir, text: &str| {
            Block::Paragraph(ast::Paragraph {
                dir,
                ..ast::Paragraph::new(
                    ast::TextType::Paragraph,
                    vec![lang(Some(l), dir, vec![Inline::text(text)])],
                )
            })
        };
        let mut doc = Document::new();
        doc.blocks = vec![
            para("ar-SA", rtl, "مرحبا بالعالم"),
            para("ar-SA", rtl, "اللغة العربية"),
            para("en-US", None, "Hello"),
        ];
        let settled = settle(&mut doc, None, None);
        assert_eq!(settled.language.as_deref(), Some("ar-SA"));
        assert_eq!(settled.direction, Direction::Rtl);
        let Block::Paragraph(p) = &doc.blocks[0] else {
            panic!()
        };
        assert_eq!((p.lang.as_deref(), p.dir), (None, None));
        assert_eq!(p.content, vec![Inline::text("مرحبا بالعالم")]);
        let Block::Paragraph(p) = &doc.blocks[2] else {
            panic!()
        };
        assert_eq!(
            (p.lang.as_deref(), p.dir),
            (Some("en-US"), Some(Direction::Ltr))
        );
        assert_eq!(p.content, vec![Inline::text("Hello")]);
        assert_eq!(doc.validate(), Ok(()));
    }

    #[test]
    fn a_tie_over_many_tasks_goes_to_the_first_language_in_reading_order() {
        let rtl = Some(Direction::Rtl);
        let para = |l: &str, text: &str| {
            Block::Paragraph(ast::Paragraph::new(
                ast::TextType::Paragraph,
                vec![lang(Some(l), None, vec![Inline::text(text)])],
            ))
        };
        // German and French alternate, five letters each, so the two tie over paragraphs
        // counted in many tasks; German comes first only because a table cell (after the
        // table's own place in the body) holds the first paragraph with letters.
        let mut blocks: Vec<Block> = (0..PARAGRAPHS_PER_TASK * 8)
            .map(|i| {
                if i % 2 == 0 {
                    para("fr-FR", "Salut")
                } else {
                    para("de-DE", "Hallo")
                }
            })
            .collect();
        let cell = |b: Block| ast::Cell {
            blocks: vec![b],
            ..ast::Cell::default()
        };
        let table = ast::Table {
            dir: rtl,
            rows: vec![ast::Row {
                cells: vec![cell(para("de-DE", "Hallo")), cell(para("fr-FR", "Salut"))],
                ..ast::Row::default()
            }],
            ..ast::Table::default()
        };
        blocks.insert(0, Block::Table(table));
        let mut doc = Document::new();
        doc.blocks = blocks;
        let settled = settle(&mut doc, None, None);
        assert_eq!(settled.language.as_deref(), Some("de-DE"));
        assert_eq!(settled.direction, Direction::Ltr);
        // Every paragraph is rewritten relative to the document, in cells too.
        let mut langs = Vec::new();
        doc.walk_blocks(&mut |_, b| match b {
            Block::Paragraph(p) => {
                assert!(matches!(p.content.as_slice(), [Inline::Text { .. }]));
                langs.push(p.lang.clone());
            }
            Block::Table(t) => assert_eq!(t.dir, rtl),
            _ => {}
        });
        let fr = Some("fr-FR".to_string());
        assert_eq!(&langs[..2], &[None, fr.clone()]);
        assert_eq!(langs.iter().filter(|l| **l == fr).count(), langs.len() / 2);
    }
}
