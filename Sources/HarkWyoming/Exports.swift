// JSONValue is part of this module's API (events' data, protocol lines): whoever imports it has it.
@_exported import HarkJSON
