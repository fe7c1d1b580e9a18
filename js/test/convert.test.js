// The API: every format in and out, the input forms, the options, the image modes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convert, formats, SdconvError } from '../node.js';
import { sample, repo, docx, body, PNG } from './helpers.js';

const sampleBytes = new Uint8Array(readFileSync(sample));
const TEXT = ['html', 'html_all_in_one', 'markdown', 'json'];
const BINARY = ['word', 'pdf', 'sdxml', 'parsx'];

test('formats() lists what the engine reads and writes', async () => {
  const list = await formats();
  const byName = Object.fromEntries(list.map((f) => [f.name, f]));
  for (const name of ['word', 'sdxml', 'markdown', 'json']) assert.equal(byName[name].read, true);
  for (const name of [...TEXT, ...BINARY]) assert.equal(byName[name].write, true, name);
  assert.equal(byName.pdf.read, false);
});

test('Word in, every format out', async () => {
  for (const to of [...TEXT, ...BINARY]) {
    const out = await convert(sampleBytes, to);
    assert.equal(out.format, to);
    assert.ok(Array.isArray(out.warnings));
    if (TEXT.includes(to)) {
      assert.equal(typeof out.text, 'string', to);
      assert.equal(out.data, undefined);
      assert.ok(out.text.length > 100, to);
    } else {
      assert.ok(out.data instanceof Uint8Array, to);
      assert.equal(out.text, undefined);
      const magic = Buffer.from(out.data.subarray(0, 4)).toString('latin1');
      assert.equal(magic, to === 'pdf' ? '%PDF' : 'PK\x03\x04', to);
    }
  }
});

test('PDF of Latin text uses the bundled fonts only', async () => {
  const out = await convert(new TextEncoder().encode('# Größe\n\nÇa va, naïve café.\n'), 'pdf');
  const pdf = Buffer.from(out.data).toString('latin1');
  assert.match(pdf, /DejaVu/);
  assert.ok(!out.warnings.some((w) => /no font|missing glyph/i.test(w.message)), JSON.stringify(out.warnings));
});

