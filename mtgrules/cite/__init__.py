"""`mtgrules cite`: the rule numbers other texts cite, checked against an edition.

run.CiteRun is the one entry point; text/citations.py finds the citations, editions.py
reads the editions and follows a rule through them (renumbering.py reads the stored links
of one step), check.py gives each citation its status, infer.py the edition a text was
written for, quotes.py compares quotations, fix.py writes the diff, render.py the output.
"""
