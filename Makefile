# Hark's two entry points. Each installs what it needs first (Debian
# packages via scripts/setup.sh), so both work on a fresh machine.

FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= 20000
NO_ASLR := $(shell setarch -R true 2>/dev/null && echo setarch -R)
FIXTURE ?= audio-fixtures/flite-rms/monkeychat-send-bobo-bananas.wav

.PHONY: setup build demo test example fuzz fixtures

setup:
	./scripts/setup.sh

build: setup
	swift build -c release

## Replay the shipped default fixture through the whole pipeline.
demo: build
	.build/release/hark replay $(FIXTURE) --speak-to /tmp/hark-answer.wav
	@echo "(Hark's spoken answer is in /tmp/hark-answer.wav)"

## Run the test suite, then hold the fixtures' accuracy floor (133 fixtures:
## command acceptance measured 57.9% on 2026-11-23; the floor is a little under).
test: setup
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
fixtures: setup
	python3 scripts/make-fixtures.py
