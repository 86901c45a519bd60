"""What a deck's figures look like: the parts of a report page, the shared `stats`/`tune`
formulas, charts, the glossary of every figure, and the HTML report page."""
