"""Card databases and their index: card records, formats, finding a database's files, the
cache and its SQLite index, "did you mean", and looking cards up for people."""
