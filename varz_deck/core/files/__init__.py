"""Reading untrusted files (size limits, UTF-8, the strict YAML loader), the JSON Schemas the
package ships and their messages, which files are decks, and writing output files safely."""
