# Liaison: the two set-up commands on a fresh Debian 12 machine are `make run` and `make test`.
# Each installs the missing Debian packages (scripts/debian-packages.txt), configures and builds
# incrementally; a second call does no needless work.

BUILD_DIR  ?= build
ASAN_DIR   ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
# Tests at once. Most tests spend much of their time waiting (on loopback, timers, a server), so
# three at once on two cores finished `make test`'s tests in 275 s against 410–470 s for two
# (docs/performance.md). The sanitizer pass keeps two: its tests are busy on the CPU themselves.
CTEST_JOBS ?= 3
SANITIZE_CTEST_JOBS ?= 2
# Extra ctest arguments, e.g. make test CTEST_ARGS='-L api' or CTEST_ARGS='-R unit_ids'
CTEST_ARGS ?=
# Extra arguments for the program, e.g. make run ARGS='--data-dir /tmp/liaison-demo'
ARGS       ?=

# Where the stamp of the last successful `deps` lives: a change of the package list re-runs it.
DEPS_STAMP := $(BUILD_DIR)/.deps-stamp
CTEST_CMD   = ctest --test-dir $(1) --output-on-failure --no-tests=error -j$(2) --timeout 600 $(CTEST_ARGS)

# Sanitizer run. LeakSanitizer is ON: probes of our stack built with ASan (QApplication offscreen
# with widgets and fonts, QSQLITE, QNetworkAccessManager over TLS, QtKeychain through libsecret
# and gnome-keyring) exit with no leak report, so a report points at our code. Should a system
# library's leak show up, suppress that one frame in scripts/lsan.supp rather than turning
# LSan off; to get past it for a moment: make test-sanitize ASAN_OPTIONS=detect_leaks=0
ASAN_OPTIONS  ?= detect_leaks=1
LSAN_OPTIONS  ?= suppressions=$(CURDIR)/scripts/lsan.supp:print_suppressions=0
UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1

MAKEFLAGS += --no-print-directory

.PHONY: all deps build run test test-sanitize build-sanitize bench format translations clean help package test-package

all: build

help:
	@echo "make run             install missing Debian packages, build, start Liaison"
	@echo "                     (the window where a display exists, else 'liaison serve')"
	@echo "make test            install, build, run every test (ctest)"
	@echo "make test-sanitize   the same tests in $(ASAN_DIR) with ASan + UBSan"
	@echo "make bench           build the benchmarks; run the one against nginx (scripts/bench.sh)"
	@echo "make package         the Debian package $(BUILD_DIR)/package/liaison_*.deb (CPack), checked by lintian"
	@echo "make test-package    install that package on a clean Debian 12 (debootstrap, chroot) and check it"
	@echo "make deps | build | format | translations | clean"

deps: $(DEPS_STAMP)

$(DEPS_STAMP): scripts/debian-packages.txt scripts/install-deps.sh
	scripts/install-deps.sh
	@mkdir -p $(@D) && touch $@

# Configure only when there is no cache yet; later changes to CMakeLists are picked up by
# `cmake --build` itself. A failed configure leaves no cache, so the next call tries again.
# A new tree is built by Ninja (ninja-build is in the package list): it starts a full build's ~300
# compilations with less overhead than make's recursive passes, and finds nothing to do in a second
# rather than make's 20 s. A tree configured before keeps its generator.
GENERATOR = $$(command -v ninja >/dev/null && echo -G Ninja)
$(BUILD_DIR)/CMakeCache.txt: | $(DEPS_STAMP)
	cmake -S . -B $(BUILD_DIR) $(GENERATOR) -DCMAKE_BUILD_TYPE=RelWithDebInfo || { rm -f $@; exit 1; }

$(ASAN_DIR)/CMakeCache.txt: | $(DEPS_STAMP)
	cmake -S . -B $(ASAN_DIR) $(GENERATOR) -DCMAKE_BUILD_TYPE=Debug -DLIAISON_SANITIZE=ON || { rm -f $@; exit 1; }

build: $(DEPS_STAMP) $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j$(JOBS)

