"""sdconv: Word, sd.xml and Markdown documents to Markdown, HTML, Word, PDF and more.

A binding of the sdconv engine (Rust). One call converts a document::

    import sdconv

    text = sdconv.to_markdown("report.docx")
    result = sdconv.convert("report.docx", to="html")
    result.write("out/report.html")  # the page, style.css and images/

A document read once can be written many ways (:func:`read`), many documents are converted in
parallel with :func:`convert_many`. Conversions release the interpreter's lock and can run
from many threads at once. Failures raise :class:`Error` subclasses.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Optional, Union

from . import _sdconv
from ._sdconv import (
    ConversionFailed,
    Error,
    Image,
    InvalidInput,
    InvalidOption,
    LimitExceeded,
    UnsupportedFormat,
)

__version__: str = _sdconv.__version__

__all__ = [
    "ConversionFailed",
    "ConversionWarning",
    "Document",
    "Error",
    "Image",
    "InvalidInput",
    "InvalidOption",
    "LimitExceeded",
    "Location",
    "Result",
    "UnsupportedFormat",
    "convert",
    "convert_many",
    "formats",
    "read",
    "register_fonts",
    "to_html",
    "to_markdown",
]

Source = Union[bytes, bytearray, memoryview, str, "os.PathLike[str]", Any]

# The keyword options each stage takes; anything else is an InvalidOption, so that a misspelt
# option is an error rather than a silently ignored wish.
_IMPORT_OPTIONS = frozenset({"style_mapping", "magic", "routines", "max_size"})
_EXPORT_OPTIONS = frozenset(
    {"images", "language", "settings", "word_settings", "template", "track_changes",
     "comments", "paper", "pdf_standard", "hyphenate", "tables", "headers_footers",
     "page_breaks"}
)


class Location(NamedTuple):
    """Where in the input a warning points: the part (``word/document.xml``), the element
    (``w:tbl``) and the block number, each when known."""

    part: Optional[str]
    element: Optional[str]
    block: Optional[int]

    def __str__(self) -> str:
        bits = []
        if self.part:
            bits.append(self.part)
        if self.element:
            bits.append(f"<{self.element}>")
        if self.block is not None:
            bits.append(f"block {self.block}")
        return ", ".join(bits)


class ConversionWarning(NamedTuple):
    """Something the conversion could not carry over exactly; the result is still usable.

    ``kind`` is one of ``unknown_element``, ``unknown_attribute``, ``invalid_value``,
    ``missing_media``, ``legacy_form``, ``lossy``, ``dropped``, ``unmapped_style``,
    ``repaired``."""

    kind: str
    message: str
    location: Location

    def __str__(self) -> str:
        where = str(self.location)
        return f"{where}: {self.message}" if where else self.message


def _warnings(raw: Iterable[tuple]) -> list[ConversionWarning]:
    return [
        ConversionWarning(kind, message, Location(part, element, block))
        for kind, message, part, element, block in raw
    ]


def _safe_relative(name: str) -> Path:
    """A file name beside the output, refused when it could leave the output's folder."""
    rel = Path(name)
    if rel.is_absolute() or any(p in ("..", "") for p in rel.parts) or not rel.parts:
        raise Error(f"refusing to write {name!r} outside the output's folder")
    return rel


class Result:
    """The outcome of a conversion.

    ``text`` is the output of a text format (``markdown``, ``html``, ``html_all_in_one``,
    ``json``), with ``markdown``, ``text_content`` and ``value`` as aliases; ``data`` is the
    main file's bytes for every format. ``files`` are the other files (``images/…`` and, for
    HTML, ``style.css``) by name, ``images`` only the pictures. :meth:`write` lays everything
    out as the ``sdconv convert`` command does."""

    __slots__ = ("format", "data", "files", "warnings", "title", "_is_text")

    format: str
    data: bytes
    files: dict[str, bytes]
    warnings: list[ConversionWarning]
    title: Optional[str]

    def __init__(self, raw: tuple) -> None:
        fmt, is_text, data, files, warnings, title = raw
        self.format = fmt
        self._is_text = is_text
        self.data = data
        self.files = dict(files)
        self.warnings = _warnings(warnings)
        self.title = title

    @property
    def text(self) -> str:
        """The output as text; a ``TypeError`` for binary formats (``word``, ``pdf``, …)."""
        if not self._is_text:
            raise TypeError(f"{self.format} output is binary: use .data")
        return self.data.decode("utf-8")

    # The names other converters' results use (markitdown, mammoth).
    markdown = text
    text_content = text
    value = text

    @property
    def images(self) -> dict[str, bytes]:
        """The pictures written beside the text, by relative name (``images/a.png``)."""
        return {k: v for k, v in self.files.items() if k.startswith("images/")}

    @property
    def messages(self) -> list[ConversionWarning]:
        """Alias of :attr:`warnings` (mammoth's name)."""
        return self.warnings

    def write(self, path: Union[str, "os.PathLike[str]"]) -> Path:
        """Writes the main file at ``path`` and the other files beside it (``images/``,
        ``style.css``), creating folders as needed. Returns ``path``."""
        target = Path(path)
        folder = target.parent
        folder.mkdir(parents=True, exist_ok=True)
        target.write_bytes(self.data)
        for name, content in self.files.items():
            file = folder / _safe_relative(name)
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_bytes(content)
        return target

    def __repr__(self) -> str:
        return (
            f"<sdconv.Result {self.format}: {len(self.data)} bytes, {len(self.files)} files, "
            f"{len(self.warnings)} warnings>"
        )


