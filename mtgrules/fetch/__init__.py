"""`mtgrules fetch`: the publisher's new edition, downloaded and ingested.

run.fetch_rules and run.check_for_new_edition are the entry points; http.py is the client
(httpx: timeouts, size cap, redirects, conditional requests), links.py finds the rules
documents a page links, render.py prints the report. What was downloaded is recorded in
the store (store/downloads.py, the ``download`` table).
"""
