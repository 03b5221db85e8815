# uprocfs: two entry points for a fresh Debian 12 machine (as root).
#   make demo   - install what is missing, build, run the main job
#   make check  - install what is missing, build, run the test suite twice
#                 (plain and ASan+UBSan) and each fuzz target for 10 s;
#                 ends with "N passed, N failed"

.PHONY: all deps build demo check bench fuzz clean

all: build

deps:
	@./tools/install-deps.sh

build: deps
	@[ -f build/build.ninja ] || meson setup build
	ninja -C build

# The main job: real ps, top, free and uptime reading a synthetic machine.
demo: build
	./build/uprocfs run -- sh -c 'ps aux | head -30; echo; top -b -n 2 -d 1 | head -45; echo; free -h; echo; uptime'

check: deps
	@./tools/check.sh

# Every libFuzzer target for FUZZ_SECONDS (default 60) each: make fuzz FUZZ_SECONDS=600;
# then the slow checks: 200 lazy unmounts during reads (test_unmount.sh)
FUZZ_SECONDS ?= 60
fuzz: build
	@[ -f build-fuzz/build.ninja ] || CC=clang meson setup build-fuzz -Dfuzz=true \
		-Db_sanitize=address,undefined -Db_lundef=false
	meson configure build-fuzz -Dfuzz_seconds=$(FUZZ_SECONDS)
	meson test -C build-fuzz --suite fuzz --suite fuzz_open --print-errorlogs -v
	tests/fuse/test_unmount.sh build/uprocfs build/tests/fuse/fuse_stress 200

bench: build
	./build/uprocfs bench

clean:
	rm -rf build build-asan build-fuzz build.setup.log build-asan.setup.log build-fuzz.setup.log