class Document:
    """A document read once (:func:`read`), to be written any number of ways with
    :meth:`export`."""

    __slots__ = ("_raw", "warnings")

    def __init__(self, raw: Any) -> None:
        self._raw = raw
        self.warnings: list[ConversionWarning] = _warnings(raw.warnings())

    @property
    def metadata(self) -> dict[str, Any]:
        """Title, subtitle, language, creator, … as the tree holds them (absent keys unset)."""
        return json.loads(self._raw.metadata_json())

    @property
    def title(self) -> Optional[str]:
        """The document's title, if it has one."""
        return self.metadata.get("title")

    @property
    def counts(self) -> dict[str, int]:
        """How many blocks, paragraphs, headings, list items, tables, images, media items and
        comments the document has (table content included)."""
        return dict(self._raw.counts())

    @property
    def images(self) -> list[Image]:
        """The pictures the document shows, in document order, each once."""
        return list(self._raw.images())

    def to_dict(self) -> dict[str, Any]:
        """The document tree as the engine's JSON dump, parsed (pictures without bytes)."""
        return json.loads(self._raw.to_json())

    def to_json(self) -> str:
        """The document tree as the engine's JSON dump."""
        return self._raw.to_json()

    def export(
        self,
        to: str = "markdown",
        *,
        describe_image: Optional[Callable[[Image], Optional[str]]] = None,
        **options: Any,
    ) -> Result:
        """Writes the document in format ``to`` with the export options of :func:`convert`."""
        spec = _export_spec(to, options)
        return Result(self._raw.export(spec, describe_image))

    def __repr__(self) -> str:
        return f"<sdconv.Document {self.title!r} {self.counts}>"


def _json_option(name: str, value: Any) -> Optional[str]:
    """A dict option as the JSON text the engine parses; a str is taken as JSON already."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return json.dumps(value)
    raise InvalidOption(f"invalid {name}: expected a dict, got {type(value).__name__}")


def _check_keys(options: Mapping[str, Any], allowed: frozenset) -> None:
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise InvalidOption(
            f"unknown option {unknown[0]!r}; known: {', '.join(sorted(allowed))}"
        )


def _import_spec(from_: Optional[str], options: Mapping[str, Any]) -> Any:
    _check_keys(options, _IMPORT_OPTIONS)
    routines = options.get("routines")
    if isinstance(routines, str):
        routines = [r for r in routines.split(",") if r]
    return _sdconv.ImportSpec(
        from_,
        _json_option("style_mapping", options.get("style_mapping")),
        options.get("magic"),
        None if routines is None else list(routines),
        options.get("max_size"),
    )


def _export_spec(to: str, options: Mapping[str, Any]) -> Any:
    _check_keys(options, _EXPORT_OPTIONS)
    if "settings" in options and "word_settings" in options:
        raise InvalidOption("pass settings or word_settings, not both")
    settings = options.get("word_settings", options.get("settings"))
    return _sdconv.ExportSpec(
        to,
        options.get("images", "files"),
        options.get("language"),
        _json_option("settings", settings),
        options.get("template"),
        options.get("track_changes", "all"),
        None if options.get("comments") is None else bool(options["comments"]),
        options.get("paper", "a4"),
        options.get("tables", "auto"),
        bool(options.get("headers_footers", False)),
        options.get("page_breaks"),
        options.get("pdf_standard"),
        bool(options.get("hyphenate", False)),
    )


def _split(options: Mapping[str, Any]) -> tuple[dict, dict]:
    imports = {k: v for k, v in options.items() if k in _IMPORT_OPTIONS}
    exports = {k: v for k, v in options.items() if k not in _IMPORT_OPTIONS}
    return imports, exports


def _source(source: Source) -> tuple[Optional[bytes], Optional[str]]:
    """``(data, path)``: bytes are passed on, a path is read by the engine (its extension also
    tells the format), a binary file object is read here."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), None
    if isinstance(source, (str, os.PathLike)):
        return None, os.fspath(source)
    read = getattr(source, "read", None)
    if callable(read):
        data = read()
        if isinstance(data, str):
            raise TypeError("the file object is open in text mode: open it with 'rb'")
        return bytes(data), None
    raise TypeError(
        f"source must be bytes, a path or a binary file object, not {type(source).__name__}"
    )


