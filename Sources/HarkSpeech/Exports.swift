// espeak-ng's engine and errors live in HarkESpeak, shared with letter-to-sound;
// what speaks is here.
@_exported import HarkESpeak
