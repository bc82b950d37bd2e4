// `import Hark` is all an app author or an embedding program needs: the
// intents and their values, the handler protocols, `IntentKey`, the
// installed apps, and (in this module) the assistant builder and the voice
// session — the way swift-nio's umbrella modules re-export their layers.
@_exported import HarkCatalog
@_exported import HarkEngine
@_exported import HarkIntents
