"""The hub's web side: the public table view, the dealer console, the producer's overlay,
signing in, the admin's routes — and who may use which.

:func:`hub.web.app.create_app` builds the app from one ``APIRouter`` per page or area
(:mod:`~hub.web.public`, :mod:`~hub.web.console`, :mod:`~hub.web.overlay`,
:mod:`~hub.web.session`, :mod:`~hub.web.admin`, :mod:`~hub.web.clock`). Below the
routers: what they share (:mod:`~hub.web.dependencies`), the pages
(:mod:`~hub.web.pages`), the interfaces a table offers them (:mod:`~hub.web.tables`),
the access rules (:mod:`~hub.web.auth`) and the errors (:mod:`~hub.web.errors`). The body
cap (:mod:`~hub.web.guard`) and the server (:mod:`~hub.web.server`) guard the rest.
"""
