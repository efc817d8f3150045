"""The grading service on the class hub: a student asks for the hidden-test verdict of their own saved notebook.

A JupyterHub service (the hub starts it; hub OAuth / API tokens decide who asks) that reads the student's
notebook from their own home (``files``), admits the request under the instructor's limits (``limits``),
grades it with the instructor's ``source/`` through the same engine as ``check`` (``grading``), logs it
(``requests``) and answers with the per-question points and messages, never test code (``app``).
``client`` is the student's side: ``course.check_with_hidden_tests()`` and ``python -m autograder check --hub``.
"""
