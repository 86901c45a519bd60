"""What the tool says: messages in every language, codes and the diagnostics that carry them,
the rulebook that ties a check to its code, safe text and line wrapping.

The lowest room of the core: it imports no other.
"""
