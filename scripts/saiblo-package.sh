#!/usr/bin/env bash
# Builds target/saiblo/gravity4-saiblo.zip for the Saiblo platform: main.py (the platform's
# stdin/stdout protocol, Python 3 standard library only) at the zip's root beside
# libgravity4.so (the release library it drives through the course ABI), then plays the
# unzipped package on the judge's emulation of the platform (saiblo/tests/games.rs).
#
#   scripts/saiblo-package.sh            build, package, test
#   scripts/saiblo-package.sh --no-test  build and package only
#   scripts/saiblo-package.sh --no-hello main.py does not send the framed `ok` first, which
#                                        the platform's template sends and main.py by default
#                                        (see saiblo/README.md); --hello, the old switch for
#                                        it, is accepted and changes nothing
#
# The library needs the glibc named on the last line; see saiblo/README.md for lowering it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

test=1
hello=1
for arg in "$@"; do
    case $arg in
        --no-test) test=0 ;;
        --no-hello) hello=0 ;;
        --hello) ;;
        -h | --help)
            sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "saiblo-package.sh: unknown argument $arg (try --help)" >&2
            exit 2
            ;;
    esac
done

# The root package's cdylib with its default features (the exported getPoint/clearPoint).
# With cargo-zigbuild (pip install ziglang cargo-zigbuild) it is linked against glibc 2.17
# (GRAVITY4_SAIBLO_GLIBC to change), so it loads on older platforms than this machine;
# without it, against this machine's glibc.
glibc_floor=${GRAVITY4_SAIBLO_GLIBC:-2.17}
# Both come from PyPI as ordinary packages (zig's toolchain ships inside the ziglang wheel);
# GRAVITY4_SAIBLO_NO_INSTALL=1 skips the attempt.
if ! command -v cargo-zigbuild >/dev/null && [ "${GRAVITY4_SAIBLO_NO_INSTALL:-0}" != 1 ] &&
    command -v python3 >/dev/null; then
    echo "saiblo-package.sh: installing ziglang and cargo-zigbuild with pip (for glibc $glibc_floor)" >&2
    python3 -m pip install --quiet ziglang cargo-zigbuild >&2 ||
        echo "saiblo-package.sh: pip could not install them" >&2
    hash -r
fi
if command -v cargo-zigbuild >/dev/null; then
    # A target directory of its own: nothing in it is shared with host builds anyway, and
    # it does not wait on the lock of other cargo runs in target/.
    cargo zigbuild --release --lib -p gravity4 --target "x86_64-unknown-linux-gnu.$glibc_floor" \
        --target-dir target/saiblo/build
    library=target/saiblo/build/x86_64-unknown-linux-gnu/release/libgravity4.so
else
    echo "saiblo-package.sh: no cargo-zigbuild: linking against this machine's glibc" \
        "(pip install ziglang cargo-zigbuild for glibc $glibc_floor)" >&2
    cargo build --release --lib -p gravity4
    library=target/release/libgravity4.so
fi

stage=target/saiblo/package
zip=target/saiblo/gravity4-saiblo.zip
rm -rf "$stage" "$zip"
mkdir -p "$stage"
cp saiblo/package/main.py "$stage/main.py"
if [ "$hello" = 0 ]; then
    sed -i 's/^SEND_HELLO = True$/SEND_HELLO = False/' "$stage/main.py"
    grep -q '^SEND_HELLO = False$' "$stage/main.py"
fi
# Debug sections are of no use on the platform and the upload limit is 64 MB.
strip --strip-debug -o "$stage/libgravity4.so" "$library" 2>/dev/null || cp "$library" "$stage/libgravity4.so"
# Both files at the zip's root, where the platform looks for main.py. Python's zipfile
# rather than zip(1): python3 is needed for the tests anyway, zip may not be installed.
(cd "$stage" && python3 -m zipfile -c "../gravity4-saiblo.zip" main.py libgravity4.so)

if [ "$test" = 1 ]; then
    GRAVITY4_SAIBLO_ZIP="$PWD/$zip" cargo test --release -p gravity4-saiblo --test games --test errors -- --nocapture
fi

if command -v objdump >/dev/null; then
    glibc=$(objdump -T "$stage/libgravity4.so" | grep -o 'GLIBC_[0-9.]*' | sort -V | tail -1)
    needs="${glibc/_/ } or newer"
else
    needs="a glibc objdump (binutils) would name"
fi
echo "saiblo-package.sh: $zip ($(du -k "$zip" | cut -f1) KiB): main.py + libgravity4.so, which needs $needs and Python 3.6+"
