"""The bundled corpus, shipped inside the wheel as ``mtgrules.corpus``.

A package only so that importlib.resources finds it the same way in a checkout, an editable
install and an installed wheel. The sources beside this file are raw bytes: never edit them.
"""
