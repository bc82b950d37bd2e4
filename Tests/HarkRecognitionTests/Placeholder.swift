// Placeholder so the package loads while this module is written; delete when the module has a real file.
