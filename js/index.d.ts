/** A format name (aliases: `docx` for word, `md` for markdown). */
export type Format =
  | 'sdxml'
  | 'parsx'
  | 'html'
  | 'html_all_in_one'
  | 'word'
  | 'docx'
  | 'pdf'
  | 'markdown'
  | 'md'
  | 'json';

/** What `SdconvError.kind` says went wrong. */
export type ErrorKind =
  /** The input is not a readable document of its format (not a zip, malformed XML, …). */
  | 'invalid_input'
  /** An option is wrong (an unknown style set or routine, a bad style mapping, …). */
  | 'invalid_option'
  /** The input passes one of the engine's limits (a zip bomb, too deep nesting, …). */
  | 'limit_exceeded'
  /** A format sdconv does not know, or cannot convert in this direction (PDF input, …). */
  | 'unsupported_format'
  /** The engine could not finish for a reason that is neither the input's nor the options'. */
  | 'conversion_failed'
  /** A bug in sdconv stopped the conversion; the next call runs on a fresh instance. */
  | 'internal_error';

/** Any failure of sdconv. */
export class SdconvError extends Error {
  readonly name: 'SdconvError';
  /** What went wrong. */
  readonly kind: ErrorKind;
}

/** A picture as the `images` callback gets it. */
export interface Image {
  /** Its file name in the output, `images/<name>`. */
  name: string;
  /** Its bytes (PNG, JPEG, SVG, …). */
  data: Uint8Array;
  /** Its MIME type, `image/png`. */
  contentType: string;
}

/** Where in the input a warning points, each part when known. */
export interface Location {
  /** The zip part, `word/document.xml`. */
  part: string | null;
  /** The element, `w:tbl`. */
  element: string | null;
  /** The block number. */
  block: number | null;
}

/** Something the conversion could not carry over exactly; the result is still usable. */
export interface Warning {
  /**
   * `unknown_element`, `unknown_attribute`, `invalid_value`, `missing_media`, `legacy_form`,
   * `lossy`, `dropped`, `unmapped_style`, `repaired`.
   */
  kind: string;
  message: string;
  location: Location;
}

/** The API's Word export settings (Word and PDF output). */
export interface WordSettings {
  language?: 'de_DE' | 'en_EN' | 'ru_RU' | 'fr_CA';
  imageCaption?: boolean;
  tableCaption?: boolean;
  textToc?: boolean;
  imageToc?: boolean;
  tableToc?: boolean;
  compressedImages?: boolean;
}

export interface Options {
  /** The input format; default: the file name's extension, else the bytes. */
  from?: Format;
  /** A file name for bytes input: its extension tells the format (a `File`'s name is used). */
  name?: string;
  /** Word input: the API's styleMapping, e.g. `{ Lead: { textType: 'heading', level: 1 } }`. */
  styleMapping?: Record<string, unknown>;
  /** Word input: magic style set key(s), `|`-joined (`contract_1-a-i`). */
  magic?: string;
  /** Cleanup routine keys applied after reading, in order (or one comma-separated string). */
  routines?: string[] | string;
  /** The most bytes a zip input may inflate to. */
  maxSize?: number;
  /**
   * Pictures in HTML and Markdown output: `files` (the default: `images/…` references, the
   * bytes in `result.images`), `inline` (`data:` URIs; HTML becomes one page with its
   * stylesheet inside), `omit`, or a function returning each picture's `src` (or a promise of
   * it; `undefined` keeps that picture as a file).
   */
  images?:
    | 'files'
    | 'inline'
    | 'omit'
    | ((image: Image) => string | undefined | null | Promise<string | undefined | null>);
  /** The language of generated words (captions, directory titles) and of the HTML page. */
  language?: 'de_DE' | 'en_EN' | 'ru_RU' | 'fr_CA';
  /** Word and PDF output: captions and directories. Without it the document keeps its captions. */
  settings?: WordSettings;
  /** Alias of `settings`. */
  wordSettings?: WordSettings;
  /** Word output: a built-in template id (`report`, `contract`). */
  template?: string;
  /** Tracked changes: shown marked (`all`, the default), `accept`ed or `reject`ed. */
  trackChanges?: 'all' | 'accept' | 'reject';
  /** Whether comments are kept; by default yes, except in Markdown (`true`: as footnotes). */
  comments?: boolean;
  /** PDF paper: `a4` (the default) or `letter`. */
  paper?: 'a4' | 'letter';
  /** Markdown tables: `auto` (pipe tables for plain grids, else HTML), `html` or `gfm`. */
  tables?: 'auto' | 'html' | 'gfm';
  /** Markdown: the page header before the text and the footer after it. */
  headersFooters?: boolean;
  /** Markdown: the line written for a page break, e.g. `<!-- pagebreak -->`. */
  pageBreaks?: string;
  /**
   * HTML (`html_all_in_one`): mammoth's clean fragment instead of a page, with mammoth's
   * options; what `sdconv/mammoth` uses (see MAMMOTH.md).
   */
  mammoth?: {
    styleMap?: string[];
    includeDefaultStyleMap?: boolean;
    ignoreEmptyParagraphs?: boolean;
    idPrefix?: string;
    headersFooters?: boolean;
    /** mammoth's `extractRawText`: the text instead of the fragment. */
    rawText?: boolean;
  };
}

