#!/usr/bin/env bash
# Create .venv (or $TYR_VENV) and install tyr with its dev extras.
# torch is installed first and pinned: an unpinned torch pulls gigabytes of CUDA packages.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${TYR_VENV:-.venv}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q "torch==2.13.0"
"$venv/bin/python" -m pip install -q -e ".[dev]"
# An editable install is found by an import hook, which mypy cannot follow: list the checkout and
# its torch stubs (the partial stub package torch-stubs) in a .pth file, as an installed tyr would have them.
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
printf '%s\n%s\n' "$PWD" "$PWD/typed_stubs" > "$site/tyr_checkout.pth"
# Byte-compile the checkout, as installing a package does: every mypy run imports the plugin, and
# compiling its sources again each time (where PYTHONDONTWRITEBYTECODE keeps Python from caching them)
# costs more than a tenth of a second.
"$venv/bin/python" -m compileall -q tyr
echo "tyr installed in $venv"
