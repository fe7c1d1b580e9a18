// Opens sdconv HTML exports in headless Chromium and checks them the way a reader would see them:
//   node check.mjs [--folder] [--drawn] [--header TEXT] [--screenshot OUT.png] [headings=H] [tables=T] [images=I] PAGE.html...
// For every page:
// - every <img> is decoded (naturalWidth > 0) and is a data: URI — or, with --folder (the `html`
//   form: index.html + style.css + images/), a file beside the page;
// - the page loads nothing from elsewhere (a single file must be self-contained);
// - content headings (h1-h6 other than the title, a hidden h1 and generated list titles), tables
//   and images match the counts given;
// - no script elements or on* attributes; the stylesheet applied; every internal link (#id) has a
//   target; no script errors;
// - with --drawn, every picture shows on screen: a screenshot of where it is laid out has at
//   least 2 % of its pixels not white (a picture that decodes but draws nothing fails);
// - with --header TEXT, the page header shows TEXT on screen, above the document's text.
// One browser serves all pages; --screenshot captures the first page.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBrowser } from './browser.mjs';

const expected = {};
const pages = [];
let screenshot = null;
let folder = false;
let drawn = false;
let header = null;
const args = process.argv.slice(2);
while (args.length) {
  const a = args.shift();
  if (a === '--screenshot') screenshot = args.shift();
  else if (a === '--folder') folder = true;
  else if (a === '--drawn') drawn = true;
  else if (a === '--header') header = args.shift();
  else if (/^(headings|tables|images)=\d+$/.test(a)) {
    const [k, v] = a.split('=');
    expected[k] = Number(v);
  } else pages.push(a);
}
if (!pages.length) {
  console.error('usage: node check.mjs [--folder] [--drawn] [--header TEXT] [--screenshot OUT.png] [headings=H] [tables=T] [images=I] PAGE.html...');
  process.exit(2);
}

let failures = 0;
let browser;
let context;
try {
  browser = await openBrowser();
  ({ context } = browser);
  for (const [n, file] of pages.entries()) {
    const problems = await checkPage(file, n === 0 ? screenshot : null);
    for (const p of problems) console.error(`FAIL ${file}: ${p}`);
    failures += problems.length ? 1 : 0;
  }
} catch (e) {
  console.error(`FAIL browser: ${e.message}`);
  failures += 1;
} finally {
  if (browser) await browser.close();
}
console.log(`browser check: ${pages.length - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);

async function checkPage(file, shot) {
  const problems = [];
  const fail = (msg) => problems.push(msg);
  const page = await context.newPage();
  const url = pathToFileURL(resolve(file)).href;
  const base = url.slice(0, url.lastIndexOf('/') + 1);
  page.on('pageerror', (e) => fail(`script error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') fail(`console error: ${m.text()}`); });
  page.on('request', (r) => {
    const u = r.url();
    const beside = folder && u.startsWith(base) && !u.slice(base.length).includes('..');
    if (u !== url && !u.startsWith('data:') && !beside) fail(`external request: ${u}`);
  });
  try {
    await page.goto(url, { waitUntil: 'load' });
    // Decoding is asynchronous even after load: wait for every image to settle.
    await page.evaluate(() => Promise.all([...document.images].map((i) => i.decode().catch(() => {}))));
    const facts = await page.evaluate(() => ({
      images: [...document.images].map((i) => ({
        data: i.getAttribute('src').startsWith('data:'),
        width: i.naturalWidth,
        alt: i.alt,
      })),
      headings: document.querySelectorAll(':is(h1,h2,h3,h4,h5,h6):not(.toc-title):not(.notes-title):not(.doc-title):not(.visually-hidden)').length,
      tables: document.querySelectorAll('table').length,
      brokenLinks: [...document.querySelectorAll('a[href^="#"]')]
        .map((a) => decodeURIComponent(a.getAttribute('href').slice(1)))
        .filter((id) => !document.getElementById(id)),
      // Nothing executable made it into the page.
      scripts: document.scripts.length,
      handlers: [...document.querySelectorAll('*')].flatMap((e) =>
        [...e.attributes].filter((a) => a.name.startsWith('on')).map((a) => `${e.tagName}@${a.name}`)),
      // The stylesheet applied (inline or style.css): it gives the body a measure.
      styled: getComputedStyle(document.body).maxWidth !== 'none',
      title: document.title,
      lang: document.documentElement.lang,
    }));
    facts.images.forEach((img, n) => {
      if (!img.data && !folder) fail(`image ${n} is not a data: URI`);
      if (!(img.width > 0)) fail(`image ${n} (${img.alt}) did not decode (naturalWidth ${img.width})`);
    });
    for (const key of ['headings', 'tables', 'images']) {
      if (key in expected) {
        const got = key === 'images' ? facts.images.length : facts[key];
        if (got !== expected[key]) fail(`${key}: expected ${expected[key]}, page has ${got}`);
      }
    }
    if (facts.scripts) fail(`${facts.scripts} script element(s) in the page`);
    for (const h of facts.handlers) fail(`event handler attribute ${h}`);
    if (!facts.styled) fail('the stylesheet did not apply');
    for (const id of facts.brokenLinks) fail(`internal link to missing id #${id}`);
    if (drawn) {
      for (const [n, img] of (await page.$$('img')).entries()) {
        const ink = await inkRatio(page, await img.screenshot());
        if (!(ink >= 0.02)) fail(`image ${n} shows nothing: ${(ink * 100).toFixed(2)} % of its pixels not white`);
      }
    }
    if (header !== null) {
      const place = await page.evaluate(() => {
        const h = document.querySelector('header.page-header');
        const main = document.querySelector('main');
        if (!h || !main) return null;
        const hb = h.getBoundingClientRect();
        return { text: h.innerText, top: hb.top, height: hb.height, bottom: hb.bottom, main: main.getBoundingClientRect().top };
      });
      if (!place) fail('no page header');
      else {
        if (!place.text.includes(header)) fail(`page header shows "${place.text}", not "${header}"`);
        if (!(place.height > 0)) fail('the page header is not shown on screen');
        if (!(place.bottom <= place.main)) fail('the page header is not above the text');
      }
    }
    if (shot) await page.screenshot({ path: shot, fullPage: true });
    console.log(`${file}: ${facts.images.length} images decoded, ${facts.headings} headings, ` +
      `${facts.tables} tables, lang ${facts.lang}, title "${facts.title}"`);
  } catch (e) {
    fail(e.message);
  } finally {
    await page.close();
  }
  return problems;
}

// The share of a screenshot's pixels that are not (near) white, read back through a canvas in the
// page (a data: PNG does not taint it).
async function inkRatio(page, png) {
  const url = `data:image/png;base64,${png.toString('base64')}`;
  return page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let ink = 0;
    for (let i = 0; i < px.length; i += 4) {
      if (px[i] < 235 || px[i + 1] < 235 || px[i + 2] < 235) ink += 1;
    }
    return ink / Math.max(1, canvas.width * canvas.height);
  }, url);
}