interface ResultBase {
  /** The output format's name. */
  format: string;
  /** The pictures written as files, by name (`images/a.png`). */
  images: Record<string, Uint8Array>;
  /** Every file beside the main one (`style.css` for HTML, and the pictures). */
  files: Record<string, Uint8Array>;
  /** What could not be carried over exactly, the reader's first. */
  warnings: Warning[];
  /** The document's title, if it has one. */
  title: string | null;
}

/** The result of a text format (`html`, `html_all_in_one`, `markdown`, `json`). */
export interface TextResult extends ResultBase {
  text: string;
  data?: undefined;
}

/** The result of a binary format (`word`, `pdf`, `sdxml`, `parsx`). */
export interface DataResult extends ResultBase {
  data: Uint8Array;
  text?: undefined;
}

export type Result = TextResult | DataResult;

/** A document: bytes, a `Blob` or `File` (browsers), or a path (Node). */
export type Input = Uint8Array | ArrayBuffer | ArrayBufferView | Blob | string;

/** Converts `input` to format `to` (default `markdown`). Rejects with an `SdconvError`. */
export function convert(
  input: Input,
  to: 'html' | 'html_all_in_one' | 'markdown' | 'md' | 'json',
  options?: Options,
): Promise<TextResult>;
export function convert(
  input: Input,
  to: 'word' | 'docx' | 'pdf' | 'sdxml' | 'parsx',
  options?: Options,
): Promise<DataResult>;
export function convert(input: Input, to?: Format, options?: Options): Promise<Result>;

/**
 * Loads the engine; optional, `convert` loads it on first use (Node: from disk; browsers:
 * fetched beside the module). Pass a compiled `WebAssembly.Module` (workers, edge runtimes),
 * the `.wasm` bytes, a `Response` or a URL to load it from elsewhere; a worker without
 * `fetch` of its own files passes the fonts file too.
 */
export function init(
  moduleOrBytes?: WebAssembly.Module | BufferSource | Response | URL | string,
  options?: {
    /**
     * Where the bundled fonts come from (`wasm/sdconv_fonts.bin`), loaded on the first Word,
     * PDF, sd.xml or parsX export: its bytes, a `Response` or a URL. Default: beside the module.
     */
    fonts?: BufferSource | Response | URL | string;
  },
): Promise<void>;

/** The formats sdconv knows and which directions it converts. */
export function formats(): Promise<{ name: string; read: boolean; write: boolean }[]>;

/**
 * Adds a font (TrueType, OpenType or a collection) for PDF output, tried after the bundled
 * fonts (which write Latin, Greek and Cyrillic). Returns the number of faces added.
 */
export function registerFont(data: Uint8Array | ArrayBuffer): Promise<number>;
