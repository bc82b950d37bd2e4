# Hark's entry points. Each installs what it needs first (Debian packages
# via scripts/setup.sh), so each works on a fresh machine.

FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= 20000
NO_ASLR := $(shell setarch -R true 2>/dev/null && echo setarch -R)
FIXTURE ?= audio-fixtures/flite-rms/monkeychat-send-bobo-bananas.wav
# The demo's second turn: the message is read back, and this sends it.
ANSWER ?= audio-fixtures/flite-rms/answer-yes-send-it.wav

# `make install PREFIX=/usr/local` (and DESTDIR for packaging): the release
# binary, its models, manual page and shell completions.
PREFIX ?= /usr/local
DESTDIR ?=
# What install-files copies: an already-built hark and manual page (MANPAGE
# empty: none).
HARK ?= .build/release/hark
MANPAGE ?= .build/man/hark.1
bindir = $(DESTDIR)$(PREFIX)/bin
datadir = $(DESTDIR)$(PREFIX)/share/hark
mandir = $(DESTDIR)$(PREFIX)/share/man/man1
bashdir = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
zshdir = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
fishdir = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

.PHONY: setup setup-test build man install install-files uninstall demo test example check-generated fuzz fixtures

setup:
	./scripts/setup.sh

setup-test:
	./scripts/setup.sh --test

## The release tool carries the Swift runtime and Foundation in itself
## (--static-swift-stdlib): installed, it needs no Swift toolchain beside it,
## starts in 10 ms instead of 60 and holds 5.6 MB less resident. It is linked
## by the toolchain's lld with packed relative relocations (DT_RELR, glibc
## 2.36+: Debian 12): 1.5 MB less resident for `hark listen` (docs/measurements.md,
## "Memory"); where the toolchain has no lld, by its default linker.
## With lld, every function is compiled into its own section and the
## functions Hark's everyday paths run are laid out together, first
## (linker/hark.order, made by scripts/make-link-order.sh), the compiler's
## unnamed ones before them (linker/private-text.ld): the kernel maps code
## 64 KiB around each page run, and `hark listen` kept 11 MB of code resident
## scattered, 5.7 MB laid out so (docs/measurements.md, "Memory"). Functions the list does
## not name still link, where they would have been. SwiftPM does not compile
## again when only these flags change: after changing them, remove
## .build/*/release first. And nothing outside the tool calls into it, so
## its symbols are not exported (--no-export-dynamic: 640 KB of dynamic
## symbol table less, which the dynamic linker read 0.5 MB of; lld still
## exports what a library linked with it looks up, jemalloc's malloc_conf).
LLD := $(shell test -x "$$(dirname "$$(readlink -f "$$(command -v swift)")")/ld.lld" && echo yes)
RELEASE_LINK ?= $(if $(LLD),-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
	-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
	-Xlinker --symbol-ordering-file=$(CURDIR)/linker/hark.order -Xlinker --no-warn-symbol-ordering \
	-Xlinker -T -Xlinker $(CURDIR)/linker/private-text.ld -Xlinker --no-export-dynamic \
	$(ESPEAK_LINK))
## And libraries it would load for nothing stay out. libespeak-ng's shared
## library loads libpcaudio, which loads PulseAudio and behind it X11, xcb,
## D-Bus, systemd, libsndfile's codecs and gcrypt (27 libraries Hark never
## calls; the tool loads 17 instead of 48 without them); pkg-config's
## -lsphinxad (pocketsphinx's audio device library, which Hark does not use)
## loads PulseAudio too. Each library faults in its relocated data and
## start-up code: `hark listen` peaks 3.0-3.5 MB lower without them
## (docs/measurements.md, "Memory"). So the tool links libespeak-ng's static
## library (Debian's libespeak-ng-dev ships it), whose calls into libpcaudio
## Sources/CESpeakNGShims answers with no device (Hark plays speech itself),
## then patchelf drops the two shared libraries from the tool: the link still
## names them, as SwiftPM puts pkg-config's -l flags before any flag given
## here, but every symbol the tool took from them is now its own (or none).
## `hark --version` run with every symbol bound at start (LD_BIND_NOW) checks
## that nothing is missing. Without the static library or patchelf the tool
## links and runs as before, with those libraries loaded.
ESPEAK_STATIC := $(wildcard $(shell pkg-config --variable=libdir espeak-ng 2>/dev/null)/libespeak-ng.a)
ESPEAK_LINK := $(if $(ESPEAK_STATIC),-Xlinker --whole-archive -Xlinker $(ESPEAK_STATIC) \
	-Xlinker --no-whole-archive -Xlinker -l:libsonic.so.0)