build-sanitize: $(DEPS_STAMP) $(ASAN_DIR)/CMakeCache.txt
	cmake --build $(ASAN_DIR) -j$(JOBS)

run: build
	@if [ -n "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]; then \
	    echo "make run: starting the desktop app: $(BUILD_DIR)/bin/liaison $(ARGS)"; \
	    exec $(BUILD_DIR)/bin/liaison $(ARGS); \
	else \
	    echo "make run: no display (\$$DISPLAY, \$$WAYLAND_DISPLAY): starting $(BUILD_DIR)/bin/liaison serve $(ARGS)"; \
	    exec $(BUILD_DIR)/bin/liaison serve $(ARGS); \
	fi

# The benchmarks are compiled (not run) with the tests, so that they cannot fall behind the code.
test: build
	cmake --build $(BUILD_DIR) --target benchmarks -j$(JOBS)
	scripts/with-keyring.sh $(call CTEST_CMD,$(BUILD_DIR),$(CTEST_JOBS))

# The sanitizer pass leaves out the second, PostgreSQL pass of the model and API suites (<name>_pg)
# and postgres_twocopies (two copies racing through every area for 150 to 220 s under the
# sanitizers, the longest test of the pass; it runs in the normal pass): with them CI would pass its
# 45 minutes on 2 cores. The other postgres_* tests (schema, copy, campaigns on two copies, change
# feed) run in it. The openapi_* tests (label openapi: Node tools over the OpenAPI document, which
# the sanitizers do not change) run in the normal pass only, which spares this tree a second copy of
# the npm tools. Add them back with: make test-sanitize SANITIZE_CTEST_ARGS=
SANITIZE_CTEST_ARGS ?= -E '_pg$$|^postgres_twocopies$$|^openapi_'
test-sanitize: build-sanitize
	ASAN_OPTIONS='$(ASAN_OPTIONS)' LSAN_OPTIONS='$(LSAN_OPTIONS)' UBSAN_OPTIONS='$(UBSAN_OPTIONS)' \
	    scripts/with-keyring.sh $(call CTEST_CMD,$(ASAN_DIR),$(SANITIZE_CTEST_JOBS)) $(SANITIZE_CTEST_ARGS)

bench: build
	cmake --build $(BUILD_DIR) --target benchmarks -j$(JOBS)
	scripts/bench.sh

# The Debian package (installer/CMakeLists.txt): builds only the program and the files it installs
# (not the tests), has CPack make the .deb in $(BUILD_DIR)/package, and fails when lintian reports an
# error (its warnings are printed; README "Install the package").
PACKAGE_DIR = $(BUILD_DIR)/package
package: $(DEPS_STAMP) $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) --target liaison package_files -j$(JOBS)
	rm -f $(PACKAGE_DIR)/liaison_*.deb
	cd $(BUILD_DIR) && cpack --config CPackConfig.cmake -G DEB -B $(abspath $(PACKAGE_DIR))
	lintian --fail-on error $(PACKAGE_DIR)/liaison_*.deb
	@echo "make package: $$(ls $(PACKAGE_DIR)/liaison_*.deb) (lintian: no error); install it with"
	@echo "    sudo apt-get install ./$$(ls $(PACKAGE_DIR)/liaison_*.deb)"

# Installs that package on a clean Debian 12 root (debootstrap, cached in /tmp/liaison-package) and
# checks it there: dependencies, --version, serve over HTTPS, man page, remove and purge. As root;
# not part of `make test`. The port its server uses: make test-package LIAISON_PACKAGE_PORT=18443
test-package: package
	installer/test-package.sh $(PACKAGE_DIR)/liaison_*.deb

# clang-format is not a build dependency: install it (apt-get install clang-format) to format.
# Re-running cmake lets a build tree configured before clang-format was installed find it.
format: $(BUILD_DIR)/CMakeCache.txt
	@command -v clang-format >/dev/null || { echo "make format: clang-format not found (apt-get install clang-format)" >&2; exit 1; }
	cmake $(BUILD_DIR) >/dev/null
	cmake --build $(BUILD_DIR) --target format

translations: $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) --target update_translations

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR)
