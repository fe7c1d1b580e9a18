// Hostile input: typed errors or results with warnings, never a crash, and the module stays
// usable, also after a call that trapped the instance.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sdconv from '../node.js';
import { convert, SdconvError } from '../node.js';
import { corpus, noCorpus, sample, docx, body, zip } from './helpers.js';

const KINDS = ['invalid_input', 'invalid_option', 'limit_exceeded', 'unsupported_format', 'conversion_failed'];

/** Resolves, or rejects with a typed error that is not a crash. */
async function survives(promise, name) {
  try {
    return await promise;
  } catch (e) {
    assert.ok(e instanceof SdconvError, `${name}: ${e}`);
    assert.ok(KINDS.includes(e.kind), `${name}: kind ${e.kind}: ${e.message}`);
    return e;
  }
}

async function stillWorks() {
  const out = await convert(new TextEncoder().encode('# still here\n'), 'html');
  assert.match(out.text, /still here/);
}

test('not a document: invalid_input', async () => {
  await assert.rejects(convert(new Uint8Array([1, 2, 3]), 'html', { from: 'word' }), (e) => e instanceof SdconvError && e.kind === 'invalid_input');
  await assert.rejects(convert(new TextEncoder().encode('PK\x03\x04 not really'), 'html'), { kind: 'invalid_input' });
  await assert.rejects(convert(new TextEncoder().encode('{"format_version": 1, "blocks": 7}'), 'html'), { kind: 'invalid_input' });
  await assert.rejects(convert(docx('<w:document'), 'html'), { kind: 'invalid_input' });
  await stillWorks();
});

test('a zip bomb passes the limit: limit_exceeded', async () => {
  const bomb = docx(body(`<w:p><w:r><w:t>${' '.repeat(8 << 20)}</w:t></w:r></w:p>`));
  assert.ok(bomb.length < 64 << 10);
  await assert.rejects(convert(bomb, 'html', { maxSize: 1 << 20 }), { kind: 'limit_exceeded' });
  await stillWorks();
});

test('nesting far too deep: a typed error or a result, never a crash', async () => {
  const depth = 20_000;
  const nested = docx(body('<w:tbl><w:tr><w:tc>'.repeat(depth) + '<w:p/>' + '</w:tc></w:tr></w:tbl>'.repeat(depth)));
  await survives(convert(nested, 'html'), 'nested tables');
  await survives(convert(new TextEncoder().encode('>'.repeat(100_000) + ' deep\n'), 'pdf'), 'nested quotes');
  await stillWorks();
});

test('every corpus .docx cut short: invalid_input', { skip: noCorpus }, async () => {
  const root = join(corpus, 'docx');
  const files = readdirSync(root, { recursive: true }).filter((f) => f.endsWith('.docx'));
  for (const f of files) {
    const bytes = readFileSync(join(root, f));
    const cut = new Uint8Array(bytes.subarray(0, Math.floor(bytes.length / 2)));
    await assert.rejects(convert(cut, 'html', { from: 'word' }), (e) => e instanceof SdconvError && e.kind === 'invalid_input', f);
  }
  await stillWorks();
});

test('the corrupted metafiles of the corpus: drawn with warnings, never a crash', { skip: noCorpus }, async () => {
  const root = join(corpus, 'metafiles/emf-corrupted');
  const dir = mkdtempSync(join(tmpdir(), 'sdconv-js-emf-'));
  const files = readdirSync(root).filter((f) => /\.(emf|wmf)$/i.test(f));
  assert.ok(files.length > 0);
  for (const f of files) {
    writeFileSync(join(dir, f), readFileSync(join(root, f)));
    writeFileSync(join(dir, 'doc.md'), `# ${f}\n\n![corrupted](${encodeURI(f)})\n`);
    for (const to of ['html', 'pdf', 'word']) {
      await survives(convert(join(dir, 'doc.md'), to), `${f} → ${to}`);
    }
  }
  await stillWorks();
});

test('the corpus sd.xml exports: converted or a typed error', { skip: noCorpus }, async () => {
  const root = join(corpus, 'sdxml');
  for (const f of readdirSync(root).filter((n) => n.endsWith('.zip'))) {
    const out = await survives(convert(join(root, f), 'html', { from: 'sdxml' }), f);
    if (!(out instanceof Error)) assert.match(out.text, /<html/);
  }
});

test('a call that traps the instance rejects, and the next call works', async () => {
  await sdconv.init();
  const before = await convert(readFileSync(sample), 'markdown');
  await assert.rejects(sdconv._crashForTests(), (e) => e instanceof SdconvError && e.kind === 'internal_error' && /asked for by a test/.test(e.message));
  const after = await convert(readFileSync(sample), 'markdown');
  assert.equal(after.text, before.text);
  // Twice in a row, and a failed (not trapped) call in between.
  await assert.rejects(sdconv._crashForTests(), { kind: 'internal_error' });
  await assert.rejects(convert(new Uint8Array([0]), 'html', { from: 'word' }), { kind: 'invalid_input' });
  await assert.rejects(sdconv._crashForTests(), { kind: 'internal_error' });
  assert.equal((await convert(readFileSync(sample), 'markdown')).text, before.text);
});

test('zip entries with unsafe names: a typed error or a result', async () => {
  const evil = zip([
    ['[Content_Types].xml', '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>', true],
    ['../../etc/passwd', 'x', false],
    ['word/document.xml', body('<w:p><w:r><w:t>hi</w:t></w:r></w:p>'), true],
  ]);
  await survives(convert(evil, 'html', { from: 'word' }), 'unsafe names');
  await stillWorks();
});
