import sys

from autograder.check_cli import main as check_main

status = check_main(sys.argv[1:])  # the plain `check NOTEBOOK` without click: a warm check's start-up counts
if status is not None:
    sys.exit(status)

from autograder.cli import main  # noqa: E402 - everything else, and check's other forms

main()
