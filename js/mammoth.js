// sdconv/mammoth: a drop-in for mammoth's API (convertToHtml, convertToMarkdown, extractRawText,
// images), built on the package's convert(). The fragment is written by the engine's mammoth
// flavor of the HTML writer (src/export/html/mammoth), the same bytes mammoth 1.13 writes for
// what both read; this file only adapts the input forms, the options and the result.

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

/** The package's API for this platform: node.js reads the .wasm from disk, index.js fetches it. */
let api = null;
async function sdconv() {
  api ??= await import(isNode ? './node.js' : './index.js');
  return api;
}

/** mammoth's input forms: `{path}` (Node), `{buffer}` (a Node Buffer), `{arrayBuffer}`. */
async function inputBytes(input) {
  if (input === null || typeof input !== 'object') {
    throw new TypeError('input must be {path}, {buffer} or {arrayBuffer}');
  }
  if (typeof input.path === 'string') {
    if (!isNode) throw new TypeError('{path} input is for Node; pass {arrayBuffer}');
    const { readFile } = await import('node:fs/promises');
    return new Uint8Array(await readFile(input.path));
  }
  if (input.buffer !== undefined && ArrayBuffer.isView(input.buffer)) {
    const b = input.buffer;
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }
  if (input.arrayBuffer instanceof ArrayBuffer) return new Uint8Array(input.arrayBuffer);
  if (input.file !== undefined && typeof Blob !== 'undefined' && input.file instanceof Blob) {
    return new Uint8Array(await input.file.arrayBuffer());
  }
  throw new TypeError('input must be {path}, {buffer} or {arrayBuffer}');
}

/** mammoth's style map forms: one string of lines, or an array of rules. */
function styleMapLines(styleMap) {
  if (styleMap === undefined || styleMap === null) return [];
  if (typeof styleMap === 'string') return styleMap.split('\n');
  if (Array.isArray(styleMap)) return styleMap.map(String);
  throw new TypeError('styleMap must be a string or an array of strings');
}

/** What mammoth's options become for the engine. */
function engineOptions(options, rawText) {
  const known = new Set([
    'styleMap', 'includeDefaultStyleMap', 'ignoreEmptyParagraphs', 'idPrefix', 'convertImage',
    'includeEmbeddedStyleMap', 'transformDocument', 'externalFileAccess', 'prettyPrint',
    'outputFormat', 'headersFooters',
  ]);
  const messages = [];
  for (const key of Object.keys(options)) {
    if (!known.has(key)) messages.push(warning(`option ${key} is not known to sdconv/mammoth; ignored`));
  }
  for (const key of ['transformDocument', 'prettyPrint', 'externalFileAccess']) {
    if (options[key]) messages.push(warning(`option ${key} is not supported by sdconv/mammoth; ignored`));
  }
  return {
    messages,
    options: {
      mammoth: {
        styleMap: styleMapLines(options.styleMap),
        includeDefaultStyleMap: options.includeDefaultStyleMap !== false,
        ignoreEmptyParagraphs: options.ignoreEmptyParagraphs !== false,
        idPrefix: options.idPrefix ?? '',
        headersFooters: options.headersFooters === true,
        rawText,
      },
    },
  };
}

function warning(message) {
  return { type: 'warning', message };
}

function error(e) {
  return { type: 'error', message: e?.message ?? String(e), error: e };
}

/** mammoth's messages of the engine's warnings (each is a warning in mammoth's sense). */
function messagesOf(warnings) {
  return (warnings ?? []).map((w) => warning(typeof w === 'string' ? w : w.message));
}

const IMG = /<img((?: [a-z-]+="[^"]*")*) \/>/g;
const ATTR = / ([a-z-]+)="([^"]*)"/g;

