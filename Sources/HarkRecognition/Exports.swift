// Letter-to-sound is its own small target (espeak-ng's rules, no speech
// output); the lexicon's pronunciations for unknown words come from it.
@_exported import HarkLetterToSound