test('every readable format in: Word, sd.xml, Markdown, JSON', async () => {
  const md = '# Heading\n\nA *paragraph* with [a link](https://example.com).\n';
  const fromMd = await convert(new TextEncoder().encode(md), 'json');
  assert.match(fromMd.text, /"format_version"/);
  // Each written format read back gives the heading again.
  const fromJson = await convert(new TextEncoder().encode(fromMd.text), 'markdown');
  assert.match(fromJson.text, /^# Heading/m);
  const sdxml = await convert(new TextEncoder().encode(md), 'sdxml');
  const fromSdxml = await convert(sdxml.data, 'markdown');
  assert.match(fromSdxml.text, /^# Heading/m);
  const word = await convert(new TextEncoder().encode(md), 'word');
  const fromWord = await convert(word.data, 'markdown');
  assert.match(fromWord.text, /^# Heading/m);
  const sdxmlSample = await convert(join(repo, 'samples/sample.sdxml.zip'), 'html', { from: 'sdxml' });
  assert.match(sdxmlSample.text, /<html/);
});

test('inputs: Uint8Array, ArrayBuffer, a typed view, Blob, File, a path', async () => {
  const expected = (await convert(sampleBytes, 'markdown')).text;
  const buffer = sampleBytes.buffer.slice(sampleBytes.byteOffset, sampleBytes.byteOffset + sampleBytes.byteLength);
  assert.equal((await convert(buffer, 'markdown')).text, expected);
  const padded = new Uint8Array(sampleBytes.length + 8);
  padded.set(sampleBytes, 4);
  assert.equal((await convert(new DataView(padded.buffer, 4, sampleBytes.length), 'markdown')).text, expected);
  assert.equal((await convert(new Blob([sampleBytes]), 'markdown')).text, expected);
  assert.equal((await convert(new File([sampleBytes], 'x.docx'), 'markdown')).text, expected);
  assert.equal((await convert(sample, 'markdown')).text, expected);
  await assert.rejects(convert(42, 'markdown'), TypeError);
  await assert.rejects(convert(join(repo, 'no/such/file.docx'), 'markdown'), { code: 'ENOENT' });
});

test('the result: title, warnings with kinds and locations, files', async () => {
  const out = await convert(sampleBytes, 'html');
  assert.equal(typeof out.title === 'string' || out.title === null, true);
  assert.ok(out.files['style.css'] instanceof Uint8Array);
  for (const [name, data] of Object.entries(out.images)) {
    assert.match(name, /^images\//);
    assert.ok(out.text.includes(`src="${name}"`), name);
    assert.equal(out.files[name], data);
  }
  const md = new TextEncoder().encode('![missing](nowhere.png)\n');
  const warned = await convert(md, 'html');
  assert.ok(warned.warnings.length > 0);
  const w = warned.warnings[0];
  assert.equal(typeof w.kind, 'string');
  assert.equal(typeof w.message, 'string');
  assert.ok('part' in w.location && 'element' in w.location && 'block' in w.location);
});

/** A docx with one picture: the sample has pictures (checked). */
async function picturesOf(to, images) {
  return convert(sampleBytes, to, { images });
}

test('images: files, inline, omit, a callback', async () => {
  for (const to of ['html', 'markdown']) {
    const files = await picturesOf(to, 'files');
    const names = Object.keys(files.images);
    assert.ok(names.length > 0, `the sample has pictures (${to})`);
    const inline = await picturesOf(to, 'inline');
    assert.deepEqual(inline.images, {});
    assert.ok(inline.text.includes('data:image/'), to);
    assert.ok(!inline.text.includes('images/'), to);
    const omit = await picturesOf(to, 'omit');
    assert.deepEqual(omit.images, {});
    assert.ok(!omit.text.includes('images/') && !omit.text.includes('data:image/'), to);
    const seen = [];
    const called = await picturesOf(to, async (image) => {
      seen.push(image);
      return `https://cdn.example/${image.name.slice('images/'.length)}?v=1&x=(1)`;
    });
    assert.deepEqual(seen.map((i) => i.name).sort(), names.sort());
    for (const image of seen) {
      assert.ok(image.data instanceof Uint8Array && image.data.length > 0);
      assert.match(image.contentType, /^image\//);
    }
    assert.deepEqual(called.images, {});
    assert.ok(!called.text.includes('](images/') && !called.text.includes('src="images/'), to);
    const first = names[0].slice('images/'.length);
    if (to === 'html') assert.ok(called.text.includes(`src="https://cdn.example/${first}?v=1&amp;x=(1)"`));
    else assert.ok(called.text.includes(`](https://cdn.example/${first}?v=1&x=%281%29`));
    // A callback answering nothing keeps that picture as a file.
    const kept = await picturesOf(to, () => undefined);
    assert.deepEqual(Object.keys(kept.images).sort(), names.sort());
  }
});

test('options: language, captions, track changes, Markdown options', async () => {
  const de = await convert(sampleBytes, 'html', { language: 'de_DE' });
  assert.match(de.text, /lang="de/);
  const settings = { imageCaption: true, tableCaption: true, textToc: true, imageToc: true, tableToc: true };
  const word = await convert(sampleBytes, 'word', { settings, language: 'fr_CA' });
  assert.ok(word.data.length > 1000);
  await assert.rejects(convert(sampleBytes, 'word', { settings: { imageToc: true } }), { kind: 'invalid_option' });
  const both = await convert(sampleBytes, 'pdf', { wordSettings: { textToc: true }, paper: 'letter' });
  assert.match(Buffer.from(both.data).toString('latin1'), /612/);

  const tracked = docx(body(`<w:p><w:r><w:t>Kept </w:t></w:r><w:ins w:id="1" w:author="a"><w:r><w:t>added</w:t></w:r></w:ins><w:del w:id="2" w:author="a"><w:r><w:delText>gone</w:delText></w:r></w:del></w:p>`));
  const accepted = await convert(tracked, 'markdown', { trackChanges: 'accept' });
  assert.match(accepted.text, /Kept added/);
  assert.doesNotMatch(accepted.text, /gone/);
  const rejected = await convert(tracked, 'markdown', { trackChanges: 'reject' });
  assert.match(rejected.text, /Kept gone/);
  assert.doesNotMatch(rejected.text, /added/);

  const breaks = docx(body(`<w:p><w:r><w:t>one</w:t></w:r></w:p><w:p><w:r><w:br w:type="page"/><w:t>two</w:t></w:r></w:p>`));
  const cut = await convert(breaks, 'markdown', { pageBreaks: '<!-- pagebreak -->' });
  assert.match(cut.text, /one\s+<!-- pagebreak -->\s+two/);
  await assert.rejects(convert(breaks, 'markdown', { pageBreaks: 'a\nb' }), { kind: 'invalid_option' });

  const merged = docx(body(`<w:tbl><w:tr><w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr><w:p><w:r><w:t>wide</w:t></w:r></w:p></w:tc></w:tr><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>b</w:t></w:r></w:p></w:tc></w:tr></w:tbl>`));
  assert.match((await convert(merged, 'markdown')).text, /colspan="2"/);
  assert.match((await convert(merged, 'markdown', { tables: 'gfm' })).text, /\| *wide/);
  await assert.rejects(convert(merged, 'markdown', { tables: 'latex' }), { kind: 'invalid_option' });
});

test('options: style mapping, magic, routines', async () => {
  const lead = docx(body(`<w:p><w:pPr><w:pStyle w:val="Lead"/></w:pPr><w:r><w:t>Big   words</w:t></w:r></w:p>`));
  const mapped = await convert(lead, 'markdown', { styleMapping: { Lead: { textType: 'heading', level: 1 } } });
  assert.match(mapped.text, /^#+ Big/m);
  assert.doesNotMatch((await convert(lead, 'markdown')).text, /^#/m);
  await assert.rejects(convert(lead, 'markdown', { styleMapping: { Lead: { textType: 'nonsense' } } }), { kind: 'invalid_option' });
  const cleaned = await convert(lead, 'markdown', { routines: ['collapse-whitespace'] });
  assert.match(cleaned.text, /Big words/);
  assert.deepEqual((await convert(lead, 'markdown', { routines: 'collapse-whitespace' })).text, cleaned.text);
  await assert.rejects(convert(lead, 'markdown', { routines: ['no-such-routine'] }), { kind: 'invalid_option' });
  const numbered = docx(body(`<w:p><w:r><w:t>1. Scope</w:t></w:r></w:p><w:p><w:r><w:t>Text.</w:t></w:r></w:p>`));
  const magic = await convert(numbered, 'json', { magic: 'contract_1-a-i' });
  assert.match(magic.text, /heading/);
  await assert.rejects(convert(numbered, 'json', { magic: 'no-such-set' }), { kind: 'invalid_option' });
});

test('a Markdown file read by path gets its pictures from beside it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sdconv-js-'));
  writeFileSync(join(dir, 'pic.png'), PNG);
  writeFileSync(join(dir, 'doc.md'), '![a picture](pic.png)\n\n![outside](../etc/passwd)\n');
  const out = await convert(join(dir, 'doc.md'), 'html');
  assert.deepEqual(Object.keys(out.images).length, 1);
  assert.ok(out.warnings.some((w) => w.message.includes('../etc/passwd')), JSON.stringify(out.warnings));
});

test('bad arguments are errors, never silently ignored', async () => {
  await assert.rejects(convert(sampleBytes, 'markdown', { imgaes: 'inline' }), (e) => e instanceof SdconvError && e.kind === 'invalid_option' && /imgaes/.test(e.message));
  await assert.rejects(convert(sampleBytes, 'docs'), { kind: 'unsupported_format' });
  await assert.rejects(convert(sampleBytes, 'markdown', { from: 'pdf' }), { kind: 'unsupported_format' });
  await assert.rejects(convert(sampleBytes, 'markdown', { images: 'sometimes' }), { kind: 'invalid_option' });
  await assert.rejects(convert(sampleBytes, 'markdown', { language: 'xx' }), { kind: 'invalid_option' });
  await assert.rejects(convert(sampleBytes, 'pdf', { paper: 'a5' }), { kind: 'invalid_option' });
  await assert.rejects(convert(sampleBytes, 'word', { template: 'no-such-template' }), { kind: 'invalid_option' });
  await assert.rejects(convert(sampleBytes, 'word', { settings: {}, wordSettings: {} }), { kind: 'invalid_option' });
});