function unescapeAttr(s) {
  return s.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function escapeAttr(s) {
  return String(s)
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function base64ToBytes(b64) {
  if (typeof Buffer !== 'undefined') return new Uint8Array(Buffer.from(b64, 'base64'));
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The image mammoth hands to `convertImage`: content type, alt text and readers. */
function imageElement(contentType, b64, altText) {
  return {
    contentType,
    altText,
    readAsBase64String: async () => b64,
    readAsArrayBuffer: async () => {
      const bytes = base64ToBytes(b64);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    },
    readAsBuffer: async () => Buffer.from(b64, 'base64'),
    read: async (encoding) =>
      encoding === 'base64' ? b64 : encoding ? Buffer.from(b64, 'base64').toString(encoding) : base64ToBytes(b64),
  };
}

const IMG_ELEMENT = Symbol('sdconv.mammoth.imgElement');

/**
 * Rewrites every `<img>` of the engine's fragment (written as `<img alt="…" src="data:…" />`,
 * the form the mammoth flavor always uses) through the caller's `convertImage`, as mammoth
 * does: `alt` first, then the attributes `convertImage` returns; a failure drops the image with
 * an error message.
 */
async function convertImages(html, convertImage, messages, keepEmptyParagraphs) {
  const fn = convertImage?.[IMG_ELEMENT];
  if (typeof fn !== 'function') {
    throw new TypeError('convertImage must be made by images.imgElement(fn) (or be images.dataUri)');
  }
  const parts = [];
  let last = 0;
  for (const m of html.matchAll(IMG)) {
    parts.push(html.slice(last, m.index));
    last = m.index + m[0].length;
    const attrs = {};
    for (const a of m[1].matchAll(ATTR)) attrs[a[1]] = unescapeAttr(a[2]);
    const data = /^data:([^;,]*);base64,(.*)$/s.exec(attrs.src ?? '');
    if (!data) {
      parts.push(m[0]);
      continue;
    }
    try {
      const result = await fn(imageElement(data[1], data[2], attrs.alt));
      const out = {};
      if (attrs.alt) out.alt = attrs.alt;
      Object.assign(out, result);
      parts.push(
        '<img' + Object.entries(out).map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('') + ' />',
      );
    } catch (e) {
      messages.push(error(e));
      parts.push(GONE);
    }
  }
  parts.push(html.slice(last));
  let out = parts.join('');
  if (!out.includes(GONE)) return out;
  // An element left holding nothing but a dropped picture goes too, as mammoth's simplify
  // removes empty elements (not table cells, and not paragraphs kept by
  // ignoreEmptyParagraphs: false).
  const keep = keepEmptyParagraphs ? 'td|th|tr|table|p' : 'td|th|tr|table';
  const empty = new RegExp(`<(?!(?:${keep})[ >])([a-z][a-z0-9]*)(?: [^>]*)?>${GONE}+</\\1>`, 'g');
  for (let before = ''; before !== out; ) {
    before = out;
    out = out.replace(empty, GONE);
  }
  return out.split(GONE).join('');
}

/** Where a picture was dropped, until the elements it leaves empty are removed. */
const GONE = '\u0000';

/**
 * The image converter mammoth's `images.imgElement` makes: `fn(image)` returns (a promise of)
 * the `img` attributes, `src` at least.
 */
function imgElement(fn) {
  return { [IMG_ELEMENT]: fn };
}

/** mammoth's default: the picture as a `data:` URI. */
const dataUri = imgElement(async (image) => ({
  src: `data:${image.contentType};base64,${await image.readAsBase64String()}`,
}));

/** mammoth's `images` namespace. */
export const images = { imgElement, dataUri, inline: imgElement };

async function run(input, options, rawText) {
  const bytes = await inputBytes(input);
  const { messages, options: opts } = engineOptions(options ?? {}, rawText);
  const { convert } = await sdconv();
  const out = await convert(bytes, 'html_all_in_one', { from: 'word', ...opts });
  messages.push(...messagesOf(out.warnings));
  return { text: out.text, messages };
}

/**
 * mammoth's `convertToHtml`: `{ value, messages }`, `value` the HTML fragment.
 * @param {{path?: string, buffer?: Uint8Array, arrayBuffer?: ArrayBuffer}} input
 */
export async function convertToHtml(input, options = {}) {
  const { text, messages } = await run(input, options, false);
  let value = text;
  if (options.convertImage && options.convertImage !== dataUri) {
    value = await convertImages(
      value,
      options.convertImage,
      messages,
      options.ignoreEmptyParagraphs === false,
    );
  }
  return { value, messages };
}

/**
 * mammoth's `convertToMarkdown` (deprecated in mammoth): sdconv's own Markdown writer (GFM),
 * pictures inline as `data:` URIs.
 */
export async function convertToMarkdown(input, options = {}) {
  const bytes = await inputBytes(input);
  const { convert } = await sdconv();
  const out = await convert(bytes, 'markdown', { from: 'word', images: 'inline' });
  const messages = [];
  if (options.styleMap) messages.push(warning('styleMap does not apply to Markdown output in sdconv/mammoth; ignored'));
  messages.push(...messagesOf(out.warnings));
  return { value: out.text, messages };
}

/** mammoth's `extractRawText`: each paragraph's text followed by a blank line. */
export async function extractRawText(input) {
  const { text, messages } = await run(input, {}, true);
  return { value: text, messages };
}

export default { convertToHtml, convertToMarkdown, extractRawText, images };
