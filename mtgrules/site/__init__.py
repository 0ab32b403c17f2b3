"""A static website of the rules' history (`mtgrules site -o DIR`): every edition with its
changelog, every rule of today's rules with its history and translations, and a search page.

build.build_site is the one entry point; history reads every rule's history from the stored
edition alignments, pages renders HTML, charts draws the index's SVG, output writes only the
pages that changed.
"""
