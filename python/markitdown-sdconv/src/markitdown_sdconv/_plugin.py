"""The converter and markitdown's plugin hooks (plugin interface version 1)."""

from __future__ import annotations

from typing import Any, BinaryIO, Mapping, Optional

import sdconv
from markitdown import (
    PRIORITY_SPECIFIC_FILE_FORMAT,
    DocumentConverter,
    DocumentConverterResult,
    MarkItDown,
    StreamInfo,
)

# The plugin interface this module implements, as markitdown's plugin convention asks (markitdown
# 0.1 does not check it yet; a later interface may).
__plugin_interface_version__ = 1

ACCEPTED_MIME_TYPE_PREFIXES = [
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
]
ACCEPTED_FILE_EXTENSIONS = [".docx"]

# markitdown tries lower values first and registers its own DocxConverter at
# PRIORITY_SPECIFIC_FILE_FORMAT (0.0). Equal priorities would also put a plugin first (later
# registrations win ties), but only while plugins are enabled after the built-ins; a lower value
# wins whatever the order of enable_builtins() and enable_plugins().
PRIORITY = PRIORITY_SPECIFIC_FILE_FORMAT - 1.0


class SdconvResult(DocumentConverterResult):
    """markitdown's result with what sdconv adds: the pictures the Markdown refers to
    (``images/…`` name → bytes, empty when they are inlined or omitted) and the conversion's
    warnings (:class:`sdconv.ConversionWarning`)."""

    def __init__(
        self,
        markdown: str,
        *,
        title: Optional[str] = None,
        images: Optional[dict[str, bytes]] = None,
        warnings: Optional[list[Any]] = None,
    ) -> None:
        super().__init__(markdown, title=title)
        self.images: dict[str, bytes] = dict(images or {})
        self.warnings: list[Any] = list(warnings or [])


class SdconvDocxConverter(DocumentConverter):
    """Converts Word (.docx) files to Markdown with sdconv.

    ``options`` are sdconv's keyword options (:func:`sdconv.convert`: ``images``, ``magic``,
    ``style_mapping``, …) for every conversion; a call's ``sdconv_options`` keyword
    (``md.convert(path, sdconv_options={...})``) overrides them key by key. markitdown's own
    ``keep_data_uris=True`` puts the pictures inline as ``data:`` URIs, as markitdown does;
    otherwise they are ``images/…`` references whose bytes are on the result's ``images``.
    """

    def __init__(self, options: Optional[Mapping[str, Any]] = None) -> None:
        super().__init__()
        self.options: dict[str, Any] = dict(options or {})

    def accepts(self, file_stream: BinaryIO, stream_info: StreamInfo, **kwargs: Any) -> bool:
        """True for a ``.docx`` extension or the Word MIME type; reads nothing from the
        stream."""
        mimetype = (stream_info.mimetype or "").lower()
        extension = (stream_info.extension or "").lower()
        if extension in ACCEPTED_FILE_EXTENSIONS:
            return True
        return any(mimetype.startswith(prefix) for prefix in ACCEPTED_MIME_TYPE_PREFIXES)

    def convert(
        self, file_stream: BinaryIO, stream_info: StreamInfo, **kwargs: Any
    ) -> SdconvResult:
        """The stream's Markdown and title. A file sdconv cannot read raises its
        :class:`sdconv.Error`; markitdown then goes on to its next converter that accepts the
        file (its own DocxConverter) and reports every failure only if none succeeds."""
        options = dict(self.options)
        if kwargs.get("keep_data_uris"):
            options["images"] = "inline"
        options.update(kwargs.get("sdconv_options") or {})
        # The Word reader is named explicitly: the stream has no path whose extension would
        # tell sdconv, and a file accepted by MIME type alone may carry any name.
        result = sdconv.convert(file_stream.read(), "markdown", from_="docx", **options)
        return SdconvResult(
            result.text,
            title=result.title,
            images=result.images,
            warnings=result.warnings,
        )


def register_converters(markitdown: MarkItDown, **kwargs: Any) -> None:
    """Called by markitdown when plugins are enabled: registers :class:`SdconvDocxConverter`
    ahead of markitdown's DocxConverter. ``sdconv_options`` given to ``MarkItDown(...)``
    become the converter's default options."""
    markitdown.register_converter(
        SdconvDocxConverter(kwargs.get("sdconv_options")), priority=PRIORITY
    )
