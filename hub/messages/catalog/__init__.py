"""The message catalog's data: one TOML file per area, each entry ``[key] en = … cs = …``.

Read by :func:`hub.messages.phrasebook.load_catalog`; this package holds no code.
"""
