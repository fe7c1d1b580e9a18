// Types of sdconv/mammoth: mammoth's API (mammoth 1.13's index.d.ts, the parts sdconv supports).

/** An input as mammoth takes it. */
export type Input =
  | { path: string }
  | { buffer: Uint8Array }
  | { arrayBuffer: ArrayBuffer }
  | { file: Blob };

/** A message of a conversion. */
export interface Message {
  type: 'warning' | 'error';
  message: string;
  /** For `error`: what was thrown. */
  error?: unknown;
}

/** The result of every call. */
export interface Result {
  value: string;
  messages: Message[];
}

/** The picture `images.imgElement`'s function receives. */
export interface Image {
  contentType: string;
  altText?: string;
  readAsBase64String(): Promise<string>;
  readAsArrayBuffer(): Promise<ArrayBuffer>;
  /** Node only. */
  readAsBuffer(): Promise<Uint8Array>;
  read(): Promise<Uint8Array>;
  read(encoding: string): Promise<string>;
}

/** The attributes of the `img` written for a picture; `src` at least. */
export type ImageAttributes = { src: string; [name: string]: string };

/** A picture converter, made by `images.imgElement`. */
export interface ImageConverter {
  readonly __brand?: 'ImageConverter';
}

export interface Options {
  /** Style map rules, one per line or one per item (`p[style-name='Warning'] => div.warning > p:fresh`). */
  styleMap?: string | string[];
  /** Append mammoth's default style map; default true. */
  includeDefaultStyleMap?: boolean;
  /** Leave out empty paragraphs; default true. */
  ignoreEmptyParagraphs?: boolean;
  /** Put before every id written (bookmarks, notes). */
  idPrefix?: string;
  /** How pictures become `img` elements; default `images.dataUri`. */
  convertImage?: ImageConverter;
  /** sdconv's addition: the page header before the text and its footer after it (mammoth drops them). */
  headersFooters?: boolean;
  /** Accepted for compatibility; not supported (a warning says so). */
  includeEmbeddedStyleMap?: boolean;
  /** Not supported (a warning says so). */
  transformDocument?: (document: unknown) => unknown;
  /** Not supported (a warning says so). */
  externalFileAccess?: boolean;
}

export function convertToHtml(input: Input, options?: Options): Promise<Result>;
/** sdconv's Markdown writer (GFM); mammoth's own Markdown output is deprecated. */
export function convertToMarkdown(input: Input, options?: Options): Promise<Result>;
export function extractRawText(input: Input): Promise<Result>;

export const images: {
  imgElement(f: (image: Image) => Promise<ImageAttributes> | ImageAttributes): ImageConverter;
  dataUri: ImageConverter;
  /** mammoth's old name of `imgElement`. */
  inline(f: (image: Image) => Promise<ImageAttributes> | ImageAttributes): ImageConverter;
};

declare const _default: {
  convertToHtml: typeof convertToHtml;
  convertToMarkdown: typeof convertToMarkdown;
  extractRawText: typeof extractRawText;
  images: typeof images;
};
export default _default;