UNUSED_LIBRARIES := $(if $(ESPEAK_STATIC),libespeak-ng.so.1) libsphinxad.so.3
build: setup
	swift build -c release --static-swift-stdlib $(RELEASE_LINK)
	@if [ -n "$(LLD)" ] && command -v patchelf >/dev/null; then \
		for lib in $(UNUSED_LIBRARIES); do \
			if readelf -d .build/release/hark | grep -q "NEEDED.*\[$$lib\]"; then \
				patchelf --remove-needed $$lib .build/release/hark || exit 1; fi; \
		done; \
		LD_BIND_NOW=1 .build/release/hark --version >/dev/null || { \
			echo "make build: the tool does not start without $(UNUSED_LIBRARIES): remove .build/release/hark and build again" >&2; exit 1; }; \
	fi

## The manual page, generated from the built tool's command tree by
## swift-argument-parser's generate-manual (run directly: its package plugin
## links the release products again without the runtime in them, and SwiftPM
## then takes the tool linked by `build` for up to date).
man: build
	swift build --product generate-manual
	mkdir -p .build/man
	"$$(swift build --show-bin-path)/generate-manual" .build/release/hark --section 1 --output-directory .build/man

install: build man
	$(MAKE) install-files

## Copies $(HARK), the models, $(MANPAGE) and completion scripts under
## $(DESTDIR)$(PREFIX), building nothing.
install-files:
	install -d $(bindir) $(datadir) $(bashdir) $(zshdir) $(fishdir)
	install -m 755 $(HARK) $(bindir)/hark
	rm -rf $(datadir)/models
	cp -R models $(datadir)/models
	chmod -R u=rwX,go=rX $(datadir)/models
	$(HARK) --generate-completion-script bash > $(bashdir)/hark
	$(HARK) --generate-completion-script zsh > $(zshdir)/_hark
	$(HARK) --generate-completion-script fish > $(fishdir)/hark.fish
	if [ -n "$(MANPAGE)" ]; then install -d $(mandir) && install -m 644 $(MANPAGE) $(mandir)/hark.1; fi

uninstall:
	rm -f $(bindir)/hark $(mandir)/hark.1 $(bashdir)/hark $(zshdir)/_hark $(fishdir)/hark.fish
	rm -rf $(datadir)

## Replay the shipped default fixture through the whole pipeline.
demo: build
	.build/release/hark replay $(FIXTURE) $(ANSWER) --speak-to /tmp/hark-answer.wav
	@echo "(Hark's spoken answer is in /tmp/hark-answer.wav)"

## Run the test suite, then hold the fixtures' accuracy floor (133 fixtures:
## command acceptance measured 57.9% on 2026-11-23; the floor is a little under).
test: setup-test
	./scripts/setup-wyoming.sh
	swift test
	swift build
	.build/debug/hark bench audio-fixtures/manifest.jsonl --jobs 2 --min-command-acceptance 50
	$(MAKE) example

## Build the Swift example app (examples/swift-plants, `import Hark` by path)
## and run typed turns through it.
example: setup
	swift build --package-path examples/swift-plants
	data=$$(mktemp -d) && out=$$(PLANTS_DATA_DIR=$$data examples/swift-plants/.build/debug/plants \
	    "I watered the fern" "when did I last water the fern") && echo "$$out" && rm -rf "$$data" && \
	  echo "$$out" | grep -q "Noted: the fern was watered" && echo "$$out" | grep -q "You watered the fern just now"

## Fuzz each reader (WAV, plist, grammar, Rhino YAML, text parser) with
## libFuzzer: FUZZ_RUNS inputs each (at most FUZZ_SECONDS), from a fixed seed
## with deterministic hashing, so CI repeats the very run that passed here.
## Exploring for new crashes is `scripts/fuzz.sh all 180` (random seed).
## (setarch -R turns address randomisation off: CoreFoundation hashes pointers.)
fuzz: setup
	FUZZ_CORPUS_READONLY=1 SWIFT_DETERMINISTIC_HASHING=1 $(NO_ASLR) scripts/fuzz.sh all $(FUZZ_SECONDS) -seed=1 -runs=$(FUZZ_RUNS)

## Re-synthesise audio-fixtures/ (espeak-ng and flite voices).
fixtures: setup-test
	python3 scripts/make-fixtures.py
