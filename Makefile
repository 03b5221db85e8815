# uprocfs: two entry points for a fresh Debian 12 machine (as root).
#   make demo   - install what is missing, build, run the main job
#   make check  - install what is missing, build, run the test suite twice
#                 (plain and ASan+UBSan); ends with "N passed, N failed"

.PHONY: all deps build demo check bench clean

all: build

deps:
	@./tools/install-deps.sh

build: deps
	@[ -f build/build.ninja ] || meson setup build
	ninja -C build

demo: build
	./build/uprocfs demo

check: deps
	@./tools/check.sh

bench: build
	./build/uprocfs bench

clean:
	rm -rf build build-asan build.setup.log build-asan.setup.log
