"""The live service: table terminals, the director's console, the committee's view.

``schema`` (tables of migration 0003), ``accounts`` (users, web sessions,
table tokens), ``sessions`` (a session's movement, boards and streams),
``app`` (the ASGI application, FastAPI), ``feed`` (server-sent events from the
position-ordered log). The live service talks to :class:`ledger.service.Ledger`
and the store interface only; it never folds or rules by itself.
"""
