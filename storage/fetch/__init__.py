"""Papers fetched by name: a conference's list from OpenReview or Paper Copilot, an arXiv query.

``registry.fetch_all(["iclr2025"], FetchRequest(), home)`` gives the readers' results of each
source (``registry.SOURCES``); ``Library.import_results`` imports them, all or nothing, as it
imports files. ``web.py`` is the network's border (httpx, imported on the first request),
``pages.py`` the cache of fetched pages in HOME, ``names.py`` what the user may write,
``request.py`` the options (light: the command line reads it without loading the rest).
"""
