"""The services the API and the pages share, one module per domain (see service.py)."""
