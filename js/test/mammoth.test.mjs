// sdconv/mammoth against mammoth 1.13's own output: the fixtures and golden fragments the Rust
// test tests/mammoth.rs uses (tests/fixtures/mammoth/cases.json, tests/golden/mammoth/), through
// mammoth's API — input forms, options, result shape, images.imgElement.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import mammoth, { convertToHtml, convertToMarkdown, extractRawText, images } from '../mammoth.js';

const repo = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const fixtures = join(repo, 'tests/fixtures/mammoth');
const golden = join(repo, 'tests/golden/mammoth');
const cases = JSON.parse(readFileSync(join(fixtures, 'cases.json'), 'utf8'));

test('every case gives mammoth\'s fragment, warnings and raw text', async () => {
  for (const c of cases) {
    const input = { path: join(fixtures, c.file) };
    const out = await convertToHtml(input, c.options ?? {});
    assert.equal(out.value, readFileSync(join(golden, `${c.name}.html`), 'utf8'), c.name);
    const want = readFileSync(join(golden, `${c.name}.messages.txt`), 'utf8');
    const styleMessages = out.messages
      .filter((m) => /^(Unrecognised|Did not understand)/.test(m.message))
      .map((m) => `${m.type}: ${m.message}\n`)
      .join('');
    assert.equal(styleMessages, want, c.name);
    const text = await extractRawText(input);
    assert.equal(text.value, readFileSync(join(golden, `${c.name}.txt`), 'utf8'), c.name);
  }
});

test('the three input forms give the same result', async () => {
  const path = join(fixtures, 'basics.docx');
  const buffer = readFileSync(path);
  const arrayBuffer = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
  const a = await convertToHtml({ path });
  const b = await convertToHtml({ buffer });
  const c = await mammoth.convertToHtml({ arrayBuffer });
  assert.equal(a.value, b.value);
  assert.equal(a.value, c.value);
  await assert.rejects(convertToHtml({}), TypeError);
});

test('images.imgElement rewrites each picture, alt first', async () => {
  const seen = [];
  const out = await convertToHtml(
    { path: join(fixtures, 'image.docx') },
    {
      convertImage: images.imgElement(async (image) => {
        seen.push(image.contentType);
        const bytes = new Uint8Array(await image.readAsArrayBuffer());
        return { src: `/img/${bytes.length}.png`, class: 'pic' };
      }),
    },
  );
  assert.deepEqual(seen, ['image/png', 'image/png']);
  assert.equal(
    out.value,
    '<p><img alt="A tiny square" src="/img/110.png" class="pic" /></p>' +
      '<p>Text with <img alt="A tiny square" src="/img/110.png" class="pic" /> inside</p>',
  );
  const failed = await convertToHtml(
    { path: join(fixtures, 'image.docx') },
    { convertImage: images.imgElement(() => { throw new Error('no pictures today'); }) },
  );
  assert.equal(failed.value, '<p>Text with  inside</p>');
  assert.equal(failed.messages.filter((m) => m.type === 'error').length, 2);
  const same = await convertToHtml({ path: join(fixtures, 'image.docx') }, { convertImage: images.dataUri });
  assert.equal(same.value, readFileSync(join(golden, 'image.html'), 'utf8'));
});

test('unsupported options say so, and Markdown comes from sdconv\'s writer', async () => {
  const out = await convertToHtml({ path: join(fixtures, 'basics.docx') }, { transformDocument: (d) => d });
  assert.ok(out.messages.some((m) => m.message.includes('transformDocument')));
  const md = await convertToMarkdown({ path: join(fixtures, 'basics.docx') });
  assert.match(md.value, /# Chapter one/);
});

test('headersFooters is sdconv\'s addition, off by default', async () => {
  const out = await convertToHtml({ path: join(fixtures, 'basics.docx') });
  assert.ok(!out.value.includes('<header>'));
});