def convert(
    source: Source,
    to: str = "markdown",
    *,
    from_: Optional[str] = None,
    describe_image: Optional[Callable[[Image], Optional[str]]] = None,
    **options: Any,
) -> Result:
    """Converts ``source`` (bytes, a path or a binary file object) to format ``to``.

    ``to`` and ``from_`` are format names: ``markdown`` (``md``), ``html``,
    ``html_all_in_one``, ``word`` (``docx``), ``pdf``, ``sdxml``, ``parsx``, ``json``. Without
    ``from_`` the input format comes from the path's extension, else from the bytes.

    Reading options: ``style_mapping`` (the API's styleMapping, a dict), ``magic`` (style set
    key(s), ``|``-joined), ``routines`` (cleanup routine keys, in order), ``max_size`` (bytes a
    zip input may inflate to).

    Writing options: ``images`` (``"files"``, ``"inline"`` or ``"omit"``), ``language``
    (``de_DE``, ``en_EN``, ``ru_RU``, ``fr_CA``), ``settings``/``word_settings`` (the API's Word
    export settings, a dict; also for PDF), ``template`` (Word template id),
    ``track_changes`` (``"all"``, ``"accept"``, ``"reject"``), ``comments`` (bool; kept by
    default, except in Markdown, where ``True`` writes them as footnotes). PDF only: ``paper``
    (``"a4"``, ``"letter"``), ``pdf_standard`` (``"ua1"``, ``"a2b"``, ``"a2u"``, ``"a3b"``,
    ``"a2b+ua1"`` or ``"none"``, the default: tagged PDF; a document that cannot meet the
    standard raises :class:`InvalidInput` naming every reason), ``hyphenate`` (bool: hyphenate
    with the paragraph language's patterns even when the document does not ask for it).
    Markdown only: ``tables`` (``"auto"``: pipe tables for plain grids, HTML
    tables for merged or nested cells; ``"html"``; ``"gfm"``), ``headers_footers`` (bool: the
    page header before the text, the footer after it), ``page_breaks`` (the line written for a
    page break, e.g. ``"<!-- pagebreak -->"``, to cut the text into chunks).

    ``describe_image(image)`` is called once for each picture with an :class:`Image` and may
    return its alt text (``None`` keeps the document's).
    """
    data, path = _source(source)
    imports, exports = _split(options)
    import_spec = _import_spec(from_, imports)
    export_spec = _export_spec(to, exports)
    return Result(_sdconv.convert(import_spec, export_spec, data, path, describe_image))


def to_markdown(source: Source, **options: Any) -> str:
    """The Markdown text of ``source`` (pictures as ``images/…`` references unless
    ``images="inline"`` or ``"omit"``). Options as :func:`convert`."""
    return convert(source, "markdown", **options).text


def to_html(source: Source, **options: Any) -> str:
    """One self-contained HTML page of ``source`` (stylesheet and pictures inside unless
    ``images="omit"``). Options as :func:`convert`; for the page with picture files use
    ``convert(source, "html")``."""
    options.setdefault("images", "inline")
    return convert(source, "html", **options).text


def read(source: Source, *, from_: Optional[str] = None, **options: Any) -> Document:
    """Reads ``source`` into a :class:`Document` with the reading options of :func:`convert`."""
    data, path = _source(source)
    return Document(_sdconv.read(_import_spec(from_, options), data, path))


def convert_many(
    sources: Iterable[Source],
    to: str = "markdown",
    *,
    from_: Optional[str] = None,
    workers: Optional[int] = None,
    **options: Any,
) -> list[Union[Result, Error]]:
    """Converts many sources in parallel on the engine's thread pool (or a pool of ``workers``
    threads). Returns one item per source, in order: a :class:`Result`, or the :class:`Error`
    (or ``OSError``) that file failed with, never raised. Options as :func:`convert`, except
    ``describe_image``."""
    if "describe_image" in options:
        raise InvalidOption("describe_image is not available in convert_many: use convert")
    imports, exports = _split(options)
    import_spec = _import_spec(from_, imports)
    export_spec = _export_spec(to, exports)
    raw = _sdconv.convert_many(
        import_spec, export_spec, [_source(s) for s in sources], workers
    )
    return [item if isinstance(item, BaseException) else Result(item) for item in raw]


def formats() -> dict[str, tuple[bool, bool]]:
    """The formats by name: ``(can_read, can_write)``."""
    return {name: (r, w) for name, r, w in _sdconv.formats()}


def register_fonts(source: Source) -> int:
    """Adds fonts for the rest of the process, tried after the bundled fonts and before the
    system's when PDF is written (and for the Word writer's page numbers): a folder's font
    files (``.ttf``, ``.otf``, ``.ttc``, ``.otc``; not its sub-folders), as the command line's
    ``--font-dir`` does, one font file, or a font's bytes. Returns the number of faces added.

    A file that is no font raises :class:`InvalidInput`, one over the size limit
    :class:`LimitExceeded`; a missing path ``FileNotFoundError``."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _sdconv.register_fonts(bytes(source), None)
    if isinstance(source, (str, os.PathLike)):
        return _sdconv.register_fonts(None, os.fspath(source))
    raise TypeError(
        f"source must be a folder or file path or a font's bytes, not {type(source).__name__}"
    )
