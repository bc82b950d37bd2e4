# Hark's two entry points. Each installs what it needs first (Debian
# packages via scripts/setup.sh), so both work on a fresh machine.

FUZZ_SECONDS ?= 30
FIXTURE ?= audio-fixtures/flite-rms/monkeychat-send-bobo-bananas.wav

.PHONY: setup build demo test fuzz fixtures

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
	swift test
	swift build
	.build/debug/hark bench audio-fixtures/manifest.jsonl --jobs 2 --min-command-acceptance 50

## Fuzz each reader (WAV, plist, grammar, Rhino YAML, text parser) with
## libFuzzer for FUZZ_SECONDS each; CI runs it short, scripts/fuzz.sh all 180 long.
fuzz: setup
	scripts/fuzz.sh all $(FUZZ_SECONDS)

## Re-synthesise audio-fixtures/ (espeak-ng and flite voices).
fixtures: setup
	python3 scripts/make-fixtures.py
